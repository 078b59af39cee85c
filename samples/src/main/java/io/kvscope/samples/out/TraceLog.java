package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.samples.sim.RequestPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.PriorityQueue;

/** The OpenTelemetry file exporter's output: one OTLP/JSON line per finished client span. */
final class TraceLog {

  private record Pending(long time, long seq, RequestPlan plan) {}

  private final OutputFile file;
  private final JsonFactory json;
  private final PriorityQueue<Pending> pending =
      new PriorityQueue<>(Comparator.comparingLong(Pending::time).thenComparingLong(Pending::seq));
  private final LineBuffer buffer = new LineBuffer();
  private final JsonText text = new JsonText();
  private long seq;
  private long records;

  TraceLog(Path root, Codec codec, JsonFactory json) throws IOException {
    this.file = new OutputFile(root, "traces/otel-genai-spans.jsonl", "otlp-json", codec);
    this.json = json;
  }

  void add(RequestPlan p) {
    pending.add(new Pending(p.gatewayEnd(), seq++, p));
  }

  void advance(long watermark) throws IOException {
    while (!pending.isEmpty() && pending.peek().time() < watermark) {
      write(pending.poll().plan());
    }
  }

  void finish() throws IOException {
    while (!pending.isEmpty()) {
      write(pending.poll().plan());
    }
    file.close();
  }

  private void write(RequestPlan p) throws IOException {
    buffer.shrink();
    try (JsonGenerator g = json.createGenerator(buffer)) {
      OtlpLine.write(g, json, text, p);
    }
    buffer.write('\n');
    file.line(buffer.array(), buffer.size());
    records++;
    p.releaseContent();
  }

  WrittenFile written() {
    return file.written();
  }

  long records() {
    return records;
  }
}
