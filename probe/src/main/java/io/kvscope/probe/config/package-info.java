/**
 * The live config check. {@link io.kvscope.probe.config.NodeCheck} reads a node's endpoints; one
 * small reader per response shape ({@code ServerInfoResponse}, {@code ModelsResponse},
 * {@code MetricsResponse}, {@code VersionResponse}, {@code ModelInfoResponse}) turns a body into
 * {@link io.kvscope.probe.config.Readings}: each fact with the raw value and where it was read, so a
 * verdict always shows its evidence. The facts become a {@link io.kvscope.ingest.record.ConfigEpoch}
 * and the analysis' {@link io.kvscope.analysis.analyzers.ConfigAudit} judges it, exactly as it
 * judges an epoch read from logs. Endpoint paths and shapes are cited in docs/formats.md.
 *
 * <p>Traps: SGLang's {@code context_length} argument is null when the model's own limit applies
 * (read {@code /v1/models} or {@code sglang:context_len}); metrics exist only with
 * {@code --enable-metrics}; a router may answer none of the config paths; newer SGLang renamed
 * {@code /get_server_info} to {@code /server_info} and older builds 404 on the new name.
 */
package io.kvscope.probe.config;
