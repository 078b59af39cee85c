package io.kvscope.samples.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the SGLang logs of a generated incident say, read with plain regular expressions; the engine
 * version of each startup comes from the deployment manifest beside them (SGLang logs none).
 */
public final class EngineFacts {

  private static final Pattern PREFIX =
      Pattern.compile("^\\[(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3})( DP0 TP0)?\\] (.*)$");
  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static final Pattern SERVER_ARGS = Pattern.compile(
      "context_length=(\\d+).*page_size=(\\d+).*disaggregation_mode='(\\w+)'.*disaggregation_enable_kv_checksum=(True|False), kv_canary=(True|False)");
  private static final Pattern POOL = Pattern.compile("^max_total_num_tokens=(\\d+), .*context_len=(\\d+)");
  private static final Pattern RECEIVE = Pattern.compile("^Receive: obj=GenerateReqInput\\(rid='([0-9a-f]+)'.*bootstrap_room=(\\d+)");
  private static final Pattern STATS = Pattern.compile(
      "^ReqTimeStats\\(rid='([0-9a-f]+)', bootstrap_room=(\\d+), input_len=(\\d+), cached_input_len=(\\d+), output_len=(\\d+), type=(prefill|decode)\\)");
  private static final Pattern TRANSFER = Pattern.compile("transfer_total=([0-9.]+) MB");
  private static final Pattern LENGTH_REJECT = Pattern.compile(
      "^Input length \\((\\d+) tokens\\) exceeds the maximum allowed length \\((\\d+) tokens\\)\\. Use a shorter input or enable --allow-auto-truncate\\., self\\.rid='([0-9a-f]+)'$");
  private static final Pattern CONTEXT_REJECT = Pattern.compile(
      "^The input \\((\\d+) tokens\\) is longer than the model's context length \\((\\d+) tokens\\)\\.$");
  private static final Pattern FINISH = Pattern.compile(
      "^Finish: obj=GenerateReqInput\\(rid='([0-9a-f]+)'.*'finish_reason': \\{'type': '(\\w+)'.*'prompt_tokens': (\\d+), 'completion_tokens': (\\d+), 'cached_tokens': (\\d+)");

  /** A startup seen in a node's log (node-local time). */
  public record Startup(long localTime, long contextLength, int pageSize, String mode, boolean kvChecksum,
      boolean kvCanary, String version, long poolTokens) {}

  /** ReqTimeStats of one request on one node. */
  public record Stats(String node, long localTime, long inputLen, long cachedInputLen, long outputLen, String type,
      Double transferMb) {}

  /** Per-rid facts. */
  public static final class Request {
    public final Map<String, Long> receivedAt = new TreeMap<>();
    public final List<Stats> stats = new ArrayList<>();
    public final List<String> lengthRejectedOn = new ArrayList<>();
    public final Map<String, long[]> finish = new TreeMap<>();
    public final Map<String, String> finishType = new TreeMap<>();

    public Stats stats(String type) {
      for (Stats s : stats) {
        if (s.type().equals(type)) {
          return s;
        }
      }
      return null;
    }
  }

  public final Map<String, List<Startup>> startups = new TreeMap<>();
  public final Map<String, Request> requests = new HashMap<>();
  public final Map<String, TreeMap<Long, Long>> linesPerHour = new TreeMap<>();
  public final Map<String, List<long[]>> contextRejections = new TreeMap<>();
  public final Map<String, String> roleOf = new TreeMap<>();
  public long lines;

  /** Manifest rows (node, from, version) by incident folder, read once. */
  private final Map<String, List<String[]>> manifest = new HashMap<>();

  private static Path dir(Path engineFile) {
    return engineFile.getParent().getParent();
  }

  /**
   * The release the deployment manifest gives {@code node} at node-local {@code time}: the row with
   * the latest start at most two minutes after it (rows are rounded to the minute; clocks skew).
   */
  private String versionAt(Path incident, String node, long time) throws IOException {
    if (manifest.isEmpty()) {
      for (String line : Files.readAllLines(incident.resolve("deployment/engine-versions.csv"))) {
        if (line.startsWith("#") || line.startsWith("node,")) {
          continue;
        }
        String[] c = line.split(",", -1);
        manifest.computeIfAbsent(c[0], k -> new ArrayList<>()).add(c);
      }
    }
    String version = null;
    long best = Long.MIN_VALUE;
    for (String[] row : manifest.getOrDefault(node, List.of())) {
      long from = java.time.Instant.parse(row[1]).toEpochMilli();
      if (from <= time + 120_000L && from > best) {
        best = from;
        version = row[3];
      }
    }
    return version;
  }

