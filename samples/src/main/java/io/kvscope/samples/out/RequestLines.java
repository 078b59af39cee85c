package io.kvscope.samples.out;

import io.kvscope.samples.fleet.EngineConfig;
import io.kvscope.samples.sim.Outcome;
import io.kvscope.samples.sim.RequestPlan;

/**
 * The per-request lines of SGLang's two roles: request logger at level 1 ({@code Receive:} and
 * {@code Finish:} without text), prefill and decode batch lines, {@code ReqTimeStats}, and the
 * rejection messages. Which lines a request gets depends on its {@link Outcome}.
 */
final class RequestLines {

  private static final double KV_MB_PER_TOKEN = 196_608.0 / 1e6;

  private RequestLines() {}

  /** Lines known when the request reaches the engines. */
  static void admitted(RequestPlan p, EngineLog prefill, EngineLog decode) {
    prefill.tokenizer(p.routerAt() + 1, sb -> receive(sb, p));
    decode.tokenizer(p.routerAt() + 2, sb -> receive(sb, p));
    switch (p.outcome()) {
      case REJECTED_CONTEXT -> {
        long n = p.promptTokens();
        if (n >= p.prefillConfig().contextLength()) {
          prefill.tokenizer(p.tokenizedAt(), sb -> contextRejection(sb, n, p.prefillConfig()));
        }
        if (n >= p.decodeConfig().contextLength()) {
          decode.tokenizer(p.tokenizedAt() + 3, sb -> contextRejection(sb, n, p.decodeConfig()));
        }
      }
      case REJECTED_LENGTH -> {
        prefill.scheduler(p.tokenizedAt() + 1, sb -> lengthRejection(sb, p));
        prefill.tokenizer(p.tokenizedAt() + 3, sb -> finish(sb, p, 1, 0, 0, abort(p.errorMessage()),
            (p.tokenizedAt() + 3 - p.routerAt()) / 1000.0));
        decode.tokenizer(p.gatewayEnd() - 3, sb -> finish(sb, p, p.promptTokens(), 0, 0,
            abort("Prefill rejected the request: " + p.errorMessage()), (p.gatewayEnd() - 3 - p.routerAt()) / 1000.0));
      }
      case STUB -> {
        prefill.scheduler(p.tokenizedAt() + 1, sb -> lengthRejection(sb, p));
        prefill.scheduler(p.prefillEnd(), sb -> prefillBatch(sb, 1, 0, 1, p.prefillConfig(), p.prefillEnd() - p.prefillStart()));
        long statsAt = p.prefillEnd() + p.transferMs();
        prefill.scheduler(statsAt, sb -> prefillStats(sb, p, 1, p.prefillConfig().pageSize()));
        prefill.tokenizer(statsAt + 1, sb -> finish(sb, p, 1, 0, 0, abort(p.errorMessage()),
            (statsAt + 1 - p.routerAt()) / 1000.0));
      }
      case SERVED -> {
        EngineConfig c = p.prefillConfig();
        long uncached = p.promptTokens() - p.cachedTokens();
        int chunks = (int) Math.max(1, (uncached + c.chunkedPrefillSize() - 1) / c.chunkedPrefillSize());
        long duration = p.prefillEnd() - p.prefillStart();
        for (int i = 0; i < chunks; i++) {
          long newTokens = Math.min(c.chunkedPrefillSize(), uncached - (long) i * c.chunkedPrefillSize());
          long cachedHere = i == 0 ? p.cachedTokens() : 0;
          long inUse = p.cachedTokens() + Math.min(uncached, (long) (i + 1) * c.chunkedPrefillSize());
          long at = p.prefillStart() + duration * (i + 1) / chunks;
          long chunkMs = Math.max(1, duration / chunks);
          long nt = Math.max(1, newTokens);
          prefill.scheduler(at, sb -> prefillBatch(sb, nt, cachedHere, inUse, c, chunkMs));
        }
        long statsAt = p.prefillEnd() + p.transferMs();
        prefill.scheduler(statsAt, sb -> prefillStats(sb, p, p.promptTokens(), p.promptTokens()));
        prefill.tokenizer(statsAt + 1, sb -> finish(sb, p, p.promptTokens(), 1, p.cachedTokens(),
            "{'type': 'length', 'length': 1}", (statsAt + 1 - p.routerAt()) / 1000.0));
      }
    }
  }

  /** Lines known once the decode node reserved pages and the reply is determined. */
  static void decoded(RequestPlan p, EngineLog decode) {
    int k = p.outputTokens();
    for (int j = 1; j * 40 < k; j++) {
      long at = p.firstTokenAt() + Math.round(j * 40 * p.stepMs());
      long tokens = p.tokensInUseAtAlloc() + j * 40L;
      decode.scheduler(at, sb -> decodeBatch(sb, p, tokens));
    }
    decode.scheduler(p.decodeEnd(), sb -> decodeStats(sb, p));
    String reason = "length".equals(p.finishReason())
        ? "{'type': 'length', 'length': " + p.maxTokens() + "}" : "{'type': 'stop'}";
    decode.tokenizer(p.decodeEnd() + 1, sb -> finish(sb, p, p.reportedPromptTokens(), k, p.cachedTokens(), reason,
        (p.decodeEnd() + 1 - p.routerAt()) / 1000.0));
  }

  private static void obj(StringBuilder sb, RequestPlan p) {
    sb.append("GenerateReqInput(rid='").append(p.rid())
        .append("', text=None, input_ids=None, sampling_params={'temperature': ").append(p.temperature())
        .append(", 'max_new_tokens': ").append(p.maxTokens())
        .append("}, return_logprob=False, stream=").append(p.stream() ? "True" : "False")
        .append(", log_metrics=True, bootstrap_host='").append(p.prefillNode().ip())
        .append("', bootstrap_port=8998, bootstrap_room=").append(p.bootstrapRoom())
        .append(", data_parallel_rank=None)");
  }

