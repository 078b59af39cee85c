package io.kvscope.ingest.engine.sglang;

import java.util.ArrayList;
import java.util.List;

/**
 * A prefill/decode pair's SGLang logs, written line by line from the format strings of the SGLang
 * source (docs/formats.md, "SGLang server log", cites each one), not by kvscope's generator.
 *
 * <p>Each server makes its own rid; the two sides share only the bootstrap room the router put in
 * both requests. Three requests go through the pair:
 * <ul>
 *   <li>a healthy one: prefill rid {@link #P_OK}, decode rid {@link #D_OK}, room {@link #ROOM_OK};
 *   <li>the over-length one: prefill rejected it ({@code self.rid=} its own rid), ran the one-token
 *       placeholder ({@code input len=1}) and sent one page; decode reserved and decoded the whole
 *       prompt: prefill rid {@link #P_LONG}, decode rid {@link #D_LONG}, room {@link #ROOM_LONG};
 *   <li>one whose KV transfer failed on both sides, each line once per TP rank: prefill rid
 *       {@link #P_FAIL}, decode rid {@link #D_FAIL}, room {@link #ROOM_FAIL} (from a production log
 *       posted in a public issue).
 * </ul>
 * The prefill node runs TP4, the decode node TP8; scheduler lines carry {@code TPn}, tokenizer-side
 * lines (request logger, server_args) carry no rank; no line has milliseconds. The decode node's
 * clock runs 3 s behind the prefill node's.
 */
final class UpstreamPdLogs {

  static final String P_OK = "ca271fb6eab2421f98ac61976e6f0f34";
  static final String D_OK = "63b1b22dad53465b92560ebdda56d075";
  static final long ROOM_OK = 6593551520068383758L;
  static final String P_LONG = "9d0c5a7e2f8b41e3a6c4d2b0e1f3a5c7";
  static final String D_LONG = "4e6a8c0b2d4f46a8b0c2e4a6c8e0b2d4";
  static final long ROOM_LONG = 2305843009213693951L;
  static final String P_FAIL = "5b02aee35dae49aba98a333ce89964e6";
  static final String D_FAIL = "a1af5d2d90324da292ed07c52b30467b";
  static final long ROOM_FAIL = 1788380104266545413L;

  static final long POOL = 681_280;
  static final long CONTEXT = 1_048_576;
  static final long MAX_INPUT = 681_274; // max_req_input_len = min(context_len - 1, pool - 1) - 5
  static final long LONG_PROMPT = 707_640;

  private UpstreamPdLogs() {}

