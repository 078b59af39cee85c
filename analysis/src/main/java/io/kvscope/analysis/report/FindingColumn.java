package io.kvscope.analysis.report;

import io.kvscope.model.finding.Span;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The columns of the findings table, in file order: the one declaration that findings.arrow,
 * findings.ndjson and docs/findings-table.md follow. A row is a (finding, source) pair
 * ({@link FindingRow}); finding columns repeat on every row of a finding, {@code source_*} columns
 * and {@code spans} are null on the single row of a finding without sources.
 */
enum FindingColumn {
  ID("id", Type.TEXT, false, r -> r.finding().id()),
  KIND("kind", Type.TEXT, false, r -> r.finding().kind().id()),
  CONFIDENCE("confidence", Type.TEXT, false, r -> r.finding().confidence().id()),
  COUNTED("counted", Type.BOOL, false, r -> r.finding().isCountedLeak()),
  REQUEST_ID("request_id", Type.TEXT, true, r -> r.finding().requestId()),
  ENGINE_RID("engine_rid", Type.TEXT, true, r -> r.finding().engineRid()),
  TENANT("tenant", Type.TEXT, true, r -> r.finding().tenant()),
  TIME("time", Type.TIME, true, r -> r.finding().time()),
  NODE("node", Type.TEXT, true, r -> r.finding().node()),
  DECODE_NODE("decode_node", Type.TEXT, true, r -> r.finding().decodeNode()),
  FINDING_MATCHED_TOKENS("finding_matched_tokens", Type.INT64, false, r -> r.finding().matchedTokens()),
  SOURCE_COUNT("source_count", Type.INT32, false, r -> r.finding().sources().size()),
  SOURCE_INDEX("source_index", Type.INT32, true, r -> r.source() == null ? null : r.sourceIndex()),
  SOURCE_REQUEST_ID("source_request_id", Type.TEXT, true, r -> r.source() == null ? null : r.source().requestId()),
  SOURCE_ENGINE_RID("source_engine_rid", Type.TEXT, true, r -> r.source() == null ? null : r.source().engineRid()),
  SOURCE_TENANT("source_tenant", Type.TEXT, true, r -> r.source() == null ? null : r.source().tenant()),
  SOURCE_MATCHED_TOKENS("source_matched_tokens", Type.INT64, true,
      r -> r.source() == null ? null : r.source().matchedTokens()),
  SOURCE_ATTRIBUTION("source_attribution", Type.TEXT, true,
      r -> r.source() == null ? null : r.source().attribution().id()),
  SPANS("spans", Type.SPANS, true, r -> r.source() == null ? null : r.source().spans()),
  EVIDENCE("evidence", Type.TEXT, false, FindingRow::evidence);

  /** How a column's values are stored; every integer stays an integer, null where unknown. */
  enum Type {
    /** UTF-8 text; JSON string. */
    TEXT,
    BOOL,
    INT32,
    INT64,
    /** Arrow timestamp[ms, UTC]; JSON ISO-8601 string with milliseconds ({@link FindingsNdjson#TIME_FORMAT}). */
    TIME,
    /** Arrow list of struct {@link SpanField}; JSON array of objects. */
    SPANS
  }

  /**
   * The fields of one matched span. Offsets count UTF-16 code units (Java and JavaScript string
   * indexes), start inclusive, end exclusive, as {@link Span} holds them.
   */
  enum SpanField {
    RECIPIENT_UTF16_START("recipient_utf16_start", Type.INT32, false, Span::responseStart),
    RECIPIENT_UTF16_END("recipient_utf16_end", Type.INT32, false, Span::responseEnd),
    SOURCE_FIELD("source_field", Type.TEXT, false, Span::sourceField),
    SOURCE_UTF16_START("source_utf16_start", Type.INT32, false, Span::sourceStart),
    SOURCE_UTF16_END("source_utf16_end", Type.INT32, false, Span::sourceEnd),
    WORD_TOKENS("word_tokens", Type.INT32, false, Span::tokens),
    RECIPIENT_COPY("recipient_copy", Type.TEXT, true, Span::responseCopy),
    SOURCE_COPY("source_copy", Type.TEXT, true, Span::sourceCopy);

    final String columnName;
    final Type type;
    final boolean nullable;
    final Function<Span, Object> value;

    SpanField(String columnName, Type type, boolean nullable, Function<Span, Object> value) {
      this.columnName = columnName;
      this.type = type;
      this.nullable = nullable;
      this.value = value;
    }

    Field arrowField() {
      return new Field(columnName, new FieldType(nullable, arrowType(type), null), null);
    }
  }

  final String columnName;
  final Type type;
  final boolean nullable;
  private final Function<FindingRow, Object> value;

  FindingColumn(String columnName, Type type, boolean nullable, Function<FindingRow, Object> value) {
    this.columnName = columnName;
    this.type = type;
    this.nullable = nullable;
    this.value = value;
  }

  /**
   * This column's value in {@code row}: a String, Boolean, Integer, Long, {@link java.time.Instant}
   * or {@code List<Span>} as {@link #type} says, or null.
   */
  Object valueOf(FindingRow row) {
    Object v = value.apply(row);
    if (v == null && !nullable) {
      throw new IllegalStateException("column " + columnName + " has no value for " + row.finding().id());
    }
    return v;
  }

  /** The column as an Arrow field. */
  Field arrowField() {
    FieldType fieldType = new FieldType(nullable, arrowType(type), null);
    if (type != Type.SPANS) {
      return new Field(columnName, fieldType, null);
    }
    Field span = new Field("span", FieldType.notNullable(ArrowType.Struct.INSTANCE),
        Arrays.stream(SpanField.values()).map(SpanField::arrowField).toList());
    return new Field(columnName, fieldType, List.of(span));
  }

  static List<Field> arrowFields() {
    return Arrays.stream(values()).map(FindingColumn::arrowField).toList();
  }

  private static ArrowType arrowType(Type type) {
    return switch (type) {
      case TEXT -> ArrowType.Utf8.INSTANCE;
      case BOOL -> ArrowType.Bool.INSTANCE;
      case INT32 -> new ArrowType.Int(32, true);
      case INT64 -> new ArrowType.Int(64, true);
      case TIME -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC");
      case SPANS -> ArrowType.List.INSTANCE;
    };
  }
}
