/**
 * The values that flow out of ingest: the canonical {@link io.kvscope.ingest.record.RequestRecord},
 * engine-side {@link io.kvscope.ingest.record.EngineEvent}s, per-node
 * {@link io.kvscope.ingest.record.ConfigEpoch}s and {@link io.kvscope.ingest.record.NodeActivity},
 * and from deployment records {@link io.kvscope.ingest.record.NodeAlias}es (other names of a node)
 * and {@link io.kvscope.ingest.record.VersionRecord}s (which engine release a node ran, when).
 * All are immutable records validated in their constructors; everything downstream (index,
 * analyzers, reports) speaks only these types.
 */
package io.kvscope.ingest.record;
