package io.kvscope.ingest.record;

/**
 * One engine-side fact from a node's log about one request (or, for node-level faults, about no
 * particular request: then {@link #rid()} is {@code null}). Facts are joined onto the gateway's
 * {@link RequestRecord} by rid (the prefill side of a disaggregated request through its
 * {@link #bootstrapRoom()}, since each server names the request by its own rid), never by time:
 * node clocks are skewed.
 *
 * <p>Only the fields that the {@link #kind()} carries are set; the rest are {@code null}.
 *
 * @param time node-local timestamp of the line, read as UTC epoch ms (may be skewed)
 * @param inputLen tokens the engine actually prefilled ({@code input_len}, {@code #new-token},
 *     meta_info {@code prompt_tokens}); a rejected stub shows 1
 * @param requestedLen tokens the prompt really had, when the line says (rejection messages)
 * @param limit the limit a rejection quoted (max allowed length or context length)
 * @param transferMb KV bytes sent, prefill side ({@code transfer_total})
 * @param detail the line's own words for faults, rejections and finish reasons; never prompt text
 * @param bootstrapHost the prefill peer a PD request names ({@code bootstrap_host} in SGLang's
 *     request logger): the address of the prefill node that served {@link #bootstrapRoom()}
 */
public record EngineEvent(
    Kind kind,
    String node,
    NodeRole role,
    String rid,
    Long bootstrapRoom,
    long time,
    Long inputLen,
    Long requestedLen,
    Long limit,
    Long cachedLen,
    Long outputLen,
    Double transferMb,
    Double transferMillis,
    Double e2eLatencyMillis,
    String finishReason,
    String detail,
    String sourceFile,
    long sourceLine,
    String bootstrapHost)
    implements Ingested {

  /** An event without a named prefill peer. */
  public EngineEvent(Kind kind, String node, NodeRole role, String rid, Long bootstrapRoom, long time, Long inputLen,
      Long requestedLen, Long limit, Long cachedLen, Long outputLen, Double transferMb, Double transferMillis,
      Double e2eLatencyMillis, String finishReason, String detail, String sourceFile, long sourceLine) {
    this(kind, node, role, rid, bootstrapRoom, time, inputLen, requestedLen, limit, cachedLen, outputLen, transferMb,
        transferMillis, e2eLatencyMillis, finishReason, detail, sourceFile, sourceLine, null);
  }

  /** What the line said happened. */
  public enum Kind {
    RECEIVED,
    FINISHED,
    /** A {@code Req Time Stats(...)} line (or a trace's stage span): per-request stage timing and lengths. */
    TIME_STATS,
    /** Over-length rejection: the request was replaced with a placeholder and marked to abort. */
    REJECTED,
    BOOTSTRAP_FAILED,
    TRANSFER_FAILED,
    CANARY_VIOLATION,
    CHECKSUM_MISMATCH,
    /** {@code KV cache pool is full. Retract ...}: node-level, usually no rid. */
    POOL_FULL
  }

  public EngineEvent {
    if (kind == null) {
      throw new IllegalArgumentException("engine event kind is required (" + sourceFile + ":" + sourceLine + ")");
    }
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("engine event needs a node (" + sourceFile + ":" + sourceLine + ")");
    }
    if (role == null) {
      role = NodeRole.UNKNOWN;
    }
    if (bootstrapHost != null && bootstrapHost.isBlank()) {
      bootstrapHost = null;
    }
  }

  /** A minimal event of {@code kind}; use the {@code with...} copies or the canonical constructor for more. */
  public static EngineEvent of(Kind kind, String node, NodeRole role, String rid, long time,
      String sourceFile, long sourceLine) {
    return new EngineEvent(kind, node, role, rid, null, time, null, null, null, null, null, null,
        null, null, null, null, sourceFile, sourceLine);
  }
}
