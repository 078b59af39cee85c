package io.kvscope.ingest.record;

/**
 * Everything an {@link io.kvscope.ingest.Ingestor} can emit: a gateway-side request, an engine-side
 * fact about one request, a node's configuration epoch, a node's hourly log activity, another name
 * of a node, or a deployment record's word on a node's engine version.
 */
public sealed interface Ingested
    permits RequestRecord, EngineEvent, ConfigEpoch, NodeActivity, NodeAlias, VersionRecord {

  /** The file this came from, as given to the ingestor. */
  String sourceFile();

  /** 1-based line (or record ordinal for non-line formats) in {@link #sourceFile()}. */
  long sourceLine();
}
