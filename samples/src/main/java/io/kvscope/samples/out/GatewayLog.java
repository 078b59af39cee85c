package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.samples.sim.RequestPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The gateway's LiteLLM log: one file per UTC day ({@code gateway/litellm-YYYY-MM-DD.jsonl}),
 * lines in completion order. Log shipping re-delivers some windows of lines: each
 * {@link Burst}'s lines are written a second time just before the first line completed at or after
 * {@code emitAt}, which lands in the same file or, when {@code emitAt} is the next midnight, at the
 * start of the next day's file.
 */
final class GatewayLog {

  /** Lines whose completion time falls in {@code [start, end)} are delivered again at {@code emitAt}. */
  record Burst(long start, long end, long emitAt) {}

  /** What a burst produced, for the ground truth. */
  record Duplicated(String file, String originalFile, long start, long end, int lines) {}

  private record Pending(long time, long seq, RequestPlan plan) {}

  private final Path root;
  private final CodecPolicy codecs;
  private final JsonFactory json;
  private final List<Burst> bursts;
  private final List<List<byte[]>> captured = new ArrayList<>();
  private final String[] capturedIn;
  private final boolean[] emitted;
  private final PriorityQueue<Pending> pending =
      new PriorityQueue<>(Comparator.comparingLong(Pending::time).thenComparingLong(Pending::seq));
  private final LineBuffer buffer = new LineBuffer();
  private final JsonText text = new JsonText();
  private final List<WrittenFile> written = new ArrayList<>();
  private final List<Duplicated> duplicated = new ArrayList<>();
  private OutputFile current;
  private String currentDay;
  private long seq;
  private long records;

  GatewayLog(Path root, CodecPolicy codecs, JsonFactory json, List<Burst> bursts) {
    this.root = root;
    this.codecs = codecs;
    this.json = json;
    this.bursts = List.copyOf(bursts);
    for (int i = 0; i < bursts.size(); i++) {
      captured.add(new ArrayList<>());
    }
    capturedIn = new String[bursts.size()];
    emitted = new boolean[bursts.size()];
  }

  void add(RequestPlan p) {
    pending.add(new Pending(p.gatewayEnd(), seq++, p));
  }

  void advance(long watermark) throws IOException {
    while (!pending.isEmpty() && pending.peek().time() < watermark) {
      write(pending.poll());
    }
  }

  void finish() throws IOException {
    while (!pending.isEmpty()) {
      write(pending.poll());
    }
    emitDue(Long.MAX_VALUE);
    if (current != null) {
      current.close();
      written.add(current.written());
      current = null;
    }
  }

  private void write(Pending p) throws IOException {
    String day = Clock.day(p.time());
    if (!day.equals(currentDay)) {
      if (current != null) {
        current.close();
        written.add(current.written());
      }
      current = new OutputFile(root, "gateway/litellm-" + day + ".jsonl", "litellm-jsonl", codecs.gatewayDay(day));
      currentDay = day;
    }
    emitDue(p.time());
    buffer.shrink();
    try (JsonGenerator g = json.createGenerator(buffer)) {
      LiteLlmLine.write(g, text, p.plan());
    }
    buffer.write('\n');
    current.line(buffer.array(), buffer.size());
    records++;
    for (int i = 0; i < bursts.size(); i++) {
      Burst b = bursts.get(i);
      if (p.time() >= b.start() && p.time() < b.end()) {
        captured.get(i).add(Arrays.copyOf(buffer.array(), buffer.size()));
        capturedIn[i] = relative(current);
      }
    }
    p.plan().releaseContent();
  }

  /** Re-delivers the lines of every burst whose window closed before {@code time}. */
  private void emitDue(long time) throws IOException {
    for (int i = 0; i < bursts.size(); i++) {
      if (!emitted[i] && bursts.get(i).emitAt() <= time && current != null) {
        emitted[i] = true;
        List<byte[]> lines = captured.get(i);
        for (byte[] line : lines) {
          current.line(line, line.length);
        }
        if (!lines.isEmpty()) {
          duplicated.add(new Duplicated(relative(current), capturedIn[i], bursts.get(i).start(),
              bursts.get(i).end(), lines.size()));
        }
        lines.clear();
      }
    }
  }

  private String relative(OutputFile f) {
    return root.relativize(f.path()).toString().replace('\\', '/');
  }

  List<WrittenFile> written() {
    return written;
  }

  List<Duplicated> duplicated() {
    return duplicated;
  }

  long records() {
    return records;
  }
}
