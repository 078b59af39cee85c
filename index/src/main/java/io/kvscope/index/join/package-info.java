/**
 * The joins that make one request out of many lines: records of one request merged field by field
 * ({@link io.kvscope.index.join.RequestMerger}), and the engine's lines joined onto each request by
 * rid, then bootstrap room ({@link io.kvscope.index.join.Linker}, and at write time
 * {@link io.kvscope.index.join.EngineFactsAtWrite}), folded into its
 * {@link io.kvscope.model.join.EngineFacts}.
 */
package io.kvscope.index.join;
