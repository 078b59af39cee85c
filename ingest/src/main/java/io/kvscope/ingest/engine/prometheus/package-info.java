/**
 * Prometheus text exposition snapshots of SGLang's {@code /metrics} ({@code # HELP}/{@code # TYPE}
 * comments, then {@code name{label="v",...} value [timestamp_ms]} samples). The gauges
 * {@code sglang:max_total_num_tokens}, {@code sglang:context_len} and {@code sglang:page_size} are
 * configuration evidence: each node's snapshot becomes a {@link io.kvscope.ingest.record.ConfigEpoch}
 * with source {@code prometheus}, which a config audit can hold against the logs.
 */
package io.kvscope.ingest.engine.prometheus;
