package io.kvscope.ingest.engine.prometheus;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.engine.NodeNames;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * SGLang {@code /metrics} snapshots in the Prometheus text format. Per node (and engine type and
 * scrape timestamp) one {@link ConfigEpoch}: {@code sglang:max_total_num_tokens} is the pool,
 * {@code sglang:context_len} the context length, {@code sglang:page_size} the page size; several
 * ranks' samples fold into one epoch with the smallest pool. {@code sglang:num_aborted_requests_total}
 * is recognised but has no field to go to.
 *
 * <p>The node is {@code --node} when given, else the sample's {@code instance}, {@code hostname},
 * {@code host}, {@code node}, {@code node_name} or {@code pod} label, else the file name stem. The role
 * is the {@code engine_type} label ({@code prefill}, {@code decode}, {@code unified}). The epoch
 * starts at the samples' timestamp, or, for samples without one, at the file's last modification
 * (when the snapshot was written).
 */
public final class PrometheusSnapshotIngestor implements Ingestor {

  static final String SOURCE = "prometheus";
  private static final String POOL = "sglang:max_total_num_tokens";
  private static final String CONTEXT = "sglang:context_len";
  private static final String PAGE = "sglang:page_size";
  private static final Set<String> KNOWN = Set.of(POOL, CONTEXT, PAGE, "sglang:num_aborted_requests_total");
  private static final List<String> NODE_LABELS = List.of("instance", "hostname", "host", "node",
      "node_name", "pod");
  /** A snapshot is small; a file of many scrapes is flushed oldest first past this many epochs. */
  private static final int MAX_OPEN = 1024;

  @Override
  public String name() {
    return "prometheus";
  }

  @Override
  public String description() {
    return "Prometheus text snapshot of SGLang metrics: pool size, context length, page size per node";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    String head = sniff.text();
    if (head.contains("# HELP sglang:") || head.contains("# TYPE sglang:")) {
      return 95;
    }
    for (String line : head.lines().limit(200).toList()) {
      if (line.startsWith("sglang:") && (line.indexOf('{') > 0 || line.indexOf(' ') > 0)) {
        return 80;
      }
    }
    return 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    long written;
    try {
      written = Files.getLastModifiedTime(file.path()).toMillis();
    } catch (IOException unknown) {
      written = System.currentTimeMillis();
    }
    String fallbackNode = NodeNames.of(file, IngestOptions.defaults());
    String forcedNode = options == null || options.nodeName() == null || options.nodeName().isBlank()
        ? null : options.nodeName().strip();
    Map<Key, Snapshot> open = new LinkedHashMap<>();
    try (LineReader lines = file.lines(sink)) {
      String line;
      while ((line = lines.next()) != null) {
        long number = lines.lineNumber();
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
          sink.skipped();
          continue;
        }
        if (trimmed.startsWith("#")) {
          if (!trimmed.startsWith("# HELP ") && !trimmed.startsWith("# TYPE ")) {
            sink.skipped();
          }
          continue;
        }
        Sample sample;
        try {
          sample = Sample.parse(trimmed);
        } catch (IllegalArgumentException bad) {
          if (trimmed.startsWith("sglang:")) {
            sink.malformed(new BadInput(file.name(), number, bad.getMessage()), line);
          } else {
            sink.skipped();
          }
          continue;
        }
        if (!KNOWN.contains(sample.name())) {
          sink.skipped();
          continue;
        }
        String node = forcedNode != null ? forcedNode : nodeOf(sample.labels(), fallbackNode);
        NodeRole role = roleOf(sample.labels().get("engine_type"));
        Key key = new Key(node, role, sample.timestamp());
        Snapshot s = open.computeIfAbsent(key, k -> new Snapshot(number));
        s.add(sample);
        if (open.size() > MAX_OPEN) {
          Iterator<Map.Entry<Key, Snapshot>> oldest = open.entrySet().iterator();
          Map.Entry<Key, Snapshot> e = oldest.next();
          oldest.remove();
          emit(e.getKey(), e.getValue(), written, file.name(), sink);
        }
      }
    }
    for (Map.Entry<Key, Snapshot> e : open.entrySet()) {
      emit(e.getKey(), e.getValue(), written, file.name(), sink);
    }
  }

  private static void emit(Key key, Snapshot s, long written, String file, RecordSink sink) {
    if (s.pool == null && s.context == null && s.page == null) {
      return; // only counters: nothing about the configuration
    }
    long start = key.timestamp() != null ? key.timestamp() : written;
    sink.accept(new ConfigEpoch(key.node(), key.role(), start, s.pool, s.context, s.page, null, null,
        s.model, null, null, null, null, SOURCE, file, s.firstLine));
  }

  private static String nodeOf(Map<String, String> labels, String fallback) {
    for (String label : NODE_LABELS) {
      String v = labels.get(label);
      if (v != null && !v.isBlank()) {
        return v.strip();
      }
    }
    return fallback;
  }

  static NodeRole roleOf(String engineType) {
    if (engineType == null) {
      return NodeRole.UNKNOWN;
    }
    return switch (engineType.strip().toLowerCase(Locale.ROOT)) {
      case "unified", "null", "none" -> NodeRole.UNIFIED;
      default -> NodeRole.fromDisaggregationMode(engineType);
    };
  }

  private record Key(String node, NodeRole role, Long timestamp) {
    Key {
      Objects.requireNonNull(node);
    }
  }

  /** One node's gauges at one scrape. */
  private static final class Snapshot {
    final long firstLine;
    Long pool;
    Long context;
    Integer page;
    String model;

    Snapshot(long firstLine) {
      this.firstLine = firstLine;
    }

    void add(Sample sample) {
      if (model == null) {
        model = sample.labels().get("model_name");
      }
      double v = sample.value();
      if (Double.isNaN(v) || Double.isInfinite(v) || v < 0) {
        return;
      }
      long n = Math.round(v);
      switch (sample.name()) {
        case POOL -> pool = pool == null ? n : Math.min(pool, n);
        case CONTEXT -> context = context == null ? n : Math.min(context, n);
        case PAGE -> page = n > Integer.MAX_VALUE ? null : (int) n;
        default -> { } // counters: recognised, not configuration
      }
    }
  }

  @Override
  public boolean carriesRequests() {
    return false;
  }
}
