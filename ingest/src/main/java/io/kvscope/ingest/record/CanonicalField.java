package io.kvscope.ingest.record;

import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The canonical request-record fields by their snake_case names (SPEC "Canonical request
 * record"): the one list that custom mappings, Arrow columns and the index agree on. Each field
 * knows its value type and how to read it from a {@link RequestRecord} and set it on a builder.
 */
public enum CanonicalField {
  REQUEST_ID(Type.STRING, RequestRecord::requestId, (b, v) -> b.requestId((String) v)),
  ENGINE_RID(Type.STRING, RequestRecord::engineRid, (b, v) -> b.engineRid((String) v)),
  TENANT(Type.STRING, RequestRecord::tenant, (b, v) -> b.tenant((String) v)),
  MODEL(Type.STRING, RequestRecord::model, (b, v) -> b.model((String) v)),
  DEPLOYMENT(Type.STRING, RequestRecord::deployment, (b, v) -> b.deployment((String) v)),
  PREFILL_NODE(Type.STRING, RequestRecord::prefillNode, (b, v) -> b.prefillNode((String) v)),
  DECODE_NODE(Type.STRING, RequestRecord::decodeNode, (b, v) -> b.decodeNode((String) v)),
  BOOTSTRAP_ROOM(Type.LONG, RequestRecord::bootstrapRoom, (b, v) -> b.bootstrapRoom((Long) v)),
  START_TIME(Type.TIME, RequestRecord::startTime, (b, v) -> b.startTime((Long) v)),
  FIRST_TOKEN_TIME(Type.TIME, RequestRecord::firstTokenTime, (b, v) -> b.firstTokenTime((Long) v)),
  END_TIME(Type.TIME, RequestRecord::endTime, (b, v) -> b.endTime((Long) v)),
  STATUS_CODE(Type.INT, RequestRecord::statusCode, (b, v) -> b.statusCode((Integer) v)),
  FINISH_REASON(Type.STRING, RequestRecord::finishReason, (b, v) -> b.finishReason((String) v)),
  PROMPT_TOKENS(Type.LONG, RequestRecord::promptTokens, (b, v) -> b.promptTokens((Long) v)),
  PROMPT_CHARS(Type.LONG, RequestRecord::promptChars, (b, v) -> b.promptChars((Long) v)),
  CACHED_TOKENS(Type.LONG, RequestRecord::cachedTokens, (b, v) -> b.cachedTokens((Long) v)),
  COMPLETION_TOKENS(Type.LONG, RequestRecord::completionTokens, (b, v) -> b.completionTokens((Long) v)),
  ENGINE_INPUT_LEN(Type.LONG, RequestRecord::engineInputLen, (b, v) -> b.engineInputLen((Long) v)),
  PROMPT_TEXT(Type.TEXT, RequestRecord::promptText, (b, v) -> b.promptText((String) v)),
  RESPONSE_TEXT(Type.TEXT, RequestRecord::responseText, (b, v) -> b.responseText((String) v)),
  SOURCE_FILE(Type.STRING, RequestRecord::sourceFile, (b, v) -> b.sourceFile((String) v)),
  SOURCE_LINE(Type.LONG, r -> r.sourceLine(), (b, v) -> b.sourceLine(v == null ? 0 : (Long) v));

  /** How a field's value is held: {@code String}, {@code Long} or {@code Integer}. */
  public enum Type {
    /** A short string: an id, a name. */
    STRING,
    /** Possibly megabytes of prompt or response text. */
    TEXT,
    LONG,
    INT,
    /** UTC epoch milliseconds, held as a {@code Long}. */
    TIME
  }

  private final String column;
  private final Type type;
  private final Function<RequestRecord, Object> getter;
  private final BiConsumer<RequestRecord.Builder, Object> setter;

  CanonicalField(Type type, Function<RequestRecord, Object> getter, BiConsumer<RequestRecord.Builder, Object> setter) {
    this.column = name().toLowerCase(Locale.ROOT);
    this.type = type;
    this.getter = getter;
    this.setter = setter;
  }

  /** The snake_case name used as Arrow column, index field and mapping key. */
  public String column() {
    return column;
  }

  public Type type() {
    return type;
  }

  /** The field's value in {@code record}: a {@code String}, {@code Long}, {@code Integer} or null. */
  public Object get(RequestRecord record) {
    return getter.apply(record);
  }

  /** Sets the field on {@code builder}; {@code value} must be of the {@link #type()}'s Java class. */
  public void set(RequestRecord.Builder builder, Object value) {
    setter.accept(builder, value);
  }

  /** The field whose {@link #column()} is {@code name}. */
  public static Optional<CanonicalField> byColumn(String name) {
    for (CanonicalField field : values()) {
      if (field.column.equals(name)) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }

  /** True for the provenance fields, which a reader sets itself rather than taking from the data. */
  public boolean isProvenance() {
    return this == SOURCE_FILE || this == SOURCE_LINE;
  }
}
