package io.kvscope.samples.out;

import io.kvscope.ingest.record.NodeRole;
import io.kvscope.samples.fleet.Epoch;
import io.kvscope.samples.fleet.EngineConfig;
import io.kvscope.samples.fleet.NodeSpec;
import io.kvscope.samples.random.Rng;
import java.util.Locale;

/**
 * The lines an SGLang server writes while starting: {@code server_args=ServerArgs(...)}, weight
 * loading and {@code KV Cache is allocated. #tokens: N, ...} (once per rank), the
 * {@code max_total_num_tokens=...} summary (rank 0), and the HTTP server coming up. SGLang logs no
 * engine version: the release each node ran is on record in the deployment records
 * ({@link DeploymentRecords}).
 */
final class StartupBanner {

  static final String MODEL_PATH = "/models/Qwen2.5-14B-Instruct-1M";
  static final String SERVED_MODEL = "qwen2.5-14b-1m";
  /** Parameters of the simulated model that size the KV cache. */
  private static final int LAYERS = 48;
  private static final int KV_HEADS = 8;
  private static final int HEAD_DIM = 128;
  private static final double WEIGHTS_GB = 29.6;
  private static final double GPU_GB = 78.54;

  private StartupBanner() {}

  static void schedule(EngineLog log, Epoch e, Rng rng) {
    NodeSpec n = log.node();
    EngineConfig c = e.config();
    long t = e.start();
    String mode = n.role() == NodeRole.PREFILL ? "prefill" : n.role() == NodeRole.DECODE ? "decode" : "null";
    long randomSeed = rng.nextInt(1_000_000_000);
    log.tokenizer(t, sb -> serverArgs(sb, c, mode, randomSeed));
    // Model loading and the memory pool log on every rank; the scheduler summary on rank 0 only.
    log.everyRank(t + 2_400, (sb, rank) -> sb.append("Init torch distributed begin."));
    log.everyRank(t + 5_100, (sb, rank) -> sb.append("Load weight begin. avail mem=").append(gb(GPU_GB)).append(" GB"));
    double weights = WEIGHTS_GB / c.tpSize();
    double kvGb = (double) c.poolTokens() * LAYERS * Math.max(1, KV_HEADS / c.tpSize()) * HEAD_DIM * 2 / (1L << 30);
    double afterWeights = GPU_GB - weights;
    double afterPool = afterWeights - 2 * kvGb - 0.31;
    long loadMs = 38_000 + rng.nextInt(12_000);
    log.everyRank(t + 5_100 + loadMs, (sb, rank) -> sb.append("Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=")
        .append(gb(afterWeights)).append(" GB, mem usage=").append(gb(weights)).append(" GB."));
    long kvAt = t + 6_000 + loadMs;
    log.everyRank(kvAt, (sb, rank) -> sb.append("KV Cache is allocated. #tokens: ").append(c.poolTokens())
        .append(", K size: ").append(gb(kvGb)).append(" GB, V size: ").append(gb(kvGb)).append(" GB"));
    log.everyRank(kvAt + 40, (sb, rank) -> sb.append("Memory pool end. avail mem=").append(gb(afterPool)).append(" GB"));
    log.scheduler(kvAt + 1_900, sb -> sb.append("max_total_num_tokens=").append(c.poolTokens())
        .append(", chunked_prefill_size=").append(c.chunkedPrefillSize())
        .append(", max_prefill_tokens=").append(c.maxPrefillTokens())
        .append(", max_running_requests=").append(c.maxRunningRequests())
        .append(", context_len=").append(c.contextLength())
        .append(", available_gpu_mem=").append(gb(afterPool)).append(" GB"));
    long pid = 1000 + rng.nextInt(90_000);
    long up = e.readyAt() - 9_000;
    log.tokenizer(up, sb -> sb.append("INFO:     Started server process [").append(pid).append(']'));
    log.tokenizer(up + 1, sb -> sb.append("INFO:     Waiting for application startup."));
    log.tokenizer(up + 2, sb -> sb.append("INFO:     Application startup complete."));
    log.tokenizer(up + 3, sb -> sb.append("INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)"));
    log.tokenizer(e.readyAt(), sb -> sb.append("The server is fired up and ready to roll!"));
  }

  private static void serverArgs(StringBuilder sb, EngineConfig c, String mode, long randomSeed) {
    sb.append("server_args=ServerArgs(model_path='").append(MODEL_PATH)
        .append("', tokenizer_path='").append(MODEL_PATH)
        .append("', tokenizer_mode='auto', skip_tokenizer_init=False, load_format='auto', trust_remote_code=False")
        .append(", context_length=").append(c.contextLength())
        .append(", is_embedding=False, revision=None, dtype='auto', kv_cache_dtype='auto', quantization=None")
        .append(", served_model_name='").append(SERVED_MODEL).append("', chat_template=None")
        .append(", host='0.0.0.0', port=30000")
        .append(", mem_fraction_static=").append(String.format(Locale.ROOT, "%.2f", c.memFraction()))
        .append(", max_running_requests=").append(c.maxRunningRequests())
        .append(", max_total_tokens=None")
        .append(", chunked_prefill_size=").append(c.chunkedPrefillSize())
        .append(", max_prefill_tokens=").append(c.maxPrefillTokens())
        .append(", schedule_policy='fcfs', schedule_conservativeness=1.0")
        .append(", page_size=").append(c.pageSize())
        .append(", tp_size=").append(c.tpSize()).append(", dp_size=1")
        .append(", random_seed=").append(randomSeed)
        .append(", log_level='info', log_requests=True, log_requests_level=1, enable_metrics=True")
        .append(", decode_log_interval=40, enable_request_time_stats_logging=True, allow_auto_truncate=False")
        .append(", enable_trace=False")
        .append(", disaggregation_mode='").append(mode).append("'")
        .append(", disaggregation_transfer_backend='mooncake', disaggregation_bootstrap_port=8998")
        .append(", disaggregation_ib_device='mlx5_0'")
        .append(", disaggregation_enable_kv_checksum=").append(c.kvChecksum() ? "True" : "False")
        .append(", kv_canary=").append(c.kvCanary() ? "True" : "False")
        .append(", enable_hierarchical_cache=False)");
  }

  static String gb(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
