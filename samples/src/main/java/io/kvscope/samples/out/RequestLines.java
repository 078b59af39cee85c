package io.kvscope.samples.out;

import io.kvscope.samples.fleet.EngineConfig;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.sim.Outcome;
import io.kvscope.samples.sim.RequestPlan;

/**
 * The per-request lines of SGLang's two roles, in the shapes docs/formats.md ("SGLang server log")
 * cites: the request logger at level 1 ({@code Receive:} and {@code Finish:} without text, no rank
 * tag), prefill and decode batch lines, {@code Req Time Stats(...)} (rank 0), the scheduler's
 * over-length rejection (rank 0) and the decode side's transfer failure (every rank).
 *
 * <p>Each server names the request by its own rid: the prefill node by {@link RequestPlan#prefillRid},
 * the decode node by {@link RequestPlan#rid} (the gateway's response id). Only the bootstrap room
 * appears on both. The tokenizer's context-length rejection is returned to the client as a 400 and
 * never logged, so a request rejected that way leaves only its {@code Receive:} lines. Which lines a
 * request gets depends on its {@link Outcome}.
 */
final class RequestLines {

  /** KV bytes per token of the simulated model, all layers, K and V, bf16 (48 x 8 x 128 x 2 x 2). */
  private static final long KV_BYTES_PER_TOKEN = 196_608L;
  /** perf_counter() seconds at the start of the period: the machines have been up for a day. */
  private static final double UPTIME_AT_PERIOD_START = 86_400.0;
  private static final String DECODE_ABORTED = "Aborted by AbortReq.";

  private RequestLines() {}

