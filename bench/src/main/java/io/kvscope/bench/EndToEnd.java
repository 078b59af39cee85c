package io.kvscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The end-to-end benchmark: for each input size, generates an incident ({@code kvscope generate
 * --compression PLAIN}), times {@code kvscope ingest} and {@code kvscope analyze} as whole processes
 * with the heap capped (wall and CPU time, peak RSS from {@code /usr/bin/time -v}, peak heap from
 * the GC log), measures the index on disk, and runs the baselines on the same files: Jackson's raw
 * parse rate ({@link JacksonBaseline}), {@code rg -F -f markers} for the canary scan, and the naive
 * all-pairs overlap ({@link NaiveOverlap}). Writes everything to one JSON file and prints the
 * summary ({@link Summary}). {@code bench/run.sh} builds and calls it.
 */
public final class EndToEnd {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  /**
   * How often the live heap of ingest and analyze is sampled; each sample is a full collection, so
   * this costs the measured run a few percent.
   */
  private static final Duration LIVE_HEAP_INTERVAL = Duration.ofSeconds(10);
  private static final Pattern RECORDS = Pattern.compile("^\\s+(\\S+)\\s+([\\d,]+) records$");
  private static final Pattern SCORE_LINE = Pattern.compile(
      "(\\w[\\w -]*?)\\s+truth\\s+(\\d+)\\s+found\\s+(\\d+)\\s+precision\\s+([\\d.]+)\\s+recall\\s+([\\d.]+)");
  /** {@code true sources named     59 of 59 ...} and {@code sole attributions      48 sole attributions, 48 right, ...}. */
  private static final Pattern NAMED_LINE = Pattern.compile("true sources named\\s+(\\d+) of (\\d+).*");
  private static final Pattern SOLE_LINE = Pattern.compile("sole attributions\\s+(\\d+) sole attributions, (\\d+) right.*");
  private static final Pattern LEAKED = Pattern.compile("leaked responses \\(cross-tenant, confirmed\\+probable\\):\\s+([\\d,]+)");

  /** Options of one benchmark run. */
  record Settings(List<InputSize> sizes, Path work, Path out, Path kvscope, String heap, long seed, boolean keep,
      double naiveBudgetSeconds, int jacksonRounds, String commit) {}

  private EndToEnd() {}

  public static void main(String[] args) throws IOException {
    Settings settings = parse(args);
    ObjectNode results = new EndToEndRun(settings).run();
    Files.createDirectories(settings.out().toAbsolutePath().getParent());
    JSON.writeValue(settings.out().toFile(), results);
    System.out.println();
    Summary.print(results, System.out);
    System.out.println("results: " + settings.out());
  }

