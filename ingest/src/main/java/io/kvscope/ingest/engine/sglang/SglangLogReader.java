package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.engine.EngineLogReader;
import io.kvscope.ingest.engine.EpochTracker;
import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.LinePrefix;
import io.kvscope.ingest.engine.LineResult;
import io.kvscope.ingest.engine.pyrepr.PyReprException;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One SGLang log file: SGLang's grammar on the shared {@link EngineLogReader}, that is the
 * {@code [date time ranks] } prefix and what each message is. Beyond the shared state it holds the
 * node's current role (from the last {@code server_args}), which its events and hours carry.
 *
 * <p>Startup lines read here: {@code server_args=ServerArgs(...)} (opens an epoch),
 * {@code max_total_num_tokens=N, ..., context_len=N, ...} (the scheduler's pool and context length),
 * {@code KV Cache is allocated. ..., #tokens: N, ...} (the per-rank pool, a stand-in until the
 * scheduler's figure). No SGLang line carries the engine version: it comes from deployment records
 * ({@link io.kvscope.ingest.record.VersionRecord}). {@code Prefill batch...} and
 * {@code Decode batch...} lines are known and counted toward activity only.
 */
final class SglangLogReader extends EngineLogReader {

  static final String SOURCE = "sglang-log";

  private static final Pattern MAX_TOTAL = Pattern.compile("max_total_num_tokens=(\\d+)");
  private static final Pattern CONTEXT_LEN = Pattern.compile("context_len=(\\d+)");
  private static final Pattern KV_TOKENS = Pattern.compile("#tokens: (\\d+)");

  private final JsonRequestLine json = new JsonRequestLine();
  private NodeRole role = NodeRole.UNKNOWN;

  SglangLogReader(InputFile file, String node, RecordSink sink) {
    super(file, node, SOURCE, sink);
  }

  @Override
  protected LinePrefix prefix(String line) {
    SglangPrefix prefix = SglangPrefix.parse(line);
    if (prefix == null) {
      return null;
    }
    return prefix.valid() ? new LinePrefix.Timed(prefix.time(), prefix.messageStart())
        : new LinePrefix.Impossible("the line's timestamp is not a valid date and time");
  }

  @Override
  protected NodeRole role() {
    return role;
  }

  @Override
  protected LineResult readMessage(String line, int at, long number) {
    // Request-logger lines first: they may hold prompt text, which must not reach the checks below.
    if (line.startsWith("Prefill batch", at) || line.startsWith("Decode batch", at)) {
      return LineResult.KNOWN;
    }
    if (line.startsWith(RequestLogLines.RECEIVE, at)) {
      return lastTime() == null ? noTime() : LineResult.of(RequestLogLines.receive(line, at, seed(number)));
    }
    if (line.startsWith(RequestLogLines.FINISH, at)) {
      return lastTime() == null ? noTime() : LineResult.of(RequestLogLines.finish(line, at, seed(number)));
    }
    if (line.startsWith("{", at)) {
      return jsonLine(line, at, number);
    }
    if (line.startsWith("Receive OpenAI:", at)) {
      return LineResult.UNKNOWN; // the raw OpenAI request: nothing here that Receive: lacks
    }
    int marker;
    if ((marker = TimeStatsLine.find(line, at)) >= 0) {
      return lastTime() == null ? noTime() : LineResult.of(TimeStatsLine.read(line, marker, seed(number)));
    }
    if ((marker = line.indexOf(ServerArgsLine.MARKER, at)) >= 0) {
      return startup(line, marker, number);
    }
    if (line.startsWith("max_total_num_tokens=", at)) {
      return schedulerPool(line, at, number);
    }
    if (line.startsWith("KV Cache is allocated", at)) {
      Matcher m = KV_TOKENS.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("KV cache allocation line without '#tokens: N'");
      }
      if (lastTime() == null) {
        return noTime();
      }
      epochs().poolTokens(Long.parseLong(m.group(1)), false, lastTime(), number, role);
      return LineResult.KNOWN;
    }
    LineResult fault = FaultLines.read(line, at, seed(number));
    if (!(fault instanceof LineResult.Unknown)) {
      return lastTime() == null && fault instanceof LineResult.Events ? noTime() : fault;
    }
    return LineResult.UNKNOWN;
  }

  private LineResult startup(String line, int marker, long number) {
    if (lastTime() == null) {
      return noTime();
    }
    EpochTracker.Draft draft = epochs().startup(lastTime(), number, NodeRole.UNKNOWN);
    try {
      ServerArgsLine.read(line, marker, draft);
    } catch (PyReprException garbled) {
      role = NodeRole.UNKNOWN;
      return LineResult.malformed("server_args cannot be read (" + garbled.getMessage()
          + "); a new startup was counted with unknown settings");
    }
    role = draft.role;
    address(draft.host, draft.port, number);
    return LineResult.KNOWN;
  }

  private LineResult schedulerPool(String line, int at, long number) {
    Matcher pool = MAX_TOTAL.matcher(line).region(at, line.length());
    if (!pool.find()) {
      return LineResult.malformed("max_total_num_tokens line without a number");
    }
    if (lastTime() == null) {
      return noTime();
    }
    Matcher context = CONTEXT_LEN.matcher(line).region(at, line.length());
    if (context.find()) {
      epochs().contextLength(Long.parseLong(context.group(1)), lastTime(), number, role);
    }
    epochs().poolTokens(Long.parseLong(pool.group(1)), true, lastTime(), number, role);
    return LineResult.KNOWN;
  }

  private LineResult jsonLine(String line, int at, long number) {
    if (!JsonRequestLine.isRequestEvent(line, at)) {
      return LineResult.UNKNOWN;
    }
    Map<String, Object> fields;
    try {
      fields = json.read(line, at);
    } catch (IOException garbled) {
      return LineResult.malformed("request-logger JSON cannot be read (cut or invalid)");
    }
    Long own = JsonRequestLine.time(fields);
    Long time = own != null ? own : lastTime();
    if (time == null) {
      return noTime();
    }
    List<EventBuilder> events = json.events(fields, seed(number).at(time));
    return events.isEmpty() ? LineResult.UNKNOWN : LineResult.of(events);
  }

  private EventSeed seed(long number) {
    Long time = lastTime();
    return new EventSeed(node(), role, time == null ? 0 : time, fileName(), number);
  }
}