  /** Lines known when the request reaches the engines. */
  static void admitted(RequestPlan p, EngineLog prefill, EngineLog decode) {
    // The router sends the request to both servers; each tokenizer manager logs it under its own rid.
    prefill.tokenizer(p.routerAt() + 1, sb -> receive(sb, p, p.prefillRid()));
    decode.tokenizer(p.routerAt() + 2, sb -> receive(sb, p, p.rid()));
    switch (p.outcome()) {
      case REJECTED_CONTEXT -> { } // the tokenizer's 400 is not logged
      case REJECTED_LENGTH -> {
        prefill.scheduler(p.tokenizedAt() + 1, sb -> lengthRejection(sb, p));
        prefill.tokenizer(p.tokenizedAt() + 3, sb -> finish(sb, p, p.prefillRid(), 1, 0, 0,
            abort(p.errorMessage(), 400, "BadRequestError"), (p.tokenizedAt() + 3 - p.routerAt()) / 1000.0));
        // The router aborts the decode half, whose KV receiver then fails on every rank.
        long failedAt = p.gatewayEnd() - 4;
        decode.everyRank(failedAt, (sb, rank) -> sb.append(decodeTransferFailed(p, rank)));
        decode.tokenizer(p.gatewayEnd() - 3, sb -> finish(sb, p, p.rid(), p.promptTokens(), 0, 0,
            abort(decodeTransferFailed(p, 0), 500, null), (p.gatewayEnd() - 3 - p.routerAt()) / 1000.0));
      }
      case STUB -> {
        prefill.scheduler(p.tokenizedAt() + 1, sb -> lengthRejection(sb, p));
        prefill.scheduler(p.prefillEnd(), sb -> prefillBatch(sb, 1, 0, 1, p.prefillConfig(), p.prefillEnd() - p.prefillStart()));
        long statsAt = p.prefillEnd() + p.transferMs();
        // origin_input_ids was replaced by the one-token placeholder: input len=1, one page sent
        prefill.scheduler(statsAt, sb -> prefillStats(sb, p, 1));
        prefill.tokenizer(statsAt + 1, sb -> finish(sb, p, p.prefillRid(), 1, 0, 0,
            abort(p.errorMessage(), 400, "BadRequestError"), (statsAt + 1 - p.routerAt()) / 1000.0));
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
        prefill.scheduler(statsAt, sb -> prefillStats(sb, p, p.promptTokens()));
        prefill.tokenizer(statsAt + 1, sb -> finish(sb, p, p.prefillRid(), p.promptTokens(), 1, p.cachedTokens(),
            "{'type': 'length', 'length': 0}", (statsAt + 1 - p.routerAt()) / 1000.0));
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
        ? "{'type': 'length', 'length': " + p.maxTokens() + "}" : "{'type': 'stop', 'matched': 151645}";
    decode.tokenizer(p.decodeEnd() + 1, sb -> finish(sb, p, p.rid(), p.reportedPromptTokens(), k, p.cachedTokens(),
        reason, (p.decodeEnd() + 1 - p.routerAt()) / 1000.0));
  }

  /** {@code GenerateReqInput} as the request logger prints it at level 1: text and token ids left out. */
  private static void obj(StringBuilder sb, RequestPlan p, String rid) {
    sb.append("GenerateReqInput(video_data=None, sampling_params={'temperature': ").append(p.temperature())
        .append(", 'max_new_tokens': ").append(p.maxTokens())
        .append("}, rid='").append(rid)
        .append("', return_logprob=False, logprob_start_len=-1, top_logprobs_num=0, stream=")
        .append(p.stream() ? "True" : "False")
        .append(", log_metrics=True, modalities=[], session_params=None, custom_logit_processor=None")
        .append(", bootstrap_host='").append(p.prefillNode().ip())
        .append("', bootstrap_port=8998, bootstrap_room=").append(p.bootstrapRoom())
        .append(", data_parallel_rank=None)");
  }

  private static void receive(StringBuilder sb, RequestPlan p, String rid) {
    sb.append("Receive: obj=");
    obj(sb, p, rid);
  }

  private static void finish(StringBuilder sb, RequestPlan p, String rid, long promptTokens, long completionTokens,
      long cached, String finishReason, double e2eSeconds) {
    sb.append("Finish: obj=");
    obj(sb, p, rid);
    sb.append(", out={'meta_info': {'id': '").append(rid)
        .append("', 'finish_reason': ").append(finishReason)
        .append(", 'prompt_tokens': ").append(promptTokens)
        .append(", 'weight_version': 'default'")
        .append(", 'completion_tokens': ").append(completionTokens)
        .append(", 'cached_tokens': ").append(cached)
        .append(", 'e2e_latency': ").append(fmt3(e2eSeconds)).append("}}");
  }

  /** {@code FINISH_ABORT.to_json()}. */
  private static String abort(String message, int statusCode, String errType) {
    return "{'type': 'abort', 'message': " + pyString(message) + ", 'status_code': " + statusCode
        + ", 'err_type': " + (errType == null ? "None" : "'" + errType + "'") + "}";
  }

  /** Python's repr of a string: single quotes unless the text holds one. */
  private static String pyString(String text) {
    return text.indexOf('\'') >= 0 ? "\"" + text + "\"" : "'" + text + "'";
  }

  /** {@code Req.set_finish_with_abort}: the validation message and {@code self.rid=}, on rank 0. */
  private static void lengthRejection(StringBuilder sb, RequestPlan p) {
    sb.append("Input length (").append(p.promptTokens()).append(" tokens) exceeds the maximum allowed length (")
        .append(p.prefillConfig().maxInputLen())
        .append(" tokens). Use a shorter input or enable --allow-auto-truncate., self.rid='")
        .append(p.prefillRid()).append('\'');
  }

  /** {@code DecodeTransferQueue.pop_transferred}'s error message, one rank's copy. */
  private static String decodeTransferFailed(RequestPlan p, int rank) {
    return "Decode transfer failed for request rank=" + rank + " decode_req.req.rid='" + p.rid()
        + "' decode_req.req.bootstrap_room=" + p.bootstrapRoom() + " with exception KVTransferError(bootstrap_room="
        + p.bootstrapRoom() + "): " + DECODE_ABORTED;
  }

  private static void prefillBatch(StringBuilder sb, long newTokens, long cached, long inUse, EngineConfig c, long ms) {
    sb.append("Prefill batch, #new-seq: 1, #new-token: ").append(newTokens)
        .append(", #cached-token: ").append(cached)
        .append(", token usage: ").append(fmt2((double) inUse / c.poolTokens()))
        .append(", #running-req: 0, #queue-req: 0, #unbootstrapped-req: 0, #transferring-req: 0")
        .append(", input throughput (token/s): ").append(fmt2(newTokens * 1000.0 / Math.max(1, ms)));
  }

  /**
   * The prefill side's {@code Req Time Stats}: {@code input len} is what was prefilled (1 for the
   * placeholder), {@code transfer_total} the pages sent ({@code ceil(tokens / page_size)} pages).
   */
  private static void prefillStats(StringBuilder sb, RequestPlan p, long inputLen) {
    int pageSize = p.prefillConfig().pageSize();
    long pages = (inputLen + pageSize - 1) / pageSize;
    double totalMb = pages * pageSize * (double) KV_BYTES_PER_TOKEN / (1024.0 * 1024.0);
    double bootstrapQueue = 2.0 + (p.bootstrapRoom() % 300) / 100.0;
    double allocWait = (p.bootstrapRoom() % 70) / 100.0;
    long forward = p.prefillEnd() - p.prefillStart() + p.transferMs();
    double speed = totalMb / 1024.0 / (Math.max(1, p.transferMs()) / 1000.0);
    sb.append("Req Time Stats(rid=").append(p.prefillRid())
        .append(", bootstrap_room=").append(p.bootstrapRoom())
        .append(", input len=").append(inputLen)
        .append(", output len=1, type=prefill): bootstrap_queue_duration(").append(fmt2(bootstrapQueue))
        .append("ms) = bootstrap(").append(fmt2(bootstrapQueue - allocWait))
        .append("ms) + alloc_wait(").append(fmt2(allocWait))
        .append("ms); queue_duration=").append(fmt2(p.prefillQueueMs()))
        .append("ms, forward_duration=").append(fmt2(forward))
        .append("ms, start=").append(fmt3(uptime(p.tokenizedAt())))
        .append(", transfer_speed=").append(fmt2(speed))
        .append("GB/s, transfer_total=").append(fmt2(totalMb))
        .append("MB, #retries=0");
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

  /** The decode side's {@code Req Time Stats}: {@code input len} is the whole prompt it reserved. */
  private static void decodeStats(StringBuilder sb, RequestPlan p) {
    long transferDone = p.firstTokenAt() - Math.round(p.stepMs());
    double prealloc = p.decodeAllocAt() - p.decodeRequestedAt();
    double bootstrap = Math.min(prealloc, 3.0 + (p.bootstrapRoom() % 500) / 100.0);
    sb.append("Req Time Stats(rid=").append(p.rid())
        .append(", bootstrap_room=").append(p.bootstrapRoom())
        .append(", input len=").append(p.promptTokens())
        .append(", output len=").append(p.outputTokens())
        .append(", type=decode): prealloc_queue_duration(").append(fmt2(prealloc))
        .append("ms) = bootstrap(").append(fmt2(bootstrap))
        .append("ms) + alloc_wait(").append(fmt2(prealloc - bootstrap))
        .append("ms); transfer_duration=").append(fmt2(transferDone - p.decodeAllocAt()))
        .append("ms; queue_duration=0.40ms, forward_duration=").append(fmt2(p.decodeEnd() - transferDone))
        .append("ms, start=").append(fmt3(uptime(p.decodeRequestedAt())));
  }

  /** A {@code time.perf_counter()} reading at true time {@code t}. */
  private static double uptime(long t) {
    return UPTIME_AT_PERIOD_START + (t - Fleet.PERIOD_START) / 1000.0;
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
