package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.engine.EngineLogReader;
import io.kvscope.ingest.engine.EpochTracker;
import io.kvscope.ingest.engine.LinePrefix;
import io.kvscope.ingest.engine.LineResult;
import io.kvscope.ingest.engine.Numbers;
import io.kvscope.ingest.engine.pyrepr.PyReprParser;
import io.kvscope.ingest.engine.pyrepr.PyValue;
import io.kvscope.ingest.engine.pyrepr.ReadSelection;
import io.kvscope.ingest.record.NodeRole;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One vLLM log file: vLLM's grammar on the shared {@link EngineLogReader}. Lines read:
 * <ul>
 *   <li>{@code vLLM API server version X}: a startup, opens an epoch with that version;
 *   <li>{@code args: Namespace(...)} and {@code non-default args: {...}}: {@code max_model_len},
 *       {@code model}/{@code model_tag}, {@code served_model_name}, {@code block_size};
 *   <li>{@code Initializing a V1 LLM engine (vX) with config: model='m', ..., max_seq_len=N, ...}:
 *       version, model and context length;
 *   <li>{@code Using max model len N}: context length;
 *   <li>{@code GPU KV cache size: N tokens} (thousands separators allowed): the pool;
 *   <li>{@code Maximum concurrency for N tokens per request: X}: N is the max model len;
 *   <li>{@code [Engine 000: ]Avg prompt throughput: ...}: periodic stats, counted toward activity;
 *   <li>the over-length errors of {@link VllmRejections}.
 * </ul>
 * and the per-request lines of {@link VllmRequestLines} ({@code Received request ID: ...},
 * {@code Request ID failed (bad request).}, ...), of which only the id and the outcome are read: they
 * may carry prompt or output text. The server's own {@code host}/{@code port} arguments, when
 * concrete, become aliases of the node.
 */
final class VllmLogReader extends EngineLogReader {

  static final String SOURCE = "vllm-log";

  private static final Pattern VERSION = Pattern.compile("vLLM API server version:?\\s+v?(\\S+)");
  private static final Pattern ENGINE_INIT = Pattern.compile("LLM engine \\(v([^)\\s]+)\\)");
  private static final Pattern INIT_MODEL = Pattern.compile("(?<![A-Za-z_])model='([^']*)'");
  private static final Pattern INIT_SERVED = Pattern.compile("served_model_name=([^,\\s]+)");
  private static final Pattern INIT_MAX_LEN = Pattern.compile("max_seq_len=(\\d+)");
  private static final Pattern MAX_MODEL_LEN = Pattern.compile("Using max model len (\\d[\\d,]*)");
  private static final Pattern KV_SIZE = Pattern.compile("GPU KV cache size: (\\d[\\d,]*) tokens");
  private static final Pattern CONCURRENCY = Pattern.compile(
      "Maximum concurrency for (\\d[\\d,]*) tokens per request");
  private static final ReadSelection ARGS = ReadSelection.keys("max_model_len", "model", "model_tag", "served_model_name",
      "block_size", "host", "port");

  private final YearResolver years;

  VllmLogReader(InputFile file, String node, RecordSink sink, long referenceMs) {
    super(file, node, SOURCE, sink);
    this.years = new YearResolver(referenceMs);
  }

  @Override
  protected LinePrefix prefix(String line) {
    VllmPrefix prefix = VllmPrefix.parse(line);
    if (prefix == null) {
      return null;
    }
    Long time = prefix.valid() ? years.epochMillis(prefix.month(), prefix.day(), prefix.hour(),
        prefix.minute(), prefix.second(), prefix.millis()) : null;
    return time == null ? new LinePrefix.Impossible("the line's date and time cannot be a real date")
        : new LinePrefix.Timed(time, prefix.messageStart());
  }

  /** One process serving prefill and decode. */
  @Override
  protected NodeRole role() {
    return NodeRole.UNIFIED;
  }

