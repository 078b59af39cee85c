package io.kvscope.ingest.record;

import java.util.List;

/**
 * One request as the gateway (or a trace, or a mapped custom log) saw it: the canonical record of
 * kvscope. Field names map one-to-one to the index's and Arrow's column names ({@code request_id},
 * {@code engine_rid}, ...). Optional facts are {@code null} when the source did not carry them;
 * times are UTC epoch milliseconds.
 *
 * <p>Engine-side facts ({@code prefill_node}, {@code decode_node}, {@code engine_input_len}, ...) are
 * usually filled later by joining {@link EngineEvent}s on {@link #engineRid()}.
 *
 * <p>Beyond the canonical columns a record says who wrote it ({@link #origin()}), the other ids it
 * is known by ({@link #aliases()}, as {@code kind:value}), what an error returned to the client
 * quoted ({@link #quotedPromptTokens()}, {@link #quotedLimitTokens()}), and, once several records of
 * one request were merged, where they came from ({@link #provenance()}).
 */
public record RequestRecord(
    String requestId,
    String engineRid,
    String tenant,
    String model,
    String deployment,
    String prefillNode,
    String decodeNode,
    Long bootstrapRoom,
    Long startTime,
    Long firstTokenTime,
    Long endTime,
    Integer statusCode,
    String finishReason,
    Long promptTokens,
    Long promptChars,
    Long cachedTokens,
    Long completionTokens,
    Long engineInputLen,
    String promptText,
    String responseText,
    String sourceFile,
    long sourceLine,
    RecordOrigin origin,
    List<String> aliases,
    Long quotedPromptTokens,
    Long quotedLimitTokens,
    Provenance provenance)
    implements Ingested {

  public RequestRecord {
    if (requestId == null || requestId.isBlank()) {
      throw new IllegalArgumentException("request_id is required (" + sourceFile + ":" + sourceLine + ")");
    }
    requireNonNegative("prompt_tokens", promptTokens);
    requireNonNegative("prompt_chars", promptChars);
    requireNonNegative("cached_tokens", cachedTokens);
    requireNonNegative("completion_tokens", completionTokens);
    requireNonNegative("engine_input_len", engineInputLen);
    requireNonNegative("quoted_prompt_tokens", quotedPromptTokens);
    requireNonNegative("quoted_limit_tokens", quotedLimitTokens);
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
    if (statusCode != null && (statusCode < 100 || statusCode > 599)) {
      throw new IllegalArgumentException("status_code " + statusCode + " is not an HTTP status");
    }
    if (promptChars == null && promptText != null) {
      promptChars = (long) promptText.length();
    }
  }

  private static void requireNonNegative(String field, Long value) {
    if (value != null && value < 0) {
      throw new IllegalArgumentException(field + " must not be negative, was " + value);
    }
  }

  /** Names the request and the size of its content, never the content: records end up in logs. */
  @Override
  public String toString() {
    return "RequestRecord[request_id=" + requestId + ", engine_rid=" + engineRid + ", tenant=" + tenant
        + ", status_code=" + statusCode + ", prompt_tokens=" + promptTokens + ", prompt_chars=" + promptChars
        + ", response_chars=" + (responseText == null ? null : responseText.length())
        + ", source=" + sourceFile + ":" + sourceLine + ", origin=" + origin
        + (provenance == null ? "" : ", merged=" + provenance.records()) + "]";
  }

  /** Time to first token in ms, when both ends are known. */
  public Long ttftMillis() {
    return startTime != null && firstTokenTime != null ? firstTokenTime - startTime : null;
  }

  public boolean succeeded() {
    return statusCode != null && statusCode >= 200 && statusCode < 300;
  }

  public static Builder builder(String requestId) {
    return new Builder().requestId(requestId);
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    for (CanonicalField field : CanonicalField.values()) {
      field.set(b, field.get(this));
    }
    return b.origin(origin).aliases(aliases).quotedPromptTokens(quotedPromptTokens)
        .quotedLimitTokens(quotedLimitTokens).provenance(provenance);
  }

  /** Parsers fill fields as they meet them; {@link #build()} validates once at the end. */
  public static final class Builder {
    private String requestId;
    private String engineRid;
    private String tenant;
    private String model;
    private String deployment;
    private String prefillNode;
    private String decodeNode;
    private Long bootstrapRoom;
    private Long startTime;
    private Long firstTokenTime;
    private Long endTime;
    private Integer statusCode;
    private String finishReason;
    private Long promptTokens;
    private Long promptChars;
    private Long cachedTokens;
    private Long completionTokens;
    private Long engineInputLen;
    private String promptText;
    private String responseText;
    private String sourceFile;
    private long sourceLine;
    private RecordOrigin origin;
    private List<String> aliases = List.of();
    private Long quotedPromptTokens;
    private Long quotedLimitTokens;
    private Provenance provenance;

    public Builder requestId(String v) { requestId = v; return this; }
    public Builder engineRid(String v) { engineRid = v; return this; }
    public Builder tenant(String v) { tenant = v; return this; }
    public Builder model(String v) { model = v; return this; }
    public Builder deployment(String v) { deployment = v; return this; }
    public Builder prefillNode(String v) { prefillNode = v; return this; }
    public Builder decodeNode(String v) { decodeNode = v; return this; }
    public Builder bootstrapRoom(Long v) { bootstrapRoom = v; return this; }
    public Builder startTime(Long v) { startTime = v; return this; }
    public Builder firstTokenTime(Long v) { firstTokenTime = v; return this; }
    public Builder endTime(Long v) { endTime = v; return this; }
    public Builder statusCode(Integer v) { statusCode = v; return this; }
    public Builder finishReason(String v) { finishReason = v; return this; }
    public Builder promptTokens(Long v) { promptTokens = v; return this; }
    public Builder promptChars(Long v) { promptChars = v; return this; }
    public Builder cachedTokens(Long v) { cachedTokens = v; return this; }
    public Builder completionTokens(Long v) { completionTokens = v; return this; }
    public Builder engineInputLen(Long v) { engineInputLen = v; return this; }
    public Builder promptText(String v) { promptText = v; return this; }
    public Builder responseText(String v) { responseText = v; return this; }
    public Builder sourceFile(String v) { sourceFile = v; return this; }
    public Builder sourceLine(long v) { sourceLine = v; return this; }
    public Builder origin(RecordOrigin v) { origin = v; return this; }
    public Builder aliases(List<String> v) { aliases = v; return this; }
    public Builder quotedPromptTokens(Long v) { quotedPromptTokens = v; return this; }
    public Builder quotedLimitTokens(Long v) { quotedLimitTokens = v; return this; }
    public Builder provenance(Provenance v) { provenance = v; return this; }

    public String requestId() { return requestId; }

    public RequestRecord build() {
      return new RequestRecord(requestId, engineRid, tenant, model, deployment, prefillNode,
          decodeNode, bootstrapRoom, startTime, firstTokenTime, endTime, statusCode, finishReason,
          promptTokens, promptChars, cachedTokens, completionTokens, engineInputLen, promptText,
          responseText, sourceFile, sourceLine, origin, aliases, quotedPromptTokens, quotedLimitTokens,
          provenance);
    }
  }
}
