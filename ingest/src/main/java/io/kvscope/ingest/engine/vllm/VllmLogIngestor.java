package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.engine.NodeNames;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * vLLM server logs: config epochs (pool, max model len, version) and over-length rejections, plus
 * hourly activity. The node is {@code --node} or the file name stem.
 */
public final class VllmLogIngestor implements Ingestor {

  private static final List<String> MARKERS = List.of("vLLM API server version", "GPU KV cache size",
      "Avg prompt throughput", "Maximum concurrency for", "LLM engine (v", "vllm", "EngineCore");
  private static final int SNIFF_LINES = 2000;

  @Override
  public String name() {
    return "vllm-log";
  }

  @Override
  public String description() {
    return "vLLM server log: KV cache size and max model len per startup, over-length rejections";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    String head = sniff.text();
    int prefixed = 0;
    boolean marker = false;
    int json = 0;
    int start = 0;
    for (int lines = 0; lines < SNIFF_LINES && start < head.length(); lines++) {
      int end = head.indexOf('\n', start);
      String line = head.substring(start, end < 0 ? head.length() : end);
      start = end < 0 ? head.length() : end + 1;
      if (line.startsWith("{")) {
        json++;
      }
      if (VllmPrefix.parse(line) != null) {
        prefixed++;
        if (!marker) {
          for (String m : MARKERS) {
            if (line.contains(m)) {
              marker = true;
              break;
            }
          }
        }
      }
    }
    if (json > prefixed) {
      // Mostly JSON records with some vLLM lines among them: a JSON format should read it and
      // report the vLLM lines, since this reader skips unknown lines silently.
      return prefixed > 0 && marker ? 30 : 0;
    }
    if (prefixed > 0 && marker) {
      return 90;
    }
    return prefixed > 0 ? 40 : 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    long reference;
    try {
      reference = Files.getLastModifiedTime(file.path()).toMillis();
    } catch (IOException unknown) {
      reference = System.currentTimeMillis();
    }
    new VllmLogReader(file, NodeNames.of(file, options), sink, reference).run();
  }

  @Override
  public boolean carriesRequests() {
    return false;
  }
}
