package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeTimeline;
import io.kvscope.samples.sim.Channel;
import io.kvscope.samples.sim.Outcome;
import io.kvscope.samples.sim.Recorder;
import io.kvscope.samples.sim.RequestPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@link Recorder} that writes the fleet's files under one output directory. */
public final class LogRecorder implements Recorder {

  /** What was written, for the summary and the ground truth. */
  public record Written(List<WrittenFile> files, List<Duplicate> duplicates, long litellmRecords, long otlpSpans,
      Map<String, Long> droppedEngineLines) {}

  /** Lines delivered twice by log shipping. */
  public record Duplicate(String file, String originalFile, long start, long end, int lines) {}

  private static final long DAY0 = Fleet.PERIOD_START;
  private static final long MINUTE = 60_000L;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  /** Log shipping re-delivered these windows of gateway lines (see {@link GatewayLog}). */
  static final List<GatewayLog.Burst> BURSTS = List.of(
      // 2026-09-04 15:00-15:20, re-sent right after the window: copies in the same file.
      new GatewayLog.Burst(DAY0 + 15 * DAY + 15 * HOUR, DAY0 + 15 * DAY + 15 * HOUR + 20 * MINUTE,
          DAY0 + 15 * DAY + 15 * HOUR + 20 * MINUTE),
      // 2026-08-31 17:00-18:00, re-sent after the shipper restarted at midnight: copies in the next day's file.
      new GatewayLog.Burst(DAY0 + 11 * DAY + 17 * HOUR, DAY0 + 11 * DAY + 18 * HOUR, DAY0 + 12 * DAY));

  private final Map<String, EngineLog> engines = new LinkedHashMap<>();
  private final GatewayLog gateway;
  private final TraceLog traces;
  private final List<WrittenFile> engineFiles = new ArrayList<>();
  private final Path root;
  private final Fleet fleet;
  private final CodecPolicy codecs;
  private final Map<String, OutputFile> engineOutputs = new LinkedHashMap<>();
  private Written written;

  public LogRecorder(Path root, Fleet fleet, CodecPolicy codecs, long seed) throws IOException {
    OutputFile.createDirectories(root);
    this.root = root;
    this.fleet = fleet;
    this.codecs = codecs;
    JsonFactory json = new JsonFactory();
    for (NodeTimeline tl : fleet.timelines()) {
      String name = tl.node().name();
      OutputFile f = new OutputFile(root, "engine/" + name + ".log", "sglang-log", codecs.engine(name));
      engineOutputs.put(name, f);
      engines.put(name, new EngineLog(tl, f, fleet.gaps(), seed));
    }
    gateway = new GatewayLog(root, codecs, json, BURSTS);
    traces = new TraceLog(root, codecs.traces(), json);
  }

  @Override
  public void advanceTo(long time) throws IOException {
    for (EngineLog e : engines.values()) {
      e.advance(time);
    }
    gateway.advance(time);
    traces.advance(time);
  }

  @Override
  public void admitted(RequestPlan p) throws IOException {
    RequestLines.admitted(p, engines.get(p.prefillNode().name()), engines.get(p.decodeNode().name()));
    if (p.outcome() == Outcome.REJECTED_CONTEXT || p.outcome() == Outcome.REJECTED_LENGTH) {
      gatewayLine(p);
    }
  }

  @Override
  public void decoded(RequestPlan p) throws IOException {
    RequestLines.decoded(p, engines.get(p.decodeNode().name()));
    gatewayLine(p);
  }

  private void gatewayLine(RequestPlan p) {
    if (p.tenant().channel() == Channel.OTLP) {
      traces.add(p);
    } else {
      gateway.add(p);
    }
  }

  @Override
  public void finish() throws IOException {
    long end = Fleet.PERIOD_END + 3_600_000L;
    java.util.Map<String, Long> dropped = new LinkedHashMap<>();
    for (Map.Entry<String, EngineLog> e : engines.entrySet()) {
      e.getValue().finish(end);
      engineFiles.add(engineOutputs.get(e.getKey()).written());
      if (e.getValue().droppedLines() > 0) {
        dropped.put(e.getKey(), e.getValue().droppedLines());
      }
    }
    gateway.finish();
    traces.finish();
    List<WrittenFile> files = new ArrayList<>(gateway.written());
    files.add(traces.written());
    files.addAll(engineFiles);
    files.addAll(DeploymentRecords.write(root, fleet, codecs.deployment())); // the engine version is on record only here
    List<Duplicate> dups = gateway.duplicated().stream()
        .map(d -> new Duplicate(d.file(), d.originalFile(), d.start(), d.end(), d.lines())).toList();
    written = new Written(List.copyOf(files), dups, gateway.records(), traces.records(), dropped);
  }

  public Written written() {
    if (written == null) {
      throw new IllegalStateException("recorder not finished");
    }
    return written;
  }
}