  static List<String> prefill() {
    List<String> log = new ArrayList<>();
    log.add("[2026-08-27 09:50:00] " + serverArgs("prefill", 4));
    for (int rank = 0; rank < 4; rank++) { // every rank's memory pool logs its allocation
      log.add("[2026-08-27 09:50:40 TP" + rank + "] KV Cache is allocated. #tokens: " + POOL
          + ", K size: 7.53 GB, V size: 7.53 GB");
    }
    log.add("[2026-08-27 09:50:42 TP0] max_total_num_tokens=" + POOL + ", chunked_prefill_size=8192, "
        + "max_prefill_tokens=16384, max_running_requests=512, context_len=" + CONTEXT + ", available_gpu_mem=12.34 GB");
    // healthy request
    log.add("[2026-08-27 10:00:00] Receive: obj=" + generateReqInput(P_OK, ROOM_OK));
    log.add("[2026-08-27 10:00:01 TP0] Prefill batch, #new-seq: 1, #new-token: 2048, #cached-token: 0, "
        + "token usage: 0.00, #running-req: 0, #queue-req: 0, #pending-token: 0, cuda graph: False, "
        + "input throughput (token/s): 3791.37");
    log.add("[2026-08-27 10:00:01 TP0] Req Time Stats(rid=" + P_OK + ", bootstrap_room=" + ROOM_OK
        + ", input len=2048, output len=1, type=prefill): bootstrap_queue_duration(3.20ms) = bootstrap(2.10ms) "
        + "+ alloc_wait(1.10ms); queue_duration=0.41ms, forward_duration=540.19ms, start=81234.567, "
        + "transfer_speed=1.25GB/s, transfer_total=96.00MB, #retries=0");
    log.add("[2026-08-27 10:00:01] Finish: obj=" + generateReqInput(P_OK, ROOM_OK) + ", out={'meta_info': {'id': '"
        + P_OK + "', 'finish_reason': {'type': 'length', 'length': 0}, 'prompt_tokens': 2048, "
        + "'weight_version': 'default', 'completion_tokens': 1, 'cached_tokens': 0, 'e2e_latency': 0.61}}");
    // over-length request: only the scheduler's rank 0 logs the rejection
    log.add("[2026-08-27 10:01:00] Receive: obj=" + generateReqInput(P_LONG, ROOM_LONG));
    log.add("[2026-08-27 10:01:04 TP0] Input length (" + LONG_PROMPT + " tokens) exceeds the maximum allowed length ("
        + MAX_INPUT + " tokens). Use a shorter input or enable --allow-auto-truncate., self.rid='" + P_LONG + "'");
    log.add("[2026-08-27 10:01:04 TP0] Prefill batch, #new-seq: 1, #new-token: 1, #cached-token: 0, "
        + "token usage: 0.00, #running-req: 0, #queue-req: 0, #pending-token: 0, cuda graph: False, "
        + "input throughput (token/s): 12.40");
    log.add("[2026-08-27 10:01:04 TP0] Req Time Stats(rid=" + P_LONG + ", bootstrap_room=" + ROOM_LONG
        + ", input len=1, output len=1, type=prefill): bootstrap_queue_duration(2.70ms) = bootstrap(2.00ms) "
        + "+ alloc_wait(0.70ms); queue_duration=0.20ms, forward_duration=31.44ms, start=81298.002, "
        + "transfer_speed=0.40GB/s, transfer_total=12.00MB, #retries=0");
    log.add("[2026-08-27 10:01:04] Finish: obj=" + generateReqInput(P_LONG, ROOM_LONG) + ", out={'meta_info': {'id': '"
        + P_LONG + "', 'finish_reason': {'type': 'abort', 'message': 'Input length (" + LONG_PROMPT + " tokens) exceeds "
        + "the maximum allowed length (" + MAX_INPUT + " tokens). Use a shorter input or enable --allow-auto-truncate.', "
        + "'status_code': 400, 'err_type': 'BadRequestError'}, 'prompt_tokens': 1, 'weight_version': 'default', "
        + "'completion_tokens': 1, 'cached_tokens': 0, 'e2e_latency': 4.02}}");
    // transfer failure: every rank polls the sender and logs it
    log.add("[2026-08-27 10:02:00] Receive: obj=" + generateReqInput(P_FAIL, ROOM_FAIL));
    for (int rank = 0; rank < 4; rank++) {
      log.add("[2026-08-27 10:02:09 TP" + rank + "] Prefill transfer failed for request rank=" + rank + " req.rid='"
          + P_FAIL + "' req.bootstrap_room=" + ROOM_FAIL + " with exception KVTransferError(bootstrap_room="
          + ROOM_FAIL + "): Decode instance could be dead, remote mooncake session 10.20.1.20:20635_4738 is not alive");
    }
    return log;
  }

