package io.kvscope.ingest.record;

/**
 * Everything an {@link io.kvscope.ingest.Ingestor} can emit: a gateway-side request, an engine-side
 * fact about one request, a node's configuration epoch, or a node's hourly log activity.
 */
public sealed interface Ingested permits RequestRecord, EngineEvent, ConfigEpoch, NodeActivity {

  /** The file this came from, as given to the ingestor. */
  String sourceFile();

  /** 1-based line (or record ordinal for non-line formats) in {@link #sourceFile()}. */
  long sourceLine();
}