  private static Settings parse(String[] args) {
    List<InputSize> sizes = new ArrayList<>();
    Path work = Path.of("bench-work");
    Path out = null;
    Path kvscope = Path.of("kvscope");
    String heap = "2g";
    long seed = 1;
    boolean keep = false;
    boolean quick = false;
    double naiveBudget = 60;
    int rounds = 3;
    String commit = "unknown";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" -> {
          for (String s : args[++i].split(",")) {
            sizes.add(InputSize.parse(s));
          }
        }
        case "--quick" -> quick = true;
        case "--work" -> work = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--kvscope" -> kvscope = Path.of(args[++i]);
        case "--heap" -> heap = args[++i];
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--keep" -> keep = true;
        case "--naive-budget" -> naiveBudget = Double.parseDouble(args[++i]);
        case "--commit" -> commit = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; use --sizes 250M,1G,4G | --quick, --work DIR, --out FILE, --heap 2g, --seed N, --keep");
      }
    }
    if (sizes.isEmpty()) {
      for (String s : (quick ? "20M,80M" : "250M,1G,4G").split(",")) {
        sizes.add(InputSize.parse(s));
      }
    }
    if (quick) {
      naiveBudget = Math.min(naiveBudget, 10);
      rounds = 1;
    }
    if (out == null) {
      out = work.resolve("results.json");
    }
    return new Settings(sizes, work, out, kvscope, heap, seed, keep, naiveBudget, rounds, commit);
  }

  /** One run over all sizes. */
  private static final class EndToEndRun {
    private final Settings settings;
    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classpath = System.getProperty("java.class.path");

    EndToEndRun(Settings settings) {
      this.settings = settings;
    }

    ObjectNode run() throws IOException {
      ObjectNode results = JSON.createObjectNode();
      results.put("bench_version", 1);
      results.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
      results.put("commit", settings.commit());
      results.set("machine", JSON.valueToTree(Machine.describe()));
      ObjectNode s = results.putObject("settings");
      s.put("heap", settings.heap());
      s.put("seed", settings.seed());
      s.put("compression", "PLAIN");
      s.put("naive_budget_s", settings.naiveBudgetSeconds());
      s.put("page_cache", "warm: every step reads files written or read just before");
      ArrayNode runs = results.putArray("runs");
      for (InputSize size : settings.sizes()) {
        runs.add(measure(size));
      }
      results.set("targets", Targets.evaluate(runs));
      return results;
    }

    private void log(String format, Object... args) {
      System.err.printf("[bench %s] %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS), String.format(format, args));
    }

    private ObjectNode measure(InputSize size) throws IOException {
      Path dir = settings.work().resolve(size.label());
      deleteTree(dir);
      Files.createDirectories(dir);
      Path incident = dir.resolve("incident");
      Path index = dir.resolve("index");
      ObjectNode run = JSON.createObjectNode();
      run.put("size", size.label());
      run.put("scale", size.scale());

      log("%s: generating at scale %s", size.label(), size.scale());
      long t0 = System.nanoTime();
      check(kvscope(List.of("generate", "--out", incident.toString(), "--scale", size.scale(), "--seed",
          Long.toString(settings.seed()), "--compression", "PLAIN"), Map.of(), dir, "generate"), "generate");
      run.put("generate_s", round((System.nanoTime() - t0) / 1e9));
      List<Path> inputs = inputFiles(incident);
      long inputBytes = 0;
      for (Path p : inputs) {
        inputBytes += Files.size(p);
      }
      run.put("input_bytes", inputBytes);
      run.put("input_files", inputs.size());
      JsonNode truth = JSON.readTree(incident.resolve("truth.json").toFile());
      run.put("requests", truth.path("generator").path("requests").asLong());

      log("%s: ingest (%.0f MB)", size.label(), inputBytes / 1e6);
      ObjectNode ingest = timed("ingest", List.of("ingest", "-q", incident.toString(), "--index", index.toString()), dir, inputBytes);
      long records = 0;
      long gatewayRecords = 0;
      for (String line : Files.readAllLines(dir.resolve("ingest.out"))) {
        Matcher m = RECORDS.matcher(line);
        if (m.matches()) {
          long n = Long.parseLong(m.group(2).replace(",", ""));
          records += n;
          if (m.group(1).equals("litellm")) {
            gatewayRecords = n;
          }
        }
      }
      ingest.put("records", records);
      ingest.put("records_per_s", round(records / ingest.get("wall_s").asDouble()));
      run.set("ingest", ingest);
      long indexBytes = treeSize(index);
      run.put("index_bytes", indexBytes);
      run.put("index_fraction", round(indexBytes / (double) inputBytes));

      log("%s: analyze", size.label());
      ObjectNode analyze = timed("analyze", List.of("analyze", "-q", "--index", index.toString(), "--out",
          dir.resolve("reports").toString()), dir, inputBytes);
      Matcher leaked = LEAKED.matcher(Files.readString(dir.resolve("analyze.out")));
      analyze.put("leaked_responses", leaked.find() ? Long.parseLong(leaked.group(1).replace(",", "")) : -1);
      analyze.put("truth_leaked_responses", truth.path("summary").path("leaked_responses").asLong());
      JsonNode seconds = JSON.readTree(dir.resolve("reports").resolve("report.json").toFile())
          .path("parameters").path("analyzer_seconds");
      analyze.set("analyzer_seconds", seconds);
      // The overlap analysis proper (issue: its cost must stay near-linear): fingerprint
      // self-join, verification and the identifier self-join.
      analyze.put("overlap_s", round(seconds.path("cross-tenant-overlap").asDouble()
          + seconds.path("identifier-leaks").asDouble()));
      analyze.set("score", score(incident.resolve("truth.json"), dir.resolve("reports").resolve("report.json"), dir));
      run.set("analyze", analyze);

      log("%s: baselines", size.label());
      ObjectNode baselines = run.putObject("baselines");
      List<Path> jsonl = inputs.stream().filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList();
      baselines.set("jackson", jackson(jsonl, dir));
      baselines.set("rg", ripgrep(incident, truth.path("generator").path("canary_pattern").asText(), dir, inputBytes));
      List<Path> gateway = jsonl.stream().filter(p -> p.getParent().getFileName().toString().equals("gateway")).toList();
      ObjectNode naive = naive(gateway, dir);
      if (naive.has("seconds_per_pair") && gatewayRecords > 1) {
        double pairs = gatewayRecords * (gatewayRecords - 1) / 2.0;
        naive.put("gateway_records", gatewayRecords);
        naive.put("projected_full_s", round(naive.get("seconds_per_pair").asDouble() * pairs));
      }
      baselines.set("naive_overlap", naive);
      run.set("ratios", ratios(run));

      if (!settings.keep()) {
        deleteTree(dir.resolve("incident"));
        deleteTree(dir.resolve("index"));
      }
      log("%s: done", size.label());
      return run;
    }

    /**
     * Runs a kvscope command under /usr/bin/time with the heap capped, GC logging on and its live
     * heap sampled.
     */
    private ObjectNode timed(String name, List<String> args, Path dir, long inputBytes) throws IOException {
      Path timeFile = dir.resolve("time-" + name + ".txt");
      Path gcLog = dir.resolve("gc-" + name + ".log");
      List<String> command = new ArrayList<>(List.of("/usr/bin/time", "-v", "-o", timeFile.toString(),
          settings.kvscope().toString()));
      command.addAll(args);
      Double loadBefore = Machine.loadAverage();
      Processes.SampledRun run = Processes.runSampled(command,
          Map.of("KVSCOPE_JAVA_OPTS", "-Xmx" + settings.heap() + " -Xlog:gc*:file=" + gcLog),
          dir.resolve(name + ".out"), dir.resolve(name + ".err"), LIVE_HEAP_INTERVAL);
      check(run.exit(), name);
      TimeReport time = TimeReport.read(timeFile);
      GcLog gc = GcLog.read(gcLog);
      ObjectNode node = JSON.createObjectNode();
      node.put("wall_s", round(time.wallSeconds()));
      node.put("user_s", round(time.userSeconds()));
      node.put("sys_s", round(time.systemSeconds()));
      node.put("cpu_percent", Math.round(100 * time.cpuSeconds() / time.wallSeconds()));
      node.put("mb_per_s", round(inputBytes / 1e6 / time.wallSeconds()));
      node.put("mb_per_cpu_s", round(inputBytes / 1e6 / time.cpuSeconds()));
      node.put("peak_rss_mb", Math.round(time.maxRssKb() / 1024.0));
      node.put("peak_heap_mb", Math.round(gc.peakUsedMb()));
      node.put("peak_heap_after_gc_mb", Math.round(gc.peakLiveMb()));
      node.put("peak_heap_committed_mb", Math.round(gc.peakCommittedMb()));
      node.put("peak_live_heap_mb", run.liveHeapPeakMb());
      node.put("live_heap_samples", run.liveHeapSamples());
      node.put("gc_collections", gc.collections());
      node.put("gc_pause_s", round(gc.pauseSeconds()));
      node.put("load_average_before", loadBefore);
      node.put("load_average_after", Machine.loadAverage());
      return node;
    }

    /** {@code kvscope score}: one {found, truth, precision, recall} per scored set. */
    private ObjectNode score(Path truth, Path report, Path dir) throws IOException {
      kvscope(List.of("score", truth.toString(), report.toString()), Map.of(), dir, "score");
      ObjectNode score = JSON.createObjectNode();
      for (String line : Files.readAllLines(dir.resolve("score.out"))) {
        Matcher m = SCORE_LINE.matcher(line);
        if (m.matches()) {
          ObjectNode set = score.putObject(m.group(1).replace(' ', '_'));
          set.put("truth", Long.parseLong(m.group(2)));
          set.put("found", Long.parseLong(m.group(3)));
          set.put("precision", Double.parseDouble(m.group(4)));
          set.put("recall", Double.parseDouble(m.group(5)));
        }
        Matcher named = NAMED_LINE.matcher(line);
        if (named.matches()) {
          ObjectNode set = score.putObject("true_sources_named");
          set.put("named", Long.parseLong(named.group(1)));
          set.put("truth", Long.parseLong(named.group(2)));
        }
        Matcher sole = SOLE_LINE.matcher(line);
        if (sole.matches()) {
          ObjectNode set = score.putObject("sole_attributions");
          set.put("count", Long.parseLong(sole.group(1)));
          set.put("right", Long.parseLong(sole.group(2)));
        }
      }
      return score;
    }

    private int kvscope(List<String> args, Map<String, String> env, Path dir, String name) throws IOException {
      List<String> command = new ArrayList<>();
      command.add(settings.kvscope().toString());
      command.addAll(args);
      return Processes.run(command, env, dir.resolve(name + ".out"), dir.resolve(name + ".err"));
    }

    private ObjectNode jackson(List<Path> files, Path dir) throws IOException {
      List<String> command = new ArrayList<>(List.of(java, "-Xmx" + settings.heap(), "-cp", classpath,
          JacksonBaseline.class.getName(), "--rounds", Integer.toString(settings.jacksonRounds())));
      files.forEach(f -> command.add(f.toString()));
      return childJson(command, dir, "jackson");
    }

    private ObjectNode naive(List<Path> files, Path dir) throws IOException {
      List<String> command = new ArrayList<>(List.of(java, "-Xmx" + settings.heap(), "-cp", classpath,
          NaiveOverlap.class.getName(), "--budget-seconds", Double.toString(settings.naiveBudgetSeconds())));
      files.forEach(f -> command.add(f.toString()));
      return childJson(command, dir, "naive-overlap");
    }

    private ObjectNode childJson(List<String> command, Path dir, String name) throws IOException {
      check(Processes.run(command, Map.of(), dir.resolve(name + ".out"), dir.resolve(name + ".err")), name);
      return (ObjectNode) JSON.readTree(dir.resolve(name + ".out").toFile());
    }

    /**
     * The canary scan with ripgrep: the markers are the canary strings of the incident (found with
     * the generator's canary pattern from truth.json, timed apart as {@code regex_s}), then
     * {@code rg -F -f markers} over every log file.
     */
    private ObjectNode ripgrep(Path incident, String pattern, Path dir, long inputBytes) throws IOException {
      ObjectNode node = JSON.createObjectNode();
      if (!Processes.available("rg", "--version")) {
        node.put("skipped", "rg (ripgrep) not found on PATH");
        return node;
      }
      Path markers = dir.resolve("markers.txt");
      Path found = dir.resolve("rg-regex.out");
      long t0 = System.nanoTime();
      Processes.run(List.of("rg", "-o", "-N", "--no-filename", "-g", "!truth.json", pattern, incident.toString()),
          Map.of(), found, dir.resolve("rg-regex.err"));
      double regexSeconds = (System.nanoTime() - t0) / 1e9;
      TreeSet<String> distinct = new TreeSet<>(Files.readAllLines(found));
      Files.write(markers, distinct);
      Files.delete(found);
      Path counts = dir.resolve("rg-fixed.out");
      t0 = System.nanoTime();
      Processes.run(List.of("rg", "-F", "-f", markers.toString(), "-c", "--no-filename", "-g", "!truth.json",
          incident.toString()), Map.of(), counts, dir.resolve("rg-fixed.err"));
      double fixedSeconds = (System.nanoTime() - t0) / 1e9;
      long lines = 0;
      for (String line : Files.readAllLines(counts)) {
        lines += Long.parseLong(line.trim());
      }
      node.put("markers", distinct.size());
      node.put("matching_lines", lines);
      node.put("fixed_s", round(fixedSeconds));
      node.put("fixed_mb_per_s", round(inputBytes / 1e6 / fixedSeconds));
      node.put("regex_s", round(regexSeconds));
      return node;
    }

    private static ObjectNode ratios(ObjectNode run) {
      ObjectNode r = JSON.createObjectNode();
      JsonNode ingest = run.get("ingest");
      JsonNode analyze = run.get("analyze");
      JsonNode jackson = run.path("baselines").path("jackson");
      r.put("ingest_vs_jackson", round(ingest.get("mb_per_s").asDouble() / jackson.path("mb_per_s").asDouble()));
      r.put("ingest_vs_jackson_tokens_only",
          round(ingest.get("mb_per_s").asDouble() / jackson.path("tokens_only_mb_per_s").asDouble()));
      r.put("analyze_speed_vs_ingest", round(ingest.get("wall_s").asDouble() / analyze.get("wall_s").asDouble()));
      JsonNode rg = run.path("baselines").path("rg");
      if (rg.has("fixed_s")) {
        r.put("analyze_vs_rg_fixed", round(analyze.get("wall_s").asDouble() / rg.get("fixed_s").asDouble()));
      }
      JsonNode naive = run.path("baselines").path("naive_overlap");
      if (naive.has("projected_full_s")) {
        r.put("naive_projected_vs_analyze", round(naive.get("projected_full_s").asDouble() / analyze.get("wall_s").asDouble()));
      }
      return r;
    }

    private static void check(int exit, String what) throws IOException {
      if (exit != 0) {
        throw new IOException(what + " failed with exit code " + exit + "; see its .err file in the work folder");
      }
    }
  }

  /** The generated log files (not truth.json). */
  static List<Path> inputFiles(Path incident) throws IOException {
    try (Stream<Path> walk = Files.walk(incident)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("truth.json"))
          .sorted()
          .toList();
    }
  }

  static long treeSize(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      long total = 0;
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p)) {
          total += Files.size(p);
        }
      }
      return total;
    }
  }

  /** Deletes a folder and everything in it, if it exists. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  static double round(double value) {
    if (!Double.isFinite(value)) {
      return value;
    }
    double scale = Math.abs(value) >= 100 ? 10 : Math.abs(value) >= 1 ? 100 : 10_000;
    return Math.round(value * scale) / scale;
  }
}
