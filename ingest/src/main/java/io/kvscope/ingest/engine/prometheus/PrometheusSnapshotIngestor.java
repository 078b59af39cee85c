package io.kvscope.ingest.engine.prometheus;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.deployment.SnapshotTime;
import io.kvscope.ingest.engine.NodeNames;
import io.kvscope.ingest.json.Times;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * SGLang {@code /metrics} snapshots in the Prometheus text format, raw (a scrape of the server, as
 * SGLang's {@code metrics/collector.py} gauges expose them) or federated (Prometheus's
 * {@code /federate}, which adds the scrape target's {@code instance} and {@code job} labels and a
 * timestamp to every sample). Per node (and engine type and scrape time) one {@link ConfigEpoch}:
 * {@code sglang:max_total_num_tokens} is the pool, {@code sglang:context_len} the context length,
 * {@code sglang:page_size} the page size; several ranks' samples fold into one epoch with the
 * smallest pool. {@code sglang:num_aborted_requests_total} is recognised but has no field to go to.
 *
 * <p>The node is {@code --node} when given, else the sample's pod label ({@code pod},
 * {@code kubernetes_pod_name}, {@code pod_name}), else its {@code instance} (the scrape target,
 * {@code host:port}), else the file name stem. A sample with both a pod label and an
 * {@code instance} makes the instance an alias of the pod; an {@code instance} alone is matched to
 * the node the logs name through the node identity (a server's own {@code host}/{@code port}, a pod
 * record, a peer's {@code bootstrap_host}, or the user's alias). Machine labels ({@code node},
 * {@code hostname}) name the host, which several engines may share, so they never name a node.
 *
 * <p>The epoch starts when the gauges were scraped: the samples' own timestamps (federate dumps
 * carry them), else a scrape time the file records (a comment {@code # scraped at <time>}, or a
 * UTC time in the file name, see {@link SnapshotTime}), else the file's modification time, which
 * copying changes: such an epoch has source {@link ConfigEpoch#PROMETHEUS_FILE_TIME} and counts as
 * weak evidence of when.
 */
public final class PrometheusSnapshotIngestor implements Ingestor {

  private static final String POOL = "sglang:max_total_num_tokens";
  private static final String CONTEXT = "sglang:context_len";
  private static final String PAGE = "sglang:page_size";
  private static final Set<String> KNOWN = Set.of(POOL, CONTEXT, PAGE, "sglang:num_aborted_requests_total");
  private static final List<String> POD_LABELS = List.of("pod", "kubernetes_pod_name", "pod_name");
  /** {@code # scraped at 2026-09-03T10:15:00Z}, {@code # scrape_time: 1788430500}, {@code # timestamp=...}. */
  private static final java.util.regex.Pattern SCRAPE_COMMENT = java.util.regex.Pattern.compile(
      "(?i)^#\\s*(?:scraped?(?:[ _](?:at|time))?|scrape_time|timestamp|collected(?:[ _]at)?)\\s*[:=]?\\s*(\\S+)\\s*$");
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
    String fallbackNode = SnapshotTime.withoutTime(NodeNames.of(file, IngestOptions.defaults()));
    String forcedNode = options == null || options.nodeName() == null || options.nodeName().isBlank()
        ? null : options.nodeName().strip();
    Map<Key, Snapshot> open = new LinkedHashMap<>();
    java.util.Set<List<String>> aliases = new HashSet<>();
    ScrapeTime scrape = new ScrapeTime(file);
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
          if (!trimmed.startsWith("# HELP ") && !trimmed.startsWith("# TYPE ") && !scrape.recorded(trimmed)) {
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
        String noSize = noSize(sample);
        if (noSize != null) {
          sink.malformed(new BadInput(file.name(), number, sample.name() + " is " + noSize
              + ", which is no size: the sample is not used"), line);
          continue;
        }
        String pod = firstLabel(sample.labels(), POD_LABELS);
        String instance = firstLabel(sample.labels(), List.of("instance"));
        String node = forcedNode != null ? forcedNode : pod != null ? pod : instance != null ? instance : fallbackNode;
        if (forcedNode == null && pod != null && instance != null && !pod.equals(instance)
            && aliases.add(List.of(pod, instance))) {
          sink.accept(new NodeAlias(pod, instance, AliasOrigin.PROMETHEUS, file.name(), number));
        }
        NodeRole role = roleOf(sample.labels().get("engine_type"));
        Key key = new Key(node, role, sample.timestamp());
        Snapshot s = open.computeIfAbsent(key, k -> new Snapshot(number));
        s.add(sample);
        if (open.size() > MAX_OPEN) {
          Iterator<Map.Entry<Key, Snapshot>> oldest = open.entrySet().iterator();
          Map.Entry<Key, Snapshot> e = oldest.next();
          oldest.remove();
          emit(e.getKey(), e.getValue(), scrape, file.name(), sink);
        }
      }
    }
    for (Map.Entry<Key, Snapshot> e : open.entrySet()) {
      emit(e.getKey(), e.getValue(), scrape, file.name(), sink);
    }
  }

  private static void emit(Key key, Snapshot s, ScrapeTime scrape, String file, RecordSink sink) {
    if (s.pool == null && s.context == null && s.page == null) {
      return; // only counters: nothing about the configuration
    }
    boolean timed = key.timestamp() != null || scrape.known();
    long start = key.timestamp() != null ? key.timestamp() : scrape.millis();
    sink.accept(new ConfigEpoch(key.node(), key.role(), start, s.pool, s.context, s.page, null, null,
        s.model, null, null, null, null, timed ? ConfigEpoch.PROMETHEUS : ConfigEpoch.PROMETHEUS_FILE_TIME, file,
        s.firstLine));
  }

  /** Why a configuration gauge's value is no size ({@code NaN}, infinite, negative), or null when it is one. */
  private static String noSize(Sample sample) {
    if (!sample.name().equals(POOL) && !sample.name().equals(CONTEXT) && !sample.name().equals(PAGE)) {
      return null;
    }
    double v = sample.value();
    return Double.isNaN(v) ? "NaN" : Double.isInfinite(v) ? "infinite" : v < 0 ? "negative" : null;
  }

  private static String firstLabel(Map<String, String> labels, List<String> names) {
    for (String label : names) {
      String v = labels.get(label);
      if (v != null && !v.isBlank()) {
        return v.strip();
      }
    }
    return null;
  }

  /**
   * When the samples without their own timestamp were scraped: a time the file records (a comment,
   * or the file name), else its modification time.
   */
  private static final class ScrapeTime {
    private final InputFile file;
    private Long recorded;

    ScrapeTime(InputFile file) {
      this.file = file;
      this.recorded = SnapshotTime.fromName(file.path().getFileName() == null ? null
          : file.path().getFileName().toString());
    }

    /** Reads a {@code # scraped at ...} comment; true when {@code comment} was one. */
    boolean recorded(String comment) {
      java.util.regex.Matcher m = SCRAPE_COMMENT.matcher(comment);
      if (!m.matches()) {
        return false;
      }
      String value = m.group(1);
      try {
        recorded = value.chars().allMatch(Character::isDigit) || value.matches("\\d+\\.\\d+")
            ? Times.fromEpochAuto(Double.parseDouble(value)) : Times.fromIso(value);
      } catch (IllegalArgumentException notATime) {
        return false;
      }
      return true;
    }

    boolean known() {
      return recorded != null;
    }

    long millis() {
      return recorded != null ? recorded : SnapshotTime.of(file.path()).millis();
    }
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
      long n = Math.round(sample.value()); // a value that is no size never gets here (noSize)
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
