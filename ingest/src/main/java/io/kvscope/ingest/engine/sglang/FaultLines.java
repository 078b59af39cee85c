package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.LineResult;
import io.kvscope.ingest.record.EngineEvent;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Faults and over-length rejections. Recognised (anywhere in the message, with rid and bootstrap
 * room taken from {@code rid=}/{@code req.rid=}/{@code decode_req.req.rid=} and
 * {@code bootstrap_room=} when the line has them):
 * <ul>
 *   <li>{@code Prefill bootstrap failed for request ...} and {@code Decode handshake failed for
 *       request ...}: {@code BOOTSTRAP_FAILED};
 *   <li>{@code Decode transfer failed for request ... with exception KVTransferError(...)} and
 *       {@code Prefill transfer failed for request ...}: {@code TRANSFER_FAILED};
 *   <li>{@code kv_canary violation: ...}: {@code CANARY_VIOLATION};
 *   <li>{@code KV checksum mismatch[ for request R: ...]}: {@code CHECKSUM_MISMATCH};
 *   <li>{@code KV cache pool is full. Retract requests. #retracted_reqs: n, ...}: {@code POOL_FULL};
 *   <li>scheduler: {@code Input length (N tokens) exceeds the maximum allowed length (M tokens). Use a
 *       shorter input or enable --allow-auto-truncate.[, self.rid='r']}: {@code REJECTED},
 *       requested N, limit M;
 *   <li>prefill bootstrap queue (later builds): {@code Request R exceeds the maximum number of tokens: N > P},
 *       where P is the KV pool: {@code REJECTED}, requested N, limit P;
 *   <li>tokenizer: {@code The input (N tokens) is longer than the model's context length (C tokens).}:
 *       {@code REJECTED}, requested N, limit C; and {@code Requested token count exceeds the model's
 *       maximum context length of C tokens. You requested a total of T tokens: N tokens from the
 *       input messages and K tokens for the completion.}: {@code REJECTED}, requested N, limit C.
 * </ul>
 * The same messages with auto-truncation ({@code ... Truncating the input.}, {@code ... will be
 * truncated ...}, {@code Request length is longer than the KV cache pool size ... Truncated.}) are
 * known but are not rejections: the request ran on a truncated prompt. {@code detail} is the fault's
 * own sentence (its head and the exception text), cut short; the log's rank tags are left out so
 * that the copies every rank writes are one fact.
 */
final class FaultLines {

  static final Pattern RID = Pattern.compile(
      "(?<![A-Za-z0-9_])(?:[A-Za-z_][A-Za-z0-9_]*\\.)*rid=(?:'([^']*)'|\"([^\"]*)\"|([^\\s,;)'\"]+))");
  static final Pattern ROOM = Pattern.compile(
      "(?<![A-Za-z0-9_])(?:[A-Za-z_][A-Za-z0-9_]*\\.)*bootstrap_room=(-?\\d+)");
  private static final Pattern FOR_REQUEST = Pattern.compile("for request ([^\\s:,=]+)(?=[\\s:,.]|$)");

  private static final Pattern SCHEDULER = Pattern.compile(
      "Input length \\((\\d+) tokens\\) exceeds the maximum allowed length \\((\\d+) tokens\\)");
  private static final Pattern POOL_CAPACITY = Pattern.compile(
      "Request (\\S+) exceeds the maximum number of tokens: (\\d+) > (\\d+)");
  private static final Pattern TOKENIZER = Pattern.compile(
      "The input \\((\\d+) tokens\\) is longer than the model's context length \\((\\d+) tokens\\)");
  private static final Pattern TOTAL = Pattern.compile(
      "Requested token count exceeds the model's maximum context length of (\\d+) tokens\\. You "
          + "requested a total of (\\d+) tokens: (\\d+) tokens from the input messages and (\\d+) "
          + "tokens for the completion");

  private FaultLines() {}

  /** The fault or rejection in the message at {@code at}, or {@link LineResult#UNKNOWN}. */
  static LineResult read(String line, int at, EventSeed seed) {
    int i;
    if ((i = line.indexOf("bootstrap failed for request", at)) >= 0
        || (i = line.indexOf("handshake failed for request", at)) >= 0) {
      return fault(EngineEvent.Kind.BOOTSTRAP_FAILED, line, sentenceStart(line, at, i), seed);
    }
    if ((i = line.indexOf("transfer failed for request", at)) >= 0) {
      return fault(EngineEvent.Kind.TRANSFER_FAILED, line, sentenceStart(line, at, i), seed);
    }
    if ((i = line.indexOf("kv_canary violation", at)) >= 0) {
      return fault(EngineEvent.Kind.CANARY_VIOLATION, line, i, seed);
    }
    if ((i = line.indexOf("KV checksum mismatch", at)) >= 0) {
      return fault(EngineEvent.Kind.CHECKSUM_MISMATCH, line, i, seed);
    }
    if ((i = line.indexOf("KV cache pool is full", at)) >= 0) {
      return fault(EngineEvent.Kind.POOL_FULL, line, i, seed);
    }
    return rejection(line, at, seed);
  }

  private static LineResult rejection(String line, int at, EventSeed seed) {
    if (line.indexOf("exceeds the maximum allowed length", at) >= 0) {
      Matcher m = SCHEDULER.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("over-length rejection without its token counts");
      }
      return rejected(line, at, seed, m.group(1), m.group(2),
          "Input length (" + m.group(1) + " tokens) exceeds the maximum allowed length ("
              + m.group(2) + " tokens)");
    }
    if (line.indexOf("exceeds the maximum number of tokens", at) >= 0) {
      Matcher m = POOL_CAPACITY.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("over-length rejection without its token counts");
      }
      return LineResult.of(seed.event(EngineEvent.Kind.REJECTED)
          .rid(m.group(1))
          .requestedLen(Long.parseLong(m.group(2)))
          .limit(Long.parseLong(m.group(3)))
          .detail("Request exceeds the maximum number of tokens: " + m.group(2) + " > " + m.group(3)));
    }
    if (line.indexOf("is longer than the model's context length", at) >= 0) {
      Matcher m = TOKENIZER.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("over-length rejection without its token counts");
      }
      if (line.indexOf("Truncating", m.end()) >= 0) {
        return LineResult.KNOWN;
      }
      return rejected(line, at, seed, m.group(1), m.group(2),
          "The input (" + m.group(1) + " tokens) is longer than the model's context length ("
              + m.group(2) + " tokens)");
    }
    if (line.indexOf("token count exceeds the model's maximum context length", at) >= 0) {
      if (line.indexOf("truncated", at) >= 0) {
        return LineResult.KNOWN;
      }
      Matcher m = TOTAL.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("over-length rejection without its token counts");
      }
      return rejected(line, at, seed, m.group(3), m.group(1),
          "Requested " + m.group(2) + " tokens (" + m.group(3) + " input + " + m.group(4)
              + " completion) exceed the context length of " + m.group(1) + " tokens");
    }
    if (line.indexOf("Request length is longer than the KV cache pool size", at) >= 0) {
      return LineResult.KNOWN;
    }
    return LineResult.UNKNOWN;
  }

  private static LineResult rejected(String line, int at, EventSeed seed, String requested,
      String limit, String detail) {
    return LineResult.of(seed.event(EngineEvent.Kind.REJECTED)
        .rid(rid(line, at))
        .bootstrapRoom(room(line, at))
        .requestedLen(Long.parseLong(requested))
        .limit(Long.parseLong(limit))
        .detail(detail));
  }

  private static LineResult fault(EngineEvent.Kind kind, String line, int phraseAt, EventSeed seed) {
    return LineResult.of(seed.event(kind)
        .rid(rid(line, phraseAt))
        .bootstrapRoom(room(line, phraseAt))
        .detail(detail(kind, line, phraseAt)));
  }

  /**
   * The fault's own words without rank and ids: the sentence head up to {@code for request}, then
   * what follows {@code with exception}; for the other kinds, the message from its phrase on.
   */
  private static String detail(EngineEvent.Kind kind, String line, int phraseAt) {
    int cut = Math.min(line.length(), phraseAt + 4 * EventBuilder.MAX_DETAIL);
    String rest = line.substring(phraseAt, cut);
    if (kind == EngineEvent.Kind.BOOTSTRAP_FAILED || kind == EngineEvent.Kind.TRANSFER_FAILED) {
      int forRequest = rest.indexOf(" for request");
      String head = forRequest >= 0 ? rest.substring(0, forRequest) : rest;
      int exception = rest.indexOf(" with exception ");
      return exception >= 0 ? head + ": " + rest.substring(exception + " with exception ".length()) : head;
    }
    return rest;
  }

  /** The word before the phrase: "Prefill" in "Prefill bootstrap failed", "Decode" in "Decode transfer failed". */
  private static int sentenceStart(String line, int at, int phrase) {
    int space = phrase - 1;
    if (space <= at || line.charAt(space) != ' ') {
      return phrase;
    }
    int start = space;
    while (start > at && line.charAt(start - 1) != ' ') {
      start--;
    }
    return start;
  }

  static String rid(String line, int at) {
    Matcher m = RID.matcher(line).region(at, line.length());
    if (m.find()) {
      String rid = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      return rid == null || rid.isBlank() || rid.equals("None") ? null : rid;
    }
    Matcher f = FOR_REQUEST.matcher(line).region(at, line.length());
    return f.find() ? f.group(1) : null;
  }

  static Long room(String line, int at) {
    Matcher m = ROOM.matcher(line).region(at, line.length());
    if (!m.find()) {
      return null;
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException tooLarge) {
      return null;
    }
  }
}