  static List<String> decode() {
    List<String> log = new ArrayList<>();
    log.add("[2026-08-27 09:49:57] " + serverArgs("decode", 8));
    for (int rank = 0; rank < 8; rank++) {
      log.add("[2026-08-27 09:50:37 TP" + rank + "] KV Cache is allocated. #tokens: 2400000, K size: 13.27 GB, "
          + "V size: 13.27 GB");
    }
    log.add("[2026-08-27 09:50:39 TP0] max_total_num_tokens=2400000, chunked_prefill_size=8192, "
        + "max_prefill_tokens=16384, max_running_requests=512, context_len=" + CONTEXT + ", available_gpu_mem=9.87 GB");
    // healthy request
    log.add("[2026-08-27 09:59:57] Receive: obj=" + generateReqInput(D_OK, ROOM_OK));
    log.add("[2026-08-27 09:59:59 TP0] Decode batch, #running-req: 1, #token: 2112, token usage: 0.00, "
        + "pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 0, #retracted-req: 0, cuda graph: True, "
        + "gen throughput (token/s): 45.10, #queue-req: 0");
    log.add("[2026-08-27 10:00:00 TP0] Req Time Stats(rid=" + D_OK + ", bootstrap_room=" + ROOM_OK
        + ", input len=2048, output len=64, type=decode): prealloc_queue_duration(4.10ms) = bootstrap(3.00ms) "
        + "+ alloc_wait(1.10ms); transfer_duration=12.00ms; queue_duration=0.40ms, forward_duration=2100.00ms, "
        + "start=80122.340");
    log.add("[2026-08-27 10:00:00] Finish: obj=" + generateReqInput(D_OK, ROOM_OK) + ", out={'meta_info': {'id': '"
        + D_OK + "', 'finish_reason': {'type': 'stop', 'matched': 151645}, 'prompt_tokens': 2048, "
        + "'weight_version': 'default', 'completion_tokens': 64, 'cached_tokens': 0, 'e2e_latency': 2.71}}");
    // over-length request: decode reserved the whole prompt and decoded it
    log.add("[2026-08-27 10:00:57] Receive: obj=" + generateReqInput(D_LONG, ROOM_LONG));
    log.add("[2026-08-27 10:01:05 TP0] Req Time Stats(rid=" + D_LONG + ", bootstrap_room=" + ROOM_LONG
        + ", input len=" + LONG_PROMPT + ", output len=200, type=decode): prealloc_queue_duration(6.30ms) = "
        + "bootstrap(4.00ms) + alloc_wait(2.30ms); transfer_duration=8.00ms; queue_duration=0.30ms, "
        + "forward_duration=4400.00ms, start=80185.120");
    log.add("[2026-08-27 10:01:05] Finish: obj=" + generateReqInput(D_LONG, ROOM_LONG) + ", out={'meta_info': {'id': '"
        + D_LONG + "', 'finish_reason': {'type': 'stop', 'matched': 151645}, 'prompt_tokens': " + LONG_PROMPT + ", "
        + "'weight_version': 'default', 'completion_tokens': 200, 'cached_tokens': 0, 'e2e_latency': 8.17}}");
    // transfer failure, logged by every one of the eight ranks
    log.add("[2026-08-27 10:01:57] Receive: obj=" + generateReqInput(D_FAIL, ROOM_FAIL));
    for (int rank : new int[] {3, 5, 2, 0, 7, 1, 6, 4}) {
      log.add("[2026-08-27 10:02:07 TP" + rank + "] Decode transfer failed for request rank=" + rank
          + " decode_req.req.rid='" + D_FAIL + "' decode_req.req.bootstrap_room=" + ROOM_FAIL
          + " with exception KVTransferError(bootstrap_room=" + ROOM_FAIL + "): Failed to get kvcache from prefill "
          + "instance, it might be dead");
    }
    return log;
  }

