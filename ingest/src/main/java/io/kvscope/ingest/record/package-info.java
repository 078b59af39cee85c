/**
 * The values that flow out of ingest: the canonical {@link io.kvscope.ingest.record.RequestRecord},
 * engine-side {@link io.kvscope.ingest.record.EngineEvent}s, per-node
 * {@link io.kvscope.ingest.record.ConfigEpoch}s and {@link io.kvscope.ingest.record.NodeActivity}.
 * All are immutable records validated in their constructors; everything downstream (index,
 * analyzers, reports) speaks only these types.
 */
package io.kvscope.ingest.record;
