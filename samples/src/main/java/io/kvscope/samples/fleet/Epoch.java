package io.kvscope.samples.fleet;

/**
 * One process lifetime of a node: from the restart at {@link #start()} (the true time its
 * {@code server_args} line is written) until the next epoch.
 *
 * @param readyAt when it starts serving (after loading weights and allocating the pool)
 * @param cause why it restarted: {@code initial}, {@code config-change}, {@code upgrade},
 *     {@code crash}, {@code memory-change}
 */
public record Epoch(long start, long readyAt, EngineConfig config, String cause) {}
