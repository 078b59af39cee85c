package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.engine.EngineLogIngestor;
import io.kvscope.ingest.engine.EngineLogReader;
import io.kvscope.ingest.engine.HeadTally;
import java.util.List;
import java.util.Locale;

/**
 * SGLang server logs: config epochs per startup, per-request engine events, faults, rejections and
 * hourly activity. The node is {@code --node} or the file name stem ({@code prefill-0.log.gz} ->
 * {@code prefill-0}); the role comes from the file's own {@code server_args}.
 */
public final class SglangLogIngestor extends EngineLogIngestor {

  /** Lines only SGLang writes. */
  private static final List<String> MARKERS = List.of("server_args=ServerArgs(", "Prefill batch",
      "Decode batch", "Req Time Stats(", "ReqTimeStats(", "KV Cache is allocated", "max_total_num_tokens=",
      "Receive: obj=", "Finish: obj=", "KV cache pool is full",
      "bootstrap failed for request", "transfer failed for request");

  @Override
  public String name() {
    return "sglang-log";
  }

  @Override
  public String description() {
    return "SGLang server log (text or JSON request logger): config epochs, request events, faults";
  }

  @Override
  protected void tally(String line, HeadTally tally) {
    SglangPrefix prefix = SglangPrefix.parse(line);
    if (prefix != null && prefix.valid()) {
      tally.prefixedLine();
    }
    tally.lookForMarker(line, MARKERS); // whole phrases: they count on any line
    if (line.startsWith("{") && JsonRequestLine.isRequestEvent(line, 0) && line.contains("\"event\"")) {
      tally.ownJsonLine();
    } else if (line.startsWith("{")) {
      tally.otherJsonLine();
    }
  }

  @Override
  protected int score(HeadTally tally, String head) {
    if (tally.prefixAndMarker()) {
      return 95;
    }
    if (tally.ownJson()) {
      return 85;
    }
    if (tally.prefixed() > 0 && head.toLowerCase(Locale.ROOT).contains("sglang")) {
      return 70;
    }
    return 0;
  }

  @Override
  protected EngineLogReader reader(InputFile file, String node, RecordSink sink) {
    return new SglangLogReader(file, node, sink);
  }
}
