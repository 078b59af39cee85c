package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.EngineRids;
import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.LineResult;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vLLM's per-request lines, written when request logging is on. Only the request id, the kind of
 * line and a finish reason are read: several of these lines carry the prompt or the output text,
 * which is never looked at.
 * <ul>
 *   <li>{@code Received request ID: ...} (the OpenAI server's {@code RequestLogger.log_inputs}: with
 *       {@code prompt: ..., params: ..., prompt_token_ids: ...} up to 0.9, {@code params: ...,
 *       lora_request: ...} since) becomes {@code RECEIVED};
 *   <li>{@code Added request ID.} (the V0 engine's request tracker) becomes {@code RECEIVED};
 *   <li>{@code Finished request ID.} (V0) becomes {@code FINISHED};
 *   <li>{@code Generated response ID: ..., finish_reason: R} ({@code log_outputs}; streaming deltas
 *       are skipped) becomes {@code FINISHED} with the finish reason;
 *   <li>{@code Aborted request ID.} (V0) and {@code Request ID aborted.} (V1) become
 *       {@code FINISHED} with finish reason {@code abort};
 *   <li>{@code Request ID failed (bad request).} (V1 {@code AsyncLLM.generate}: the engine's input
 *       validation refused it, over-length prompts included, and the client got a 400) becomes
 *       {@code REJECTED}; vLLM does not log the reason with the id.
 * </ul>
 * The id is the OpenAI response id the gateway logged ({@code chatcmpl-...}); the join key is that
 * id without the {@code chatcmpl-} prefix, as for every engine. Two forms are brought back to it:
 * the V1 engine's internal id, which {@code InputProcessor.assign_request_id} makes by appending
 * {@code -} and 8 random hex characters and which {@code Added request} prints, and the completions
 * endpoint's per-choice id {@code cmpl-ID-N} ({@code serving_completion}: {@code request_id-i}).
 */
final class VllmRequestLines {

  private static final Pattern RECEIVED = Pattern.compile("Received request (\\S+?):(?: |$)");
  private static final Pattern ADDED = Pattern.compile("Added request (\\S+)\\.$");
  private static final Pattern FINISHED = Pattern.compile("Finished request (\\S+)\\.$");
  private static final Pattern ABORTED_V0 = Pattern.compile("Aborted request (\\S+)\\.$");
  private static final Pattern V1_OUTCOME = Pattern.compile(
      "Request (\\S+) (aborted|failed \\(bad request\\)|failed \\(engine dead\\)|failed)\\.$");
  private static final Pattern GENERATED = Pattern.compile("Generated response (\\S+?)( \\(streaming delta\\)| "
      + "\\(streaming complete\\))?:");
  /** Anchored at the end: the output text before it may contain anything. */
  private static final Pattern FINISH_REASON = Pattern.compile("finish_reason: ([A-Za-z_]+|None)\\s*$");
  /** The 8 random hex characters the V1 engine appends to make its internal request id. */
  private static final Pattern INTERNAL_SUFFIX = Pattern.compile("^(.+)-[0-9a-f]{8}$");
  private static final Pattern CHOICE_SUFFIX = Pattern.compile("^(cmpl-.+)-\\d{1,4}$");

  private VllmRequestLines() {}

  /** Cheap test before any pattern runs. */
  static boolean mentions(String line, int at) {
    return line.startsWith("Received request ", at) || line.startsWith("Added request ", at)
        || line.startsWith("Finished request ", at) || line.startsWith("Aborted request ", at)
        || line.startsWith("Generated response ", at) || line.startsWith("Request ", at);
  }

  /** What the line at {@code at} says about a request; {@link LineResult#UNKNOWN} for other lines. */
  static LineResult read(String line, int at, String node, long time, String file, long number) {
    String rest = line.substring(at).stripTrailing();
    Matcher m;
    if ((m = RECEIVED.matcher(rest)).lookingAt()) {
      return event(EngineEvent.Kind.RECEIVED, m.group(1), node, time, file, number);
    }
    if ((m = ADDED.matcher(rest)).matches()) {
      Matcher internal = INTERNAL_SUFFIX.matcher(m.group(1));
      String external = internal.matches() && internal.group(1).contains("-") ? internal.group(1) : m.group(1);
      return event(EngineEvent.Kind.RECEIVED, external, node, time, file, number);
    }
    if ((m = FINISHED.matcher(rest)).matches()) {
      return event(EngineEvent.Kind.FINISHED, m.group(1), node, time, file, number);
    }
    if ((m = ABORTED_V0.matcher(rest)).matches()) {
      return finished(m.group(1), "abort", node, time, file, number);
    }
    if ((m = V1_OUTCOME.matcher(rest)).matches()) {
      return switch (m.group(2)) {
        case "aborted" -> finished(m.group(1), "abort", node, time, file, number);
        case "failed (bad request)" -> rejected(m.group(1), node, time, file, number);
        default -> finished(m.group(1), "error", node, time, file, number);
      };
    }
    if ((m = GENERATED.matcher(rest)).lookingAt()) {
      if (" (streaming delta)".equals(m.group(2))) {
        return LineResult.KNOWN; // one chunk of a stream; the complete line follows
      }
      Matcher reason = FINISH_REASON.matcher(rest);
      String finish = reason.find() && !reason.group(1).equals("None") ? reason.group(1) : null;
      return finished(m.group(1), finish, node, time, file, number);
    }
    return LineResult.UNKNOWN;
  }

  /** The join key of a logged id: a completion choice's id is its response's. */
  private static String rid(String id) {
    Matcher choice = CHOICE_SUFFIX.matcher(id);
    return EngineRids.fromResponseId(choice.matches() ? choice.group(1) : id);
  }

  private static LineResult event(EngineEvent.Kind kind, String id, String node, long time, String file, long number) {
    String rid = rid(id);
    if (rid == null) {
      return LineResult.malformed("request line without a request id");
    }
    return LineResult.of(EventBuilder.of(kind, node, NodeRole.UNIFIED, time, file, number).rid(rid));
  }

  private static LineResult finished(String id, String reason, String node, long time, String file, long number) {
    String rid = rid(id);
    if (rid == null) {
      return LineResult.malformed("request line without a request id");
    }
    return LineResult.of(EventBuilder.of(EngineEvent.Kind.FINISHED, node, NodeRole.UNIFIED, time, file, number)
        .rid(rid).finishReason(reason));
  }

  private static LineResult rejected(String id, String node, long time, String file, long number) {
    String rid = rid(id);
    if (rid == null) {
      return LineResult.malformed("request line without a request id");
    }
    return LineResult.of(EventBuilder.of(EngineEvent.Kind.REJECTED, node, NodeRole.UNIFIED, time, file, number)
        .rid(rid).detail("vLLM refused the request in input validation (bad request): the client got an error; "
            + "vLLM logs no reason with the id"));
  }
}
