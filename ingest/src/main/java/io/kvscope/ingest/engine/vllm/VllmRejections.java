package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.LineResult;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vLLM's over-length errors, wherever they appear (an {@code ERROR} line or the last line of a
 * traceback, which has no prefix). Each becomes {@code REJECTED} with the prompt's tokens as
 * {@code requestedLen} and the quoted limit; vLLM does not print the request id with them.
 * <ul>
 *   <li>{@code This model's maximum context length is M tokens. However, your request has N input
 *       tokens. ...} (current OpenAI server; also {@code ... N prompt tokens});
 *   <li>{@code This model's maximum context length is M tokens. However, you requested T tokens (N in
 *       the messages, K in the completion). ...} (older server; requested = N);
 *   <li>{@code This model's maximum context length is M tokens. However, you requested K output tokens
 *       and your prompt contains at least N input tokens...} (requested = N);
 *   <li>{@code This model's maximum context length is M tokens. However, you requested T tokens} and
 *       {@code ... However, your messages resulted in T tokens} (requested = T);
 *   <li>{@code 'max_tokens' or 'max_completion_tokens' is too large: K. This model's maximum context
 *       length is M tokens and your request has N input tokens (K > M - N).} (requested = N);
 *   <li>{@code The decoder prompt (length N) is longer than the maximum model length of M.} (also
 *       {@code encoder}, or no qualifier);
 *   <li>{@code The prompt (total length N) is too long to fit into the model (context length M).};
 *   <li>{@code Input prompt (N tokens) is too long and exceeds limit of M} (V0 scheduler).
 * </ul>
 */
final class VllmRejections {

  private record Form(Pattern pattern, int requested, int limit, String what) {}

  private static final String MAX_CONTEXT = "This model's maximum context length is (\\d+) tokens\\.? ";
  private static final List<Form> FORMS = List.of(
      new Form(Pattern.compile(MAX_CONTEXT + "However, you requested (\\d+) output tokens and your prompt "
          + "contains at least (\\d+) input tokens"), 3, 1, "prompt plus requested output exceed"),
      new Form(Pattern.compile(MAX_CONTEXT + "However, you requested (\\d+) tokens \\((\\d+) in the "
          + "messages, (\\d+) in the completion\\)"), 3, 1, "messages plus completion exceed"),
      new Form(Pattern.compile(MAX_CONTEXT + "However, your request has (\\d+) (?:input |prompt )?tokens"),
          2, 1, "prompt exceeds"),
      new Form(Pattern.compile(MAX_CONTEXT + "However, (?:you requested|your messages resulted in) "
          + "(\\d+) tokens"), 2, 1, "request exceeds"),
      new Form(Pattern.compile("maximum context length is (\\d+) tokens and your request has (\\d+) input "
          + "tokens"), 2, 1, "max_tokens too large for the prompt within"),
      new Form(Pattern.compile("The (?:decoder |encoder )?prompt \\((?:total )?length (\\d+)\\) is longer "
          + "than the maximum model length of (\\d+)"), 1, 2, "prompt exceeds"),
      new Form(Pattern.compile("The (?:decoder |encoder )?prompt \\((?:total )?length (\\d+)\\) is too long "
          + "to fit into the model \\(context length (\\d+)\\)"), 1, 2, "prompt exceeds"),
      new Form(Pattern.compile("Input prompt \\((\\d+) tokens\\) is too long and exceeds limit of (\\d+)"),
          1, 2, "prompt exceeds"));

  private VllmRejections() {}

  /** Cheap test before any pattern runs. */
  static boolean mentions(String line, int at) {
    return line.indexOf("maximum context length is", at) >= 0
        || line.indexOf("maximum model length of", at) >= 0
        || line.indexOf("too long to fit into the model", at) >= 0
        || line.indexOf("is too long and exceeds limit of", at) >= 0;
  }

  static LineResult read(String line, int at, String node, long time, String file, long number) {
    for (Form form : FORMS) {
      Matcher m = form.pattern().matcher(line).region(at, line.length());
      if (m.find()) {
        long requested = Long.parseLong(m.group(form.requested()));
        long limit = Long.parseLong(m.group(form.limit()));
        return LineResult.of(EventBuilder.of(EngineEvent.Kind.REJECTED, node, NodeRole.UNIFIED, time, file,
                number)
            .requestedLen(requested)
            .limit(limit)
            .detail(requested + " prompt tokens: " + form.what() + " the maximum context length of "
                + limit + " tokens"));
      }
    }
    return LineResult.malformed("over-length error without its token counts");
  }
}
