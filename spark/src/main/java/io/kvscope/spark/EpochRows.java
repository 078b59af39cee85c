package io.kvscope.spark;

import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionRecord;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The config epochs, node aliases, version records and log hours as rows: few (nodes, restarts and
 * hours, not requests), so the driver holds them and tasks get them whole, each building the index's
 * {@link Epochs} from them.
 */
record EpochRows(List<Row> epochs, List<Row> aliases, List<Row> versions, List<Row> hours) implements Serializable {

  static EpochRows read(SparkSession spark, String out) {
    return new EpochRows(EngineFactsStage.read(spark, out, IngestOutput.EPOCHS).collectAsList(),
        EngineFactsStage.read(spark, out, IngestOutput.NODE_ALIASES).collectAsList(),
        EngineFactsStage.read(spark, out, IngestOutput.VERSIONS).collectAsList(),
        EngineFactsStage.read(spark, out, IngestOutput.NODE_ACTIVITY).collectAsList());
  }

  /** The epochs under their nodes' report names and versions, node-local times placed by {@code clocks}. */
  Epochs build(NodeClocks clocks) {
    RecordRows<ConfigEpoch> epochRows = RecordRows.of(ConfigEpoch.class);
    RecordRows<NodeAlias> aliasRows = RecordRows.of(NodeAlias.class);
    RecordRows<VersionRecord> versionRows = RecordRows.of(VersionRecord.class);
    RecordRows<NodeActivity> hourRows = RecordRows.of(NodeActivity.class);
    return Epochs.of(epochs.stream().map(epochRows::fromRow).toList(), aliases.stream().map(aliasRows::fromRow).toList(),
        versions.stream().map(versionRows::fromRow).toList(), hours.stream().map(hourRows::fromRow).toList(), clocks);
  }
}
