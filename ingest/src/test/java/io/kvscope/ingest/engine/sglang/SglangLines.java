package io.kvscope.ingest.engine.sglang;

/**
 * SGLang log lines in the engine's own formats, for tests. The time stats here are the later
 * {@code ReqTimeStats(...)} shape (rid printed bare); {@link UpstreamPdLogs} has the older
 * {@code Req Time Stats(...)} one.
 */
final class SglangLines {

  private SglangLines() {}

  static String serverArgs(String ts, String mode, Long contextLength, String extra) {
    return "[" + ts + "] server_args=ServerArgs(model_path='/models/Kimi-K2-Instruct', "
        + "tokenizer_path='/models/Kimi-K2-Instruct', tokenizer_mode='auto', skip_tokenizer_init=False, "
        + "load_format='auto', trust_remote_code=True, context_length=" + (contextLength == null ? "None" : contextLength)
        + ", is_embedding=False, revision=None, host='0.0.0.0', port=30000, "
        + "served_model_name='kimi-k2', chat_template=None, mem_fraction_static=0.85, "
        + "max_running_requests=256, chunked_prefill_size=8192, page_size=64, tp_size=8, dp_size=1, "
        + "json_model_override_args='{\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 32.0}}', "
        + "lora_paths=None, disaggregation_mode='" + mode + "', disaggregation_transfer_backend='mooncake', "
        + "disaggregation_bootstrap_port=8998, disaggregation_ib_device=None, " + extra
        + "enable_metrics=True, log_requests=True, log_requests_level=1)";
  }

  static String maxTotal(String ts, long pool, long context) {
    return "[" + ts + " TP0] max_total_num_tokens=" + pool + ", chunked_prefill_size=8192, "
        + "max_prefill_tokens=16384, max_running_requests=256, context_len=" + context
        + ", available_gpu_mem=5.12 GB";
  }

  static String kvAllocated(String ts, String rank, long tokens) {
    return "[" + ts + " " + rank + "] KV Cache is allocated. dtype: torch.bfloat16, #tokens: " + tokens
        + ", K size: 20.10 GB, V size: 20.10 GB";
  }

  static String receive(String ts, String rid, long room) {
    return "[" + ts + "] Receive: obj=GenerateReqInput(rid='" + rid + "', http_worker_ipc=None, "
        + "video_data=None, return_logprob=False, logprob_start_len=-1, top_logprobs_num=0, "
        + "token_ids_logprob=None, return_text_in_logprobs=False, stream=True, log_metrics=True, "
        + "return_hidden_states=False, modalities=[], session_params=None, lora_id=None, "
        + "custom_logit_processor=None, bootstrap_host='10.0.0.5', bootstrap_port=8998, "
        + "bootstrap_room=" + room + ", bootstrap_pair_key=None, data_parallel_rank=None, "
        + "background=False, conversation_id=None, priority=None, extra_key=None, no_logs=False, "
        + "custom_labels=None, return_bytes=False, return_entropy=False)";
  }

  static String finish(String ts, String rid, long room, String type, long prompt, long completion,
      long cached, double e2e) {
    return "[" + ts + "] Finish: obj=GenerateReqInput(rid='" + rid + "', bootstrap_host='10.0.0.5', "
        + "bootstrap_port=8998, bootstrap_room=" + room + ", stream=True), out={'meta_info': {'id': '"
        + rid + "', 'finish_reason': {'type': '" + type + "', 'matched': 151645}, 'prompt_tokens': "
        + prompt + ", 'weight_version': 'default', 'total_retractions': 0, 'completion_tokens': "
        + completion + ", 'cached_tokens': " + cached + ", 'e2e_latency': " + e2e
        + ", 'response_sent_to_client_ts': 1787825104.1}}";
  }

  static String prefillStats(String ts, String rid, long room, long input, long cached, String total) {
    return "[" + ts + " DP0 TP0] ReqTimeStats(rid=" + rid + ", bootstrap_room=" + room + ", input_len="
        + input + ", cached_input_len=" + cached + ", output_len=1, attempts=0, type=prefill): "
        + "bootstrap_duration=0.32ms, alloc_wait_duration=1.10ms, queue_duration=0.41ms, "
        + "forward_duration=540.19ms, entry_time=1787825100.123, transfer_speed=1.25 GB/s, "
        + "transfer_total=" + total + " MB, #retries=0";
  }

  static String decodeStats(String ts, String rid, long room, long input, long output, String transferMs) {
    return "[" + ts + " DP0 TP0] ReqTimeStats(rid=" + rid + ", bootstrap_room=" + room + ", input_len="
        + input + ", cached_input_len=0, output_len=" + output + ", attempts=0, type=decode): "
        + "bootstrap_duration=1.00ms, alloc_wait_duration=2.00ms, transfer_duration=" + transferMs
        + "ms, queue_duration=4.00ms, forward_duration=5.00ms, entry_time=1787825100.5";
  }

  static String prefillBatch(String ts) {
    return "[" + ts + " DP0 TP0] Prefill batch, #new-seq: 1, #new-token: 2048, #cached-token: 0, "
        + "token usage: 0.01, #running-req: 0, #queue-req: 0, #prealloc-req: 0, #inflight-req: 0, "
        + "input throughput (token/s): 0.00";
  }

  static String decodeBatch(String ts) {
    return "[" + ts + " DP0 TP0] Decode batch, #running-req: 1, #token: 2112, token usage: 0.00, "
        + "pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 1, #retracted-req: 0, "
        + "cuda graph: True, gen throughput (token/s): 45.10, #queue-req: 0";
  }
}
