package io.kvscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The performance targets, checked on the runs of one benchmark (heap capped, same machine):
 *
 * <ul>
 *   <li>ingest at no less than 25% of Jackson's raw parse rate of the same JSON files;
 *   <li>analysis no slower than ingest (wall time);
 *   <li>peak heap flat: the largest input's peak live heap at most 1.5 times the smallest input's
 *       (sampled with full collections, {@link LiveHeapSampler}; results without samples fall
 *       back to the GC log's after-GC peak, an upper bound that also counts old garbage G1 has not
 *       collected yet; the before-GC peak is reported beside it);
 *   <li>ingest + analyze time growing no worse than 1.3 times the input's growth (time per MB of
 *       the largest input at most 1.3 times that of the smallest), by wall and by CPU time.
 * </ul>
 */
final class Targets {

  static final double MIN_INGEST_VS_JACKSON = 0.25;
  static final double MAX_HEAP_GROWTH = 1.5;
  static final double MAX_TIME_PER_MB_GROWTH = 1.3;

  private Targets() {}

  static ObjectNode evaluate(ArrayNode runs) {
    ObjectNode t = new ObjectMapper().createObjectNode();
    List<JsonNode> sorted = new ArrayList<>();
    runs.forEach(sorted::add);
    sorted.sort(Comparator.comparingLong(r -> r.get("input_bytes").asLong()));
    if (sorted.isEmpty()) {
      return t;
    }
    double worstRatio = Double.POSITIVE_INFINITY;
    boolean analyzeFaster = true;
    for (JsonNode run : sorted) {
      worstRatio = Math.min(worstRatio, run.path("ratios").path("ingest_vs_jackson").asDouble());
      analyzeFaster &= run.get("analyze").get("wall_s").asDouble() <= run.get("ingest").get("wall_s").asDouble();
    }
    ObjectNode ingest = t.putObject("ingest_vs_jackson");
    ingest.put("target_min", MIN_INGEST_VS_JACKSON);
    ingest.put("worst", EndToEnd.round(worstRatio));
    ingest.put("met", worstRatio >= MIN_INGEST_VS_JACKSON);
    t.putObject("analyze_no_slower_than_ingest").put("met", analyzeFaster);
    if (sorted.size() < 2) {
      return t;
    }
    JsonNode small = sorted.get(0);
    JsonNode large = sorted.get(sorted.size() - 1);
    double growth = large.get("input_bytes").asDouble() / small.get("input_bytes").asDouble();
    ObjectNode heap = t.putObject("heap_flat");
    heap.put("target_max_growth", MAX_HEAP_GROWTH);
    heap.put("input_growth", EndToEnd.round(growth));
    double afterGcGrowth = peak(large, "peak_heap_after_gc_mb") / peak(small, "peak_heap_after_gc_mb");
    heap.put("after_gc_growth", EndToEnd.round(afterGcGrowth));
    boolean sampled = peak(small, "peak_live_heap_mb") > 0 && peak(large, "peak_live_heap_mb") > 0;
    double heapGrowth = sampled ? peak(large, "peak_live_heap_mb") / peak(small, "peak_live_heap_mb") : afterGcGrowth;
    if (sampled) {
      heap.put("live_growth", EndToEnd.round(heapGrowth));
    }
    heap.put("before_gc_growth", EndToEnd.round(peak(large, "peak_heap_mb") / peak(small, "peak_heap_mb")));
    heap.put("met", heapGrowth <= MAX_HEAP_GROWTH);
    ObjectNode scaling = t.putObject("time_scaling");
    scaling.put("target_max_time_per_mb_growth", MAX_TIME_PER_MB_GROWTH);
    double wall = (total(large, "wall_s") / total(small, "wall_s")) / growth;
    double cpu = (total(large, "user_s") + total(large, "sys_s")) / (total(small, "user_s") + total(small, "sys_s")) / growth;
    scaling.put("wall_time_per_mb_growth", EndToEnd.round(wall));
    scaling.put("cpu_time_per_mb_growth", EndToEnd.round(cpu));
    scaling.put("met", wall <= MAX_TIME_PER_MB_GROWTH);
    double smallOverlap = small.path("analyze").path("overlap_s").asDouble();
    if (smallOverlap > 0) {
      // The overlap analysis alone (self-joins and verification) must stay near-linear too.
      ObjectNode overlap = t.putObject("overlap_scaling");
      overlap.put("target_max_time_per_mb_growth", MAX_TIME_PER_MB_GROWTH);
      double perMb = large.path("analyze").path("overlap_s").asDouble() / smallOverlap / growth;
      overlap.put("time_per_mb_growth", EndToEnd.round(perMb));
      overlap.put("met", perMb <= MAX_TIME_PER_MB_GROWTH);
    }
    return t;
  }

  private static double peak(JsonNode run, String field) {
    return Math.max(run.path("ingest").path(field).asDouble(-1), run.path("analyze").path(field).asDouble(-1));
  }

  private static double total(JsonNode run, String field) {
    return run.get("ingest").get(field).asDouble() + run.get("analyze").get(field).asDouble();
  }
}