  /**
   * The decode node with {@code --log-requests-format json --log-requests-target stdout}: the request
   * logger writes bare JSON objects ({@code %(message)s}) into the same stream as the prefixed lines.
   */
  static List<String> decodeWithJsonRequestLogger() {
    List<String> log = new ArrayList<>();
    log.add("[2026-08-27 09:49:57] " + serverArgs("decode", 8).replace("log_requests_format='text'",
        "log_requests_format='json'"));
    log.add("[2026-08-27 09:50:39 TP0] max_total_num_tokens=2400000, chunked_prefill_size=8192, "
        + "max_prefill_tokens=16384, max_running_requests=512, context_len=" + CONTEXT + ", available_gpu_mem=9.87 GB");
    log.add("{\"timestamp\": \"2026-08-27T09:59:57.482113\", \"event\": \"request.received\", \"rid\": \"" + D_OK
        + "\", \"obj\": " + jsonObj(D_OK, ROOM_OK) + "}");
    log.add("[2026-08-27 10:00:00 TP0] Req Time Stats(rid=" + D_OK + ", bootstrap_room=" + ROOM_OK
        + ", input len=2048, output len=64, type=decode): prealloc_queue_duration(4.10ms) = bootstrap(3.00ms) "
        + "+ alloc_wait(1.10ms); transfer_duration=12.00ms; queue_duration=0.40ms, forward_duration=2100.00ms, "
        + "start=80122.340");
    log.add("{\"timestamp\": \"2026-08-27T10:00:00.190455\", \"event\": \"request.finished\", \"rid\": \"" + D_OK
        + "\", \"obj\": " + jsonObj(D_OK, ROOM_OK) + ", \"out\": {\"meta_info\": {\"id\": \"" + D_OK
        + "\", \"finish_reason\": {\"type\": \"stop\", \"matched\": 151645}, \"prompt_tokens\": 2048, "
        + "\"weight_version\": \"default\", \"completion_tokens\": 64, \"cached_tokens\": 0, \"e2e_latency\": 2.71}}}");
    return log;
  }

  /** {@code GenerateReqInput} as the text request logger prints it at level 1 (text and ids left out). */
  static String generateReqInput(String rid, long room) {
    return "GenerateReqInput(video_data=None, sampling_params={'temperature': 0.7, 'max_new_tokens': 1024}, "
        + "rid='" + rid + "', return_logprob=False, logprob_start_len=-1, top_logprobs_num=0, token_ids_logprob=None, "
        + "return_text_in_logprobs=False, stream=True, log_metrics=True, return_hidden_states=False, modalities=[], "
        + "session_params=None, custom_logit_processor=None, bootstrap_host='10.20.1.10', bootstrap_port=8998, "
        + "bootstrap_room=" + room + ", bootstrap_pair_key=None, data_parallel_rank=None, background=False, "
        + "conversation_id=None, priority=None, extra_key=None, no_logs=False, custom_labels=None, "
        + "return_bytes=False, return_entropy=False)";
  }

  private static String jsonObj(String rid, long room) {
    return "{\"video_data\": null, \"sampling_params\": {\"temperature\": 0.7, \"max_new_tokens\": 1024}, \"rid\": \""
        + rid + "\", \"return_logprob\": false, \"stream\": true, \"log_metrics\": true, \"modalities\": [], "
        + "\"bootstrap_host\": \"10.20.1.10\", \"bootstrap_port\": 8998, \"bootstrap_room\": " + room
        + ", \"data_parallel_rank\": null}";
  }

  static String serverArgs(String mode, int tp) {
    return "server_args=ServerArgs(model_path='/models/Qwen2.5-14B-Instruct-1M', "
        + "tokenizer_path='/models/Qwen2.5-14B-Instruct-1M', tokenizer_mode='auto', skip_tokenizer_init=False, "
        + "load_format='auto', trust_remote_code=False, context_length=" + CONTEXT + ", is_embedding=False, "
        + "revision=None, dtype='auto', kv_cache_dtype='auto', quantization=None, served_model_name='qwen2.5-14b-1m', "
        + "chat_template=None, host='0.0.0.0', port=30000, mem_fraction_static=0.85, max_running_requests=512, "
        + "max_total_tokens=None, chunked_prefill_size=8192, max_prefill_tokens=16384, schedule_policy='fcfs', "
        + "page_size=64, tp_size=" + tp + ", pp_size=1, dp_size=1, random_seed=407941261, log_level='info', "
        + "log_requests=True, log_requests_level=1, log_requests_format='text', log_requests_target=None, "
        + "enable_metrics=True, decode_log_interval=40, enable_request_time_stats_logging=True, "
        + "allow_auto_truncate=False, disaggregation_mode='" + mode + "', disaggregation_transfer_backend='mooncake', "
        + "disaggregation_bootstrap_port=8998, disaggregation_ib_device=None)";
  }
}
