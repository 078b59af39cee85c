package io.kvscope.ingest.record;

import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The canonical request-record fields by their snake_case names (SPEC "Canonical request
 * record"): the one list that custom mappings, Arrow columns, the index schema and its documents
 * agree on. Each field knows its value type, what it means, and how to read it from a
 * {@link RequestRecord} and set it on a builder.
 */
public enum CanonicalField {
  REQUEST_ID(Type.STRING, "the gateway's id where there is one, else the engine rid",
      RequestRecord::requestId, (b, v) -> b.requestId((String) v)),
  ENGINE_RID(Type.STRING, "the engine's request id (gateway response id without chatcmpl-)",
      RequestRecord::engineRid, (b, v) -> b.engineRid((String) v)),
  TENANT(Type.STRING, "the customer, resolved from the configured tenant keys",
      RequestRecord::tenant, (b, v) -> b.tenant((String) v)),
  MODEL(Type.STRING, "model requested", RequestRecord::model, (b, v) -> b.model((String) v)),
  DEPLOYMENT(Type.STRING, "deployment / model group that served it",
      RequestRecord::deployment, (b, v) -> b.deployment((String) v)),
  PREFILL_NODE(Type.STRING, "prefill node (from engine logs)",
      RequestRecord::prefillNode, (b, v) -> b.prefillNode((String) v)),
  DECODE_NODE(Type.STRING, "decode node (from engine logs)",
      RequestRecord::decodeNode, (b, v) -> b.decodeNode((String) v)),
  BOOTSTRAP_ROOM(Type.LONG, "disaggregation bootstrap room",
      RequestRecord::bootstrapRoom, (b, v) -> b.bootstrapRoom((Long) v)),
  // The index's epochs reuse start_time, hence the second half of its meaning.
  START_TIME(Type.TIME, "request start (UTC ms); epochs: epoch start",
      RequestRecord::startTime, (b, v) -> b.startTime((Long) v)),
  FIRST_TOKEN_TIME(Type.TIME, "first token (UTC ms)",
      RequestRecord::firstTokenTime, (b, v) -> b.firstTokenTime((Long) v)),
  END_TIME(Type.TIME, "request end (UTC ms)", RequestRecord::endTime, (b, v) -> b.endTime((Long) v)),
  STATUS_CODE(Type.INT, "HTTP status returned to the client",
      RequestRecord::statusCode, (b, v) -> b.statusCode((Integer) v)),
  FINISH_REASON(Type.STRING, "finish reason", RequestRecord::finishReason, (b, v) -> b.finishReason((String) v)),
  PROMPT_TOKENS(Type.LONG, "prompt tokens as the gateway reported them",
      RequestRecord::promptTokens, (b, v) -> b.promptTokens((Long) v)),
  PROMPT_CHARS(Type.LONG, "prompt length in characters", RequestRecord::promptChars, (b, v) -> b.promptChars((Long) v)),
  CACHED_TOKENS(Type.LONG, "prefix-cache hit tokens", RequestRecord::cachedTokens, (b, v) -> b.cachedTokens((Long) v)),
  COMPLETION_TOKENS(Type.LONG, "completion tokens",
      RequestRecord::completionTokens, (b, v) -> b.completionTokens((Long) v)),
  ENGINE_INPUT_LEN(Type.LONG, "tokens the engine actually prefilled (1 for a rejected stub)",
      RequestRecord::engineInputLen, (b, v) -> b.engineInputLen((Long) v)),
  PROMPT_TEXT(Type.TEXT, "prompt content (sensitive: redacted in output unless --reveal)",
      RequestRecord::promptText, (b, v) -> b.promptText((String) v)),
  RESPONSE_TEXT(Type.TEXT, "response content (sensitive: redacted in output unless --reveal)",
      RequestRecord::responseText, (b, v) -> b.responseText((String) v)),
  SOURCE_FILE(Type.STRING, "file the record came from", RequestRecord::sourceFile, (b, v) -> b.sourceFile((String) v)),
  SOURCE_LINE(Type.LONG, "line (or row) in source_file",
      r -> r.sourceLine(), (b, v) -> b.sourceLine(v == null ? 0 : (Long) v));

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
  private final String meaning;
  private final Function<RequestRecord, Object> getter;
  private final BiConsumer<RequestRecord.Builder, Object> setter;

  CanonicalField(Type type, String meaning, Function<RequestRecord, Object> getter,
      BiConsumer<RequestRecord.Builder, Object> setter) {
    this.column = name().toLowerCase(Locale.ROOT);
    this.type = type;
    this.meaning = meaning;
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

  /** What the field holds, in one line (the index schema's documentation). */
  public String meaning() {
    return meaning;
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