  private static void receive(StringBuilder sb, RequestPlan p) {
    sb.append("Receive: obj=");
    obj(sb, p);
  }

  private static void finish(StringBuilder sb, RequestPlan p, long promptTokens, long completionTokens, long cached,
      String finishReason, double e2eSeconds) {
    sb.append("Finish: obj=");
    obj(sb, p);
    sb.append(", out={'meta_info': {'id': '").append(p.rid())
        .append("', 'finish_reason': ").append(finishReason)
        .append(", 'prompt_tokens': ").append(promptTokens)
        .append(", 'completion_tokens': ").append(completionTokens)
        .append(", 'cached_tokens': ").append(cached)
        .append(", 'e2e_latency': ").append(fmt3(e2eSeconds)).append("}}");
  }

  private static String abort(String message) {
    return "{'type': 'abort', 'message': '" + message + "', 'status_code': 400}";
  }

  private static void contextRejection(StringBuilder sb, long n, EngineConfig c) {
    sb.append("The input (").append(n).append(" tokens) is longer than the model's context length (")
        .append(c.contextLength()).append(" tokens).");
  }

  private static void lengthRejection(StringBuilder sb, RequestPlan p) {
    sb.append("Input length (").append(p.promptTokens()).append(" tokens) exceeds the maximum allowed length (")
        .append(p.prefillConfig().maxInputLen())
        .append(" tokens). Use a shorter input or enable --allow-auto-truncate., self.rid='").append(p.rid()).append('\'');
  }

  private static void prefillBatch(StringBuilder sb, long newTokens, long cached, long inUse, EngineConfig c, long ms) {
    sb.append("Prefill batch, #new-seq: 1, #new-token: ").append(newTokens)
        .append(", #cached-token: ").append(cached)
        .append(", token usage: ").append(fmt2((double) inUse / c.poolTokens()))
        .append(", #running-req: 0, #queue-req: 0, #unbootstrapped-req: 0, #transferring-req: 0")
        .append(", input throughput (token/s): ").append(fmt2(newTokens * 1000.0 / Math.max(1, ms)));
  }

  private static void prefillStats(StringBuilder sb, RequestPlan p, long inputLen, long transferTokens) {
    long forward = p.prefillEnd() - p.prefillStart();
    long e2e = p.prefillEnd() + p.transferMs() - p.routerAt();
    sb.append("ReqTimeStats(rid='").append(p.rid()).append("', bootstrap_room=").append(p.bootstrapRoom())
        .append(", input_len=").append(inputLen)
        .append(", cached_input_len=").append(p.outcome() == Outcome.STUB ? 0 : p.cachedTokens())
        .append(", output_len=1, type=prefill): bootstrap_duration=").append(fmt2(2.0 + (p.bootstrapRoom() % 300) / 100.0))
        .append("ms, queue_duration=").append(fmt2(p.prefillQueueMs()))
        .append("ms, forward_duration=").append(fmt2(forward))
        .append("ms, transfer_duration=").append(fmt2(p.transferMs()))
        .append("ms, transfer_total=").append(fmt2(transferTokens * KV_MB_PER_TOKEN))
        .append(" MB, e2e_duration=").append(fmt2(e2e)).append("ms");
  }

  private static void decodeBatch(StringBuilder sb, RequestPlan p, long tokens) {
    long pool = (long) p.decodePoolPages() * p.decodeConfig().pageSize();
    sb.append("Decode batch, #running-req: ").append(p.runningAtAlloc())
        .append(", #token: ").append(tokens)
        .append(", token usage: ").append(fmt2((double) tokens / pool))
        .append(", pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 0, #retracted-req: 0, cuda graph: True")
        .append(", gen throughput (token/s): ").append(fmt2(p.runningAtAlloc() * 1000.0 / p.stepMs()))
        .append(", #queue-req: 0");
  }

  private static void decodeStats(StringBuilder sb, RequestPlan p) {
    long transferDone = p.firstTokenAt() - Math.round(p.stepMs());
    sb.append("ReqTimeStats(rid='").append(p.rid()).append("', bootstrap_room=").append(p.bootstrapRoom())
        .append(", input_len=").append(p.promptTokens())
        .append(", cached_input_len=0")
        .append(", output_len=").append(p.outputTokens())
        .append(", type=decode): bootstrap_duration=").append(fmt2(3.0 + (p.bootstrapRoom() % 500) / 100.0))
        .append("ms, prealloc_queue_duration=").append(fmt2(p.decodeAllocAt() - p.decodeRequestedAt()))
        .append("ms, transfer_duration=").append(fmt2(transferDone - p.decodeAllocAt()))
        .append("ms, wait_queue_duration=0.40ms, forward_duration=").append(fmt2(p.decodeEnd() - transferDone))
        .append("ms, e2e_duration=").append(fmt2(p.decodeEnd() - p.routerAt())).append("ms");
  }

  static String fmt2(double v) {
    return fixed(v, 2);
  }

  static String fmt3(double v) {
    return fixed(v, 3);
  }

  /** Fixed-point decimal without {@link String#format} (hot path; same result for these ranges). */
  static String fixed(double v, int decimals) {
    long scale = decimals == 2 ? 100 : 1000;
    long x = Math.round(Math.abs(v) * scale);
    StringBuilder sb = new StringBuilder(16);
    if (v < 0 && x != 0) {
      sb.append('-');
    }
    sb.append(x / scale).append('.');
    String frac = Long.toString(x % scale);
    for (int i = frac.length(); i < decimals; i++) {
      sb.append('0');
    }
    return sb.append(frac).toString();
  }
}
