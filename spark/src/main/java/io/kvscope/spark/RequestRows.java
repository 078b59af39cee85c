package io.kvscope.spark;

import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.Provenance;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@link RequestRecord}s as Spark rows. The columns are kvscope's canonical ones ({@link
 * CanonicalField}, the list the canonical Arrow file and the index use, with the same types:
 * strings, int64 counts, int32 status, UTC timestamps), then what a record says beyond them and the
 * merge needs: who wrote it, its other ids, what an error quoted, and a merged record's provenance.
 */
final class RequestRows {

  private static final RecordRows<Provenance> PROVENANCE = RecordRows.of(Provenance.class);

  /** The columns after the canonical ones. */
  private enum Extra {
    ORIGIN, ALIASES, QUOTED_PROMPT_TOKENS, QUOTED_LIMIT_TOKENS, PROVENANCE;

    String column() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  static final StructType SCHEMA = schema();

  private RequestRows() {}

  private static StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (CanonicalField field : CanonicalField.values()) {
      fields.add(DataTypes.createStructField(field.column(), sparkType(field.type()), field != CanonicalField.SOURCE_LINE));
    }
    for (Extra extra : Extra.values()) {
      DataType type = switch (extra) {
        case ORIGIN -> DataTypes.StringType;
        case ALIASES -> DataTypes.createArrayType(DataTypes.StringType, false);
        case QUOTED_PROMPT_TOKENS, QUOTED_LIMIT_TOKENS -> DataTypes.LongType;
        case PROVENANCE -> PROVENANCE.schema();
      };
      fields.add(DataTypes.createStructField(extra.column(), type, extra != Extra.ALIASES));
    }
    return DataTypes.createStructType(fields);
  }

  private static DataType sparkType(CanonicalField.Type type) {
    return switch (type) {
      case STRING, TEXT -> DataTypes.StringType;
      case LONG -> DataTypes.LongType;
      case INT -> DataTypes.IntegerType;
      case TIME -> DataTypes.TimestampType;
    };
  }

  static Row toRow(RequestRecord record) {
    CanonicalField[] canonical = CanonicalField.values();
    Object[] values = new Object[canonical.length + Extra.values().length];
    for (int i = 0; i < canonical.length; i++) {
      Object value = canonical[i].get(record);
      values[i] = canonical[i].type() == CanonicalField.Type.TIME && value != null ? new Timestamp((Long) value) : value;
    }
    int at = canonical.length;
    values[at + Extra.ORIGIN.ordinal()] = record.origin() == null ? null : record.origin().name();
    values[at + Extra.ALIASES.ordinal()] = scala.jdk.javaapi.CollectionConverters.asScala(record.aliases()).toSeq();
    values[at + Extra.QUOTED_PROMPT_TOKENS.ordinal()] = record.quotedPromptTokens();
    values[at + Extra.QUOTED_LIMIT_TOKENS.ordinal()] = record.quotedLimitTokens();
    values[at + Extra.PROVENANCE.ordinal()] = record.provenance() == null ? null : PROVENANCE.toRow(record.provenance());
    return RowFactory.create(values);
  }

  /** The record of a row of {@link #SCHEMA}, found by column name (a query may have added columns). */
  static RequestRecord fromRow(Row row) {
    RequestRecord.Builder builder = RequestRecord.builder(row.getAs(CanonicalField.REQUEST_ID.column()));
    for (CanonicalField field : CanonicalField.values()) {
      Object value = row.getAs(field.column());
      field.set(builder, value instanceof Timestamp time ? (Object) time.getTime() : value);
    }
    String origin = row.getAs(Extra.ORIGIN.column());
    Row provenance = row.getAs(Extra.PROVENANCE.column());
    int aliases = row.fieldIndex(Extra.ALIASES.column());
    return builder
        .origin(origin == null ? null : RecordOrigin.valueOf(origin))
        .aliases(row.isNullAt(aliases) ? List.of() : row.getList(aliases))
        .quotedPromptTokens(row.getAs(Extra.QUOTED_PROMPT_TOKENS.column()))
        .quotedLimitTokens(row.getAs(Extra.QUOTED_LIMIT_TOKENS.column()))
        .provenance(provenance == null ? null : PROVENANCE.fromRow(provenance))
        .build();
  }
}
