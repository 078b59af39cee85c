package io.kvscope.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.zip.GZIPOutputStream;

/** Writes small gateway logs, traces and SGLang node logs in their real formats, for CLI tests. */
final class FleetFiles {

  static final DateTimeFormatter SGLANG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  static final long BASE = Instant.parse("2026-08-28T10:00:00Z").toEpochMilli();

  private FleetFiles() {}

  static String litellm(int i, String tenant, long promptTokens, String prompt) {
    double start = (BASE + i * 1000L) / 1000.0;
    return "{\"id\":\"gw-" + i + "\",\"trace_id\":\"t-" + i + "\",\"call_type\":\"acompletion\",\"status\":\"success\","
        + "\"model\":\"qwen3\",\"model_group\":\"qwen3-long\",\"startTime\":" + start + ",\"endTime\":" + (start + 2)
        + ",\"completionStartTime\":" + (start + 0.3) + ",\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":12,"
        + "\"metadata\":{\"user_api_key_org_id\":\"" + tenant + "\"},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],"
        + "\"response\":{\"id\":\"chatcmpl-rid-" + i + "\",\"choices\":[{\"finish_reason\":\"stop\","
        + "\"message\":{\"content\":\"answer " + i + "\"}}]}}";
  }

  static String otlp(int i, String tenant, long inputTokens) {
    long startNanos = (BASE + i * 1000L) * 1_000_000L;
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"gw\"}}]},"
        + "\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + String.format("%032x", i) + "\",\"spanId\":\"" + String.format("%016x", i)
        + "\",\"name\":\"chat qwen3\",\"startTimeUnixNano\":\"" + startNanos + "\",\"endTimeUnixNano\":\"" + (startNanos + 2_000_000_000L)
        + "\",\"attributes\":["
        + "{\"key\":\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"chat\"}},"
        + "{\"key\":\"gen_ai.request.model\",\"value\":{\"stringValue\":\"qwen3\"}},"
        + "{\"key\":\"gen_ai.response.id\",\"value\":{\"stringValue\":\"chatcmpl-rid-" + i + "\"}},"
        + "{\"key\":\"gen_ai.usage.input_tokens\",\"value\":{\"intValue\":\"" + inputTokens + "\"}},"
        + "{\"key\":\"gen_ai.usage.output_tokens\",\"value\":{\"intValue\":\"7\"}},"
        + "{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":\"200\"}},"
        + "{\"key\":\"tenant.id\",\"value\":{\"stringValue\":\"" + tenant + "\"}}]}]}]}]}";
  }

  static String sglangStartup(long at, String mode, long pool, long context) {
    String t = "[" + SGLANG_TIME.format(Instant.ofEpochMilli(at)) + " TP0] ";
    return t + "server_args=ServerArgs(model_path='Qwen/Qwen3', served_model_name='qwen3', context_length=" + context
        + ", page_size=64, disaggregation_mode='" + mode + "', disaggregation_transfer_backend='mooncake', kv_canary=None, "
        + "disaggregation_enable_kv_checksum=False)\n"
        + t + "max_total_num_tokens=" + pool + ", chunked_prefill_size=8192, max_prefill_tokens=16384, "
        + "max_running_requests=64, context_len=" + context + ", available_gpu_mem=12.5 GB\n";
  }

  static String sglangTimeStats(long at, int i, String type, long inputLen) {
    return "[" + SGLANG_TIME.format(Instant.ofEpochMilli(at)) + " DP0 TP0] ReqTimeStats(rid=rid-" + i + ", bootstrap_room=" + (9000 + i)
        + ", input_len=" + inputLen + ", cached_input_len=0, output_len=12, type=" + type + "): queue_duration=1.00ms, "
        + "forward_duration=20.00ms\n";
  }

  static Path write(Path file, String content, boolean gzip) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream raw = Files.newOutputStream(file);
        OutputStream out = gzip ? new GZIPOutputStream(raw) : raw;
        Writer writer = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8)) {
      writer.write(content);
    }
    return file;
  }
}
