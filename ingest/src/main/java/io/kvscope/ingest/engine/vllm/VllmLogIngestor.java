package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.engine.EngineLogIngestor;
import io.kvscope.ingest.engine.EngineLogReader;
import io.kvscope.ingest.engine.HeadTally;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * vLLM server logs: config epochs (pool, max model len, version) and over-length rejections, plus
 * hourly activity. The node is {@code --node} or the file name stem.
 */
public final class VllmLogIngestor extends EngineLogIngestor {

  private static final List<String> MARKERS = List.of("vLLM API server version", "GPU KV cache size",
      "Avg prompt throughput", "Maximum concurrency for", "LLM engine (v", "vllm", "EngineCore");

  @Override
  public String name() {
    return "vllm-log";
  }

  @Override
  public String description() {
    return "vLLM server log: KV cache size and max model len per startup, over-length rejections";
  }

  @Override
  protected void tally(String line, HeadTally tally) {
    if (line.startsWith("{")) {
      tally.otherJsonLine();
    }
    if (VllmPrefix.parse(line) != null) {
      tally.prefixedLine();
      // Only on prefixed lines: some markers ("vllm", "EngineCore") are loose words.
      tally.lookForMarker(line, MARKERS);
    }
  }

  @Override
  protected int score(HeadTally tally, String head) {
    if (tally.prefixAndMarker()) {
      return 90;
    }
    return tally.prefixed() > 0 ? 40 : 0;
  }

  @Override
  protected EngineLogReader reader(InputFile file, String node, RecordSink sink) {
    long reference;
    try {
      reference = Files.getLastModifiedTime(file.path()).toMillis();
    } catch (IOException unknown) {
      reference = System.currentTimeMillis();
    }
    return new VllmLogReader(file, node, sink, reference);
  }
}