  public static EngineFacts read(Path dir) throws IOException {
    EngineFacts f = new EngineFacts();
    try (Stream<Path> s = Files.list(dir.resolve("engine"))) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        String node = name.substring(0, name.indexOf(".log"));
        f.readNode(node, p);
      }
    }
    return f;
  }

  public static long parseLocal(String ts) {
    return LocalDateTime.parse(ts, TS).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private Request request(String rid) {
    return requests.computeIfAbsent(rid, k -> new Request());
  }

  private void readNode(String node, Path p) throws IOException {
    List<Startup> ups = startups.computeIfAbsent(node, k -> new ArrayList<>());
    TreeMap<Long, Long> hours = linesPerHour.computeIfAbsent(node, k -> new TreeMap<>());
    long[] pendingArgs = null;
    String pendingMode = null;
    try (BufferedReader r = Files2.reader(p)) {
      String line;
      while ((line = r.readLine()) != null) {
        lines++;
        Matcher m = PREFIX.matcher(line);
        if (!m.matches()) {
          throw new IllegalStateException("line without prefix in " + node + ": " + line);
        }
        long t = parseLocal(m.group(1));
        hours.merge(Math.floorDiv(t, 3_600_000L) * 3_600_000L, 1L, Long::sum);
        String msg = m.group(3);
        Matcher x;
        if (msg.startsWith("server_args=")) {
          x = SERVER_ARGS.matcher(msg);
          if (!x.find()) {
            throw new IllegalStateException("unparsed server_args in " + node);
          }
          pendingArgs = new long[] {t, Long.parseLong(x.group(1)), Integer.parseInt(x.group(2)),
              x.group(4).equals("True") ? 1 : 0, x.group(5).equals("True") ? 1 : 0};
          pendingMode = x.group(3);
          roleOf.put(node, pendingMode);
        } else if ((x = POOL.matcher(msg)).find()) {
          ups.add(new Startup(pendingArgs[0], pendingArgs[1], (int) pendingArgs[2], pendingMode, pendingArgs[3] == 1,
              pendingArgs[4] == 1, versionAt(dir(p), node, pendingArgs[0]), Long.parseLong(x.group(1))));
        } else if ((x = RECEIVE.matcher(msg)).find()) {
          request(x.group(1)).receivedAt.put(node, t);
        } else if ((x = STATS.matcher(msg)).find()) {
          Matcher mb = TRANSFER.matcher(msg);
          request(x.group(1)).stats.add(new Stats(node, t, Long.parseLong(x.group(3)), Long.parseLong(x.group(4)),
              Long.parseLong(x.group(5)), x.group(6), mb.find() ? Double.parseDouble(mb.group(1)) : null));
        } else if ((x = LENGTH_REJECT.matcher(msg)).matches()) {
          request(x.group(3)).lengthRejectedOn.add(node);
        } else if ((x = CONTEXT_REJECT.matcher(msg)).matches()) {
          contextRejections.computeIfAbsent(node, k -> new ArrayList<>())
              .add(new long[] {t, Long.parseLong(x.group(1)), Long.parseLong(x.group(2))});
        } else if ((x = FINISH.matcher(msg)).find()) {
          Request q = request(x.group(1));
          q.finish.put(node, new long[] {Long.parseLong(x.group(3)), Long.parseLong(x.group(4)), Long.parseLong(x.group(5))});
          q.finishType.put(node, x.group(2));
        }
      }
    }
  }

  /** The startup in force on {@code node} at node-local time {@code t}. */
  public Startup startupAt(String node, long t) {
    Startup current = null;
    for (Startup s : startups.get(node)) {
      if (s.localTime() <= t) {
        current = s;
      }
    }
    return current;
  }

  /** The node (of {@code role}) whose log received {@code rid}. */
  public String nodeOf(String rid, String role) {
    Request q = requests.get(rid);
    if (q == null) {
      return null;
    }
    for (String node : q.receivedAt.keySet()) {
      if (role.equals(roleOf.get(node))) {
        return node;
      }
    }
    return null;
  }
}