  @Override
  protected LineResult readMessage(String line, int at, long number) {
    // Request lines first: they may hold prompt or output text, which must not reach the checks below.
    if (VllmRequestLines.mentions(line, at)) {
      LineResult request = lastTime() == null ? LineResult.UNKNOWN
          : VllmRequestLines.read(line, at, node(), lastTime(), fileName(), number);
      if (!(request instanceof LineResult.Unknown)) {
        return request;
      }
      if (line.startsWith("Received request", at) || line.startsWith("Generated response", at)) {
        return lastTime() == null ? noTime() : LineResult.UNKNOWN;
      }
    }
    if (line.startsWith("Avg prompt throughput", at) || (line.startsWith("Engine ", at)
        && line.indexOf("Avg prompt throughput", at) >= 0)) {
      return LineResult.KNOWN;
    }
    Matcher m;
    if (line.indexOf("vLLM API server version", at) >= 0) {
      m = VERSION.matcher(line).region(at, line.length());
      if (!m.find()) {
        return LineResult.malformed("version line without a version");
      }
      if (lastTime() == null) {
        return noTime();
      }
      epochs().startup(lastTime(), number, NodeRole.UNIFIED).engineVersion = m.group(1);
      return LineResult.KNOWN;
    }
    if (line.startsWith("args: Namespace(", at) || line.startsWith("non-default args: {", at)) {
      return args(line, line.indexOf(line.charAt(at) == 'a' ? "Namespace(" : "{", at), number);
    }
    if (line.indexOf("LLM engine (v", at) >= 0 && line.indexOf("with config:", at) >= 0) {
      return engineInit(line, at, number);
    }
    if ((m = MAX_MODEL_LEN.matcher(line).region(at, line.length())).lookingAt()) {
      return lastTime() == null ? noTime() : context(m.group(1), number);
    }
    boolean kvSize = line.indexOf("GPU KV cache size:", at) >= 0;
    boolean concurrency = line.indexOf("Maximum concurrency for", at) >= 0;
    if (kvSize || concurrency) {
      return limits(line, at, number, kvSize, concurrency);
    }
    if (VllmRejections.mentions(line, at)) {
      if (lastTime() == null) {
        return noTime();
      }
      return VllmRejections.read(line, at, node(), lastTime(), fileName(), number);
    }
    return LineResult.UNKNOWN;
  }

  private LineResult args(String line, int start, long number) {
    if (lastTime() == null) {
      return noTime();
    }
    PyValue args = new PyReprParser(line, start).value(ARGS);
    EpochTracker.Draft draft = epochs().current(lastTime(), number, NodeRole.UNIFIED);
    draft.role = NodeRole.UNIFIED;
    String model = text(args.get("model"));
    if (model == null) {
      model = text(args.get("model_tag"));
    }
    if (model != null && draft.model == null) {
      draft.model = model;
    }
    String served = text(args.get("served_model_name"));
    if (served != null) {
      draft.servedModelName = served;
    }
    Long block = args.get("block_size") == null ? null : args.get("block_size").asLong();
    if (block != null && block <= Integer.MAX_VALUE) {
      draft.pageSize = block.intValue();
    }
    address(text(args.get("host")), args.get("port") == null ? null : args.get("port").asLong(), number);
    Long maxLen = args.get("max_model_len") == null ? null : args.get("max_model_len").asLong();
    if (maxLen != null) {
      epochs().contextLength(maxLen, lastTime(), number, NodeRole.UNIFIED);
    }
    return LineResult.KNOWN;
  }

  private LineResult engineInit(String line, int at, long number) {
    if (lastTime() == null) {
      return noTime();
    }
    EpochTracker.Draft draft = epochs().current(lastTime(), number, NodeRole.UNIFIED);
    Matcher m = ENGINE_INIT.matcher(line).region(at, line.length());
    if (m.find() && draft.engineVersion == null) {
      draft.engineVersion = m.group(1);
    }
    m = INIT_MODEL.matcher(line).region(at, line.length());
    if (m.find() && draft.model == null) {
      draft.model = m.group(1);
    }
    m = INIT_SERVED.matcher(line).region(at, line.length());
    if (m.find() && draft.servedModelName == null && !m.group(1).equals("None")) {
      draft.servedModelName = m.group(1).replace("'", "");
    }
    m = INIT_MAX_LEN.matcher(line).region(at, line.length());
    if (m.find()) {
      epochs().contextLength(Long.parseLong(m.group(1)), lastTime(), number, NodeRole.UNIFIED);
    }
    return LineResult.KNOWN;
  }

  private LineResult limits(String line, int at, long number, boolean kvSize, boolean concurrency) {
    Long pool = null;
    Long context = null;
    if (kvSize) {
      Matcher m = KV_SIZE.matcher(line).region(at, line.length());
      if (!m.find() || (pool = Numbers.grouped(m.group(1))) == null) {
        return LineResult.malformed("GPU KV cache size line without 'N tokens'");
      }
    }
    if (concurrency) {
      Matcher m = CONCURRENCY.matcher(line).region(at, line.length());
      if (!m.find() || (context = Numbers.grouped(m.group(1))) == null) {
        return LineResult.malformed("maximum concurrency line without 'for N tokens per request'");
      }
    }
    if (lastTime() == null) {
      return noTime();
    }
    if (context != null) {
      epochs().contextLength(context, lastTime(), number, NodeRole.UNIFIED);
    }
    if (pool != null) {
      epochs().poolTokens(pool, true, lastTime(), number, NodeRole.UNIFIED);
    }
    return LineResult.KNOWN;
  }

  private LineResult context(String digits, long number) {
    Long context = Numbers.grouped(digits);
    if (context == null) {
      return LineResult.malformed("max model len is not a number");
    }
    epochs().contextLength(context, lastTime(), number, NodeRole.UNIFIED);
    return LineResult.KNOWN;
  }

  private static String text(PyValue v) {
    if (v == null || v.isNone()) {
      return null;
    }
    if (v instanceof PyValue.Seq s) {
      return s.items().isEmpty() ? null : text(s.items().get(0));
    }
    String t = v.text();
    return t == null || t.isBlank() ? null : t;
  }
}
