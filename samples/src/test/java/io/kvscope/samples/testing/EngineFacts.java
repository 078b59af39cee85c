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
 * What the SGLang logs of a generated incident say, read with plain regular expressions. Each PD
 * server names a request by its own rid; requests are keyed here by the decode rid (the gateway's),
 * the prefill side's facts merged in through the bootstrap room both Receive lines carry.
 * The engine version of each startup comes from the deployment manifest beside the logs (SGLang
 * logs none).
 */
public final class EngineFacts {

  /** SGLang's prefix: seconds only; {@code TPn} on scheduler lines of a tensor-parallel node. */
  private static final Pattern PREFIX =
      Pattern.compile("^\\[(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)( TP(\\d+))?\\] (.*)$");
  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final Pattern SERVER_ARGS = Pattern.compile(
      "context_length=(\\d+).*page_size=(\\d+).*tp_size=(\\d+).*disaggregation_mode='(\\w+)'.*disaggregation_enable_kv_checksum=(True|False), kv_canary=(True|False)");
  private static final Pattern POOL = Pattern.compile("^max_total_num_tokens=(\\d+), .*context_len=(\\d+)");
  private static final Pattern RECEIVE = Pattern.compile("^Receive: obj=GenerateReqInput\\(.*rid='([0-9a-f]+)'.*bootstrap_room=(\\d+)");
  private static final Pattern STATS = Pattern.compile(
      "^Req Time Stats\\(rid=([0-9a-f]+), bootstrap_room=(\\d+), input len=(\\d+), output len=(\\d+), type=(prefill|decode)\\): ");
  private static final Pattern TRANSFER = Pattern.compile("transfer_total=([0-9.]+)MB");
  private static final Pattern LENGTH_REJECT = Pattern.compile(
      "^Input length \\((\\d+) tokens\\) exceeds the maximum allowed length \\((\\d+) tokens\\)\\. Use a shorter input or enable --allow-auto-truncate\\., self\\.rid='([0-9a-f]+)'$");
  private static final Pattern TRANSFER_FAILED = Pattern.compile(
      "^Decode transfer failed for request rank=(\\d+) decode_req\\.req\\.rid='([0-9a-f]+)' decode_req\\.req\\.bootstrap_room=(\\d+) with exception KVTransferError\\(bootstrap_room=(\\d+)\\): ");
  private static final Pattern CONTEXT_REJECT = Pattern.compile(
      "The input \\((\\d+) tokens\\) is longer than the model's context length");
  private static final Pattern FINISH = Pattern.compile(
      "^Finish: obj=GenerateReqInput\\(.*rid='([0-9a-f]+)'.*'finish_reason': \\{'type': '(\\w+)'.*'prompt_tokens': (\\d+), 'weight_version': 'default', 'completion_tokens': (\\d+), 'cached_tokens': (\\d+)");

  /** A startup seen in a node's log (node-local time). */
  public record Startup(long localTime, long contextLength, int pageSize, String mode, boolean kvChecksum,
      boolean kvCanary, String version, long poolTokens, int tpSize) {}

  /** Req Time Stats of one request on one node. */
  public record Stats(String node, long localTime, long inputLen, long outputLen, String type, Double transferMb) {}

  /** A line as the node wrote it: its rank tag ({@code -1} for none) and message. */
  public record Line(String node, int rank, String message) {}

  /** Per-request facts, from both nodes. */
  public static final class Request {
    public final Map<String, Long> receivedAt = new TreeMap<>();
    public final Map<String, String> ridOn = new TreeMap<>();
    public final List<Stats> stats = new ArrayList<>();
    public final List<String> lengthRejectedOn = new ArrayList<>();
    public final List<Integer> transferFailedRanks = new ArrayList<>();
    public final Map<String, long[]> finish = new TreeMap<>();
    public final Map<String, String> finishType = new TreeMap<>();
    /** Nodes that logged anything about the request. */
    public final java.util.Set<String> seenOn = new java.util.TreeSet<>();
    public Long room;

    public Stats stats(String type) {
      for (Stats s : stats) {
        if (s.type().equals(type)) {
          return s;
        }
      }
      return null;
    }

    private void absorb(Request other) {
      receivedAt.putAll(other.receivedAt);
      ridOn.putAll(other.ridOn);
      stats.addAll(other.stats);
      lengthRejectedOn.addAll(other.lengthRejectedOn);
      transferFailedRanks.addAll(other.transferFailedRanks);
      finish.putAll(other.finish);
      finishType.putAll(other.finishType);
      seenOn.addAll(other.seenOn);
    }
  }

  public final Map<String, List<Startup>> startups = new TreeMap<>();
  /** By decode rid (the gateway's); a prefill rid whose room no decode Receive names stays under its own. */
  public final Map<String, Request> requests = new HashMap<>();
  public final Map<String, TreeMap<Long, Long>> linesPerHour = new TreeMap<>();
  public final Map<String, String> roleOf = new TreeMap<>();
  /** Every request-logger, time-stats and failure line, for checks of their shape. */
  public final List<Line> requestLines = new ArrayList<>();
  /** Tokenizer-side rejections written to an engine log (SGLang returns them without logging). */
  public long contextRejectionLines;
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
    f.joinPrefillThroughRooms();
    return f;
  }

  public static long parseLocal(String ts) {
    return LocalDateTime.parse(ts, TS).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private Request request(String rid, String node) {
    Request q = requests.computeIfAbsent(rid, k -> new Request());
    q.seenOn.add(node);
    return q;
  }

  private void readNode(String node, Path p) throws IOException {
    List<Startup> ups = startups.computeIfAbsent(node, k -> new ArrayList<>());
    TreeMap<Long, Long> hours = linesPerHour.computeIfAbsent(node, k -> new TreeMap<>());
    String[] pendingArgs = null;
    long pendingAt = 0;
    try (BufferedReader r = Files2.reader(p)) {
      String line;
      while ((line = r.readLine()) != null) {
        lines++;
        Matcher m = PREFIX.matcher(line);
        if (!m.matches()) {
          throw new IllegalStateException("line without prefix in " + node + ": " + line);
        }
        long t = parseLocal(m.group(1));
        int rank = m.group(3) == null ? -1 : Integer.parseInt(m.group(3));
        hours.merge(Math.floorDiv(t, 3_600_000L) * 3_600_000L, 1L, Long::sum);
        String msg = m.group(4);
        Matcher x;
        if (msg.startsWith("server_args=")) {
          x = SERVER_ARGS.matcher(msg);
          if (!x.find()) {
            throw new IllegalStateException("unparsed server_args in " + node);
          }
          pendingArgs = new String[] {x.group(1), x.group(2), x.group(3), x.group(4), x.group(5), x.group(6)};
          pendingAt = t;
          roleOf.put(node, x.group(4));
        } else if ((x = POOL.matcher(msg)).find()) {
          ups.add(new Startup(pendingAt, Long.parseLong(pendingArgs[0]), Integer.parseInt(pendingArgs[1]),
              pendingArgs[3], pendingArgs[4].equals("True"), pendingArgs[5].equals("True"), versionAt(dir(p), node, pendingAt),
              Long.parseLong(x.group(1)), Integer.parseInt(pendingArgs[2])));
        } else if ((x = RECEIVE.matcher(msg)).find()) {
          requestLines.add(new Line(node, rank, msg));
          Request q = request(x.group(1), node);
          q.receivedAt.put(node, t);
          q.ridOn.put(node, x.group(1));
          q.room = Long.parseLong(x.group(2));
        } else if ((x = STATS.matcher(msg)).find()) {
          requestLines.add(new Line(node, rank, msg));
          Matcher mb = TRANSFER.matcher(msg);
          Request q = request(x.group(1), node);
          q.room = Long.parseLong(x.group(2));
          q.stats.add(new Stats(node, t, Long.parseLong(x.group(3)), Long.parseLong(x.group(4)),
              x.group(5), mb.find() ? Double.parseDouble(mb.group(1)) : null));
        } else if ((x = LENGTH_REJECT.matcher(msg)).matches()) {
          requestLines.add(new Line(node, rank, msg));
          request(x.group(3), node).lengthRejectedOn.add(node);
        } else if ((x = TRANSFER_FAILED.matcher(msg)).find()) {
          requestLines.add(new Line(node, rank, msg));
          Request q = request(x.group(2), node);
          q.room = Long.parseLong(x.group(3));
          q.transferFailedRanks.add(Integer.parseInt(x.group(1)));
        } else if ((x = FINISH.matcher(msg)).find()) {
          requestLines.add(new Line(node, rank, msg));
          Request q = request(x.group(1), node);
          q.finish.put(node, new long[] {Long.parseLong(x.group(3)), Long.parseLong(x.group(4)), Long.parseLong(x.group(5))});
          q.finishType.put(node, x.group(2));
        } else if (CONTEXT_REJECT.matcher(msg).find()) {
          contextRejectionLines++;
        } else if (msg.contains("rid=") || msg.contains("Receive:") || msg.contains("Finish:")) {
          throw new IllegalStateException("request line of an unexpected shape in " + node + ": " + msg);
        }
      }
    }
  }

  /** Merges each prefill rid's facts into the decode rid whose Receive line names the same room. */
  private void joinPrefillThroughRooms() {
    Map<Long, String> decodeRidByRoom = new HashMap<>();
    requests.forEach((rid, q) -> {
      if (q.room != null && q.seenOn.stream().anyMatch(n -> "decode".equals(roleOf.get(n)))) {
        decodeRidByRoom.put(q.room, rid);
      }
    });
    for (String rid : List.copyOf(requests.keySet())) {
      Request q = requests.get(rid);
      boolean prefillSide = q.seenOn.stream().anyMatch(n -> "prefill".equals(roleOf.get(n)));
      String decodeRid = q.room == null ? null : decodeRidByRoom.get(q.room);
      if (prefillSide && decodeRid != null && !decodeRid.equals(rid)) {
        requests.get(decodeRid).absorb(requests.remove(rid));
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

  /** The node (of {@code role}) whose log received the request with decode rid {@code rid}. */
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
