package io.kvscope.probe.config;

import io.kvscope.ingest.engine.prometheus.Sample;
import io.kvscope.ingest.record.NodeRole;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /metrics} in the Prometheus text format, read with the same sample parser the
 * snapshot ingestor uses.
 *
 * <p>SGLang (with {@code --enable-metrics}) sets constant gauges once at start-up:
 * {@code sglang:max_total_num_tokens} (the pool), {@code sglang:context_len},
 * {@code sglang:page_size} and {@code sglang:num_pages}, labelled {@code model_name},
 * {@code engine_type} ({@code unified}, {@code prefill}, {@code decode}), {@code tp_rank},
 * {@code pp_rank}, ... one sample per rank. vLLM publishes its cache configuration as the info
 * gauge {@code vllm:cache_config_info} whose labels carry {@code block_size},
 * {@code num_gpu_blocks} and, in newer releases, {@code kv_cache_size_tokens}: its pool is the
 * latter, else blocks times block size.
 */
final class MetricsResponse {

  private MetricsResponse() {}

  /** Adds what {@code body} shows; false when it holds no sample the probe reads. */
  static boolean read(String body, String source, Readings r) {
    if (body == null) {
      return false;
    }
    boolean any = false;
    for (String line : body.lines().toList()) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#") || !(t.startsWith("sglang:") || t.startsWith("vllm:cache_config_info"))) {
        continue;
      }
      Sample s;
      try {
        s = Sample.parse(t);
      } catch (IllegalArgumentException garbled) {
        continue;
      }
      Observation o = new Observation(source, s.name() + labels(s.labels()), number(s.value()));
      switch (s.name()) {
        case "sglang:max_total_num_tokens" -> any |= add(r, FactName.POOL_TOKENS, whole(s.value()), o);
        case "sglang:context_len" -> any |= add(r, FactName.CONTEXT_LENGTH, whole(s.value()), o);
        case "sglang:page_size" -> {
          Long page = whole(s.value());
          any |= add(r, FactName.PAGE_SIZE, page == null || page > Integer.MAX_VALUE ? null : page.intValue(), o);
        }
        case "vllm:cache_config_info" -> any |= vllmCache(s, source, r);
        default -> { continue; }
      }
      if (s.name().startsWith("sglang:")) {
        r.add(FactName.ENGINE, "sglang", o);
        String type = s.labels().get("engine_type");
        if (type != null) {
          r.add(FactName.ROLE, role(type), new Observation(source, s.name() + " engine_type", type));
        }
        r.add(FactName.SERVED_MODEL, s.labels().get("model_name"), new Observation(source, s.name() + " model_name",
            String.valueOf(s.labels().get("model_name"))));
      }
    }
    return any;
  }

  private static boolean vllmCache(Sample s, String source, Readings r) {
    Map<String, String> l = s.labels();
    Observation o = new Observation(source, s.name() + labels(l), number(s.value()));
    r.add(FactName.ENGINE, "vllm", o);
    Long tokens = parse(l.get("kv_cache_size_tokens"));
    Long blocks = parse(l.get("num_gpu_blocks"));
    Long blockSize = parse(l.get("block_size"));
    if (tokens == null && blocks != null && blockSize != null && blockSize > 0 && blocks < Long.MAX_VALUE / blockSize) {
      tokens = blocks * blockSize;
    }
    r.add(FactName.POOL_TOKENS, tokens, o);
    r.add(FactName.PAGE_SIZE, blockSize == null || blockSize > Integer.MAX_VALUE ? null : blockSize.intValue(), o);
    return tokens != null;
  }

  private static boolean add(Readings r, FactName fact, Object value, Observation o) {
    r.add(fact, value, o);
    return value != null;
  }

  static NodeRole role(String engineType) {
    return switch (engineType.strip().toLowerCase(Locale.ROOT)) {
      case "unified" -> NodeRole.UNIFIED;
      default -> NodeRole.fromDisaggregationMode(engineType.strip());
    };
  }

  private static Long whole(double v) {
    return Double.isFinite(v) && v >= 0 && v < 9e18 ? Math.round(v) : null;
  }

  private static Long parse(String label) {
    if (label == null) {
      return null;
    }
    try {
      long v = Long.parseLong(label.strip());
      return v >= 0 ? v : null;
    } catch (NumberFormatException notANumber) {
      return null; // vLLM writes "None" before the blocks are counted
    }
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  /** The sample's labels, sorted, as Prometheus writes them. */
  private static String labels(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder("{");
    new TreeMap<>(labels).forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append(k).append("=\"").append(v).append('"'));
    return b.append('}').toString();
  }
}
