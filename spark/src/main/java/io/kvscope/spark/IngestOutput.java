package io.kvscope.spark;

import io.kvscope.index.Checkpoint;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.ingest.record.VersionRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * What the ingest stage writes: one Parquet folder per kind of thing kvscope's ingestors emit, plus
 * the quarantine and a checkpoint per file read. Each names its folder (also the column of the stage's one-pass row) and its type.
 */
enum IngestOutput {
  RECORDS("records", RequestRecord.class),
  ENGINE_EVENTS("engine_events", EngineEvent.class),
  EPOCHS("epochs", ConfigEpoch.class),
  NODE_ACTIVITY("node_activity", NodeActivity.class),
  NODE_ALIASES("node_aliases", NodeAlias.class),
  VERSIONS("versions", VersionRecord.class),
  QUARANTINE("quarantine", Quarantined.class),
  /** A file read, as the single-machine ingest checkpoints it: the index's evidence of what it rests on. */
  CHECKPOINTS("checkpoints", Checkpoint.class);

  private final String folder;
  private final Class<? extends Record> type;
  private final RecordRows<? extends Record> rows;

  IngestOutput(String folder, Class<? extends Record> type) {
    this.folder = folder;
    this.type = type;
    this.rows = type == RequestRecord.class ? null : new RecordRows<>(type);
  }

  /** The Parquet folder under the output folder, and the column of the stage's one-pass row. */
  String folder() {
    return folder;
  }

  StructType schema() {
    return rows == null ? RequestRows.SCHEMA : rows.schema();
  }

  /** The output {@code item} (an ingested item or a {@link Quarantined}) goes to. */
  static IngestOutput of(Object item) {
    for (IngestOutput output : values()) {
      if (output.type.isInstance(item)) {
        return output;
      }
    }
    throw new IllegalArgumentException("no output for " + item.getClass().getSimpleName());
  }

  Row toRow(Object item) {
    return rows == null ? RequestRows.toRow((RequestRecord) item) : toRecordRow(rows, item);
  }

  Object fromRow(Row row) {
    return rows == null ? RequestRows.fromRow(row) : rows.fromRow(row);
  }

  private static <T extends Record> Row toRecordRow(RecordRows<T> rows, Object item) {
    return rows.toRow(rows.type().cast(item));
  }
}
