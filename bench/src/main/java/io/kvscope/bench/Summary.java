package io.kvscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One line per input size from a results file of {@link EndToEnd}, so that a later run can be
 * compared with recorded numbers at a glance: {@code bench/summary.sh results.json [older.json]}.
 */
public final class Summary {

  private Summary() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: summary.sh RESULTS.json [MORE.json...]");
      System.exit(2);
    }
    ObjectMapper json = new ObjectMapper();
    for (String file : args) {
      if (args.length > 1) {
        System.out.println("== " + file);
      }
      print(json.readTree(Path.of(file).toFile()), System.out);
    }
  }

  static void print(JsonNode results, PrintStream out) {
    JsonNode m = results.path("machine");
    out.printf(Locale.ROOT, "%s  %s  %d cores  %s GB  heap %s  load %.1f  commit %s%n",
        results.path("date").asText(), m.path("cpu").asText(), m.path("cores").asInt(),
        m.path("memory_gb").asText(), results.path("settings").path("heap").asText(),
        m.path("load_average_at_start").asDouble(), results.path("commit").asText());
    for (JsonNode run : results.path("runs")) {
      out.println(line(run));
    }
    JsonNode t = results.path("targets");
    if (!t.isMissingNode() && t.size() > 0) {
      out.printf(Locale.ROOT, "targets: ingest>=%.2fx jackson %s (worst %.3fx); analyze<=ingest %s; heap flat %s (%sx live, %sx after GC, %sx before, input %sx); "
              + "time/MB growth %s (%sx wall, %sx cpu)%n",
          t.path("ingest_vs_jackson").path("target_min").asDouble(), verdict(t.path("ingest_vs_jackson")),
          t.path("ingest_vs_jackson").path("worst").asDouble(), verdict(t.path("analyze_no_slower_than_ingest")),
          verdict(t.path("heap_flat")), t.path("heap_flat").path("live_growth").asText("-"),
          t.path("heap_flat").path("after_gc_growth").asText("-"),
          t.path("heap_flat").path("before_gc_growth").asText("-"), t.path("heap_flat").path("input_growth").asText("-"),
          verdict(t.path("time_scaling")), t.path("time_scaling").path("wall_time_per_mb_growth").asText("-"),
          t.path("time_scaling").path("cpu_time_per_mb_growth").asText("-"));
      if (t.has("overlap_scaling")) {
        out.printf(Locale.ROOT, "overlap analysis time/MB growth %s (%sx)%n", verdict(t.path("overlap_scaling")),
            t.path("overlap_scaling").path("time_per_mb_growth").asText("-"));
      }
    }
  }

  /** The sampled live heap peak of the two processes, "-" for results recorded before sampling. */
  private static String liveHeap(JsonNode ingest, JsonNode analyze) {
    long peak = Math.max(ingest.path("peak_live_heap_mb").asLong(-1), analyze.path("peak_live_heap_mb").asLong(-1));
    return peak > 0 ? Long.toString(peak) : "-";
  }

  /**
   * {@code 1G 991 MB: ingest 9.3 MB/s 9.7 MB/cpu-s (0.012x jackson 755 MB/s) ..., analyze 35.2 s ...}:
   * MB per CPU-second beside MB/s because on a shared machine the wall clock also measures the
   * neighbours.
   */
  static String line(JsonNode run) {
    JsonNode ingest = run.path("ingest");
    JsonNode analyze = run.path("analyze");
    JsonNode ratios = run.path("ratios");
    JsonNode b = run.path("baselines");
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "%-5s %,6.0f MB: ingest %.1f MB/s %.1f MB/cpu-s (%.3fx jackson %.0f MB/s) %,.0f rec/s %.0f s %.0f%% cpu, "
            + "analyze %.1f s (%.2fx ingest speed), heap %s/%d/%d MB (live/after/before GC), rss %d MB, index %.2fx input",
        run.path("size").asText(), run.path("input_bytes").asDouble() / 1e6,
        ingest.path("mb_per_s").asDouble(), ingest.path("mb_per_cpu_s").asDouble(), ratios.path("ingest_vs_jackson").asDouble(),
        b.path("jackson").path("mb_per_s").asDouble(), ingest.path("records_per_s").asDouble(),
        ingest.path("wall_s").asDouble(), ingest.path("cpu_percent").asDouble(),
        analyze.path("wall_s").asDouble(), ratios.path("analyze_speed_vs_ingest").asDouble(),
        liveHeap(ingest, analyze),
        Math.max(ingest.path("peak_heap_after_gc_mb").asInt(), analyze.path("peak_heap_after_gc_mb").asInt()),
        Math.max(ingest.path("peak_heap_mb").asInt(), analyze.path("peak_heap_mb").asInt()),
        Math.max(ingest.path("peak_rss_mb").asInt(), analyze.path("peak_rss_mb").asInt()),
        run.path("index_fraction").asDouble()));
    if (b.path("rg").has("fixed_s")) {
      s.append(String.format(Locale.ROOT, ", rg -F %.2f s (analyze %.0fx)", b.path("rg").path("fixed_s").asDouble(),
          ratios.path("analyze_vs_rg_fixed").asDouble()));
    }
    if (b.path("naive_overlap").has("projected_full_s")) {
      s.append(String.format(Locale.ROOT, ", naive all-pairs ~%s (%.0fx analyze)",
          duration(b.path("naive_overlap").path("projected_full_s").asDouble()),
          ratios.path("naive_projected_vs_analyze").asDouble()));
    }
    if (analyze.has("overlap_s")) {
      s.append(String.format(Locale.ROOT, ", overlap %.1f s", analyze.path("overlap_s").asDouble()));
    }
    s.append(String.format(Locale.ROOT, ", leaks %d/%d", analyze.path("leaked_responses").asLong(),
        analyze.path("truth_leaked_responses").asLong()));
    JsonNode sources = analyze.path("score").path("source_requests");
    if (!sources.isMissingNode()) { // runs before sole/candidate attribution
      s.append(String.format(Locale.ROOT, ", sources %d/%d (P %.3f R %.3f)", sources.path("found").asLong(),
          sources.path("truth").asLong(), sources.path("precision").asDouble(), sources.path("recall").asDouble()));
    }
    JsonNode named = analyze.path("score").path("true_sources_named");
    JsonNode sole = analyze.path("score").path("sole_attributions");
    if (!named.isMissingNode() && !sole.isMissingNode()) {
      s.append(String.format(Locale.ROOT, ", true sources named %d/%d, sole attributions right %d/%d",
          named.path("named").asLong(), named.path("truth").asLong(), sole.path("right").asLong(),
          sole.path("count").asLong()));
    }
    return s.toString();
  }

  private static String verdict(JsonNode target) {
    return target.isMissingNode() ? "n/a" : target.path("met").asBoolean() ? "MET" : "MISSED";
  }

  private static String duration(double seconds) {
    if (seconds < 120) {
      return String.format(Locale.ROOT, "%.0f s", seconds);
    }
    if (seconds < 7200) {
      return String.format(Locale.ROOT, "%.0f min", seconds / 60);
    }
    return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
  }
}
