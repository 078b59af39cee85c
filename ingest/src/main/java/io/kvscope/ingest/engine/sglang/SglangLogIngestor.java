package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.engine.NodeNames;
import java.io.IOException;
import java.util.List;

/**
 * SGLang server logs: config epochs per startup, per-request engine events, faults, rejections and
 * hourly activity. The node is {@code --node} or the file name stem ({@code prefill-0.log.gz} ->
 * {@code prefill-0}); the role comes from the file's own {@code server_args}.
 */
public final class SglangLogIngestor implements Ingestor {

  /** Lines only SGLang writes. */
  private static final List<String> MARKERS = List.of("server_args=ServerArgs(", "Prefill batch",
      "Decode batch", "ReqTimeStats(", "KV Cache is allocated", "max_total_num_tokens=",
      "Receive: obj=", "Finish: obj=", "sglang version", "KV cache pool is full",
      "bootstrap failed for request", "transfer failed for request");

  /** Enough lines to decide; a long head is mostly request text. */
  private static final int SNIFF_LINES = 2000;

  @Override
  public String name() {
    return "sglang-log";
  }

  @Override
  public String description() {
    return "SGLang server log (text or JSON request logger): config epochs, request events, faults";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    String head = sniff.text();
    int prefixed = 0;
    boolean marker = false;
    boolean requestJson = false;
    int otherJson = 0;
    int start = 0;
    for (int lines = 0; lines < SNIFF_LINES && start < head.length(); lines++) {
      int end = head.indexOf('\n', start);
      String line = head.substring(start, end < 0 ? head.length() : end);
      start = end < 0 ? head.length() : end + 1;
      SglangPrefix prefix = SglangPrefix.parse(line);
      if (prefix != null && prefix.valid()) {
        prefixed++;
      }
      if (!marker) {
        for (String m : MARKERS) {
          if (line.contains(m)) {
            marker = true;
            break;
          }
        }
      }
      if (line.startsWith("{") && JsonRequestLine.isRequestEvent(line, 0) && line.contains("\"event\"")) {
        requestJson = true;
      } else if (line.startsWith("{")) {
        otherJson++;
      }
    }
    if (otherJson > prefixed) {
      // Mostly JSON records of another kind with some engine lines among them: a JSON format
      // should read it and report the engine lines, since this reader skips unknown lines silently.
      return prefixed > 0 && marker ? 30 : 0;
    }
    if (prefixed > 0 && marker) {
      return 95;
    }
    if (requestJson) {
      return 85;
    }
    if (prefixed > 0 && containsIgnoreCase(head, "sglang")) {
      return 70;
    }
    return 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    new SglangLogReader(file, NodeNames.of(file, options), sink).run();
  }

  private static boolean containsIgnoreCase(String text, String word) {
    return text.toLowerCase(java.util.Locale.ROOT).contains(word);
  }

  @Override
  public boolean carriesRequests() {
    return false;
  }
}
