package io.kvscope.ingest.engine;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;

/** Fills an {@link EngineEvent} field by field; only what the line carries is set. */
public final class EventBuilder {

  /** Details are short descriptions, never whole log lines. */
  public static final int MAX_DETAIL = 200;

  private final EngineEvent.Kind kind;
  private final String node;
  private final NodeRole role;
  private final long time;
  private final String sourceFile;
  private final long sourceLine;
  private String rid;
  private Long bootstrapRoom;
  private Long inputLen;
  private Long requestedLen;
  private Long limit;
  private Long cachedLen;
  private Long outputLen;
  private Double transferMb;
  private Double transferMillis;
  private Double e2eLatencyMillis;
  private String finishReason;
  private String detail;
  private String bootstrapHost;

  private EventBuilder(EngineEvent.Kind kind, String node, NodeRole role, long time, String sourceFile,
      long sourceLine) {
    this.kind = kind;
    this.node = node;
    this.role = role;
    this.time = time;
    this.sourceFile = sourceFile;
    this.sourceLine = sourceLine;
  }

  public static EventBuilder of(EngineEvent.Kind kind, String node, NodeRole role, long time,
      String sourceFile, long sourceLine) {
    return new EventBuilder(kind, node, role, time, sourceFile, sourceLine);
  }

  public EventBuilder rid(String v) { rid = v == null || v.isBlank() ? null : v; return this; }
  public EventBuilder bootstrapRoom(Long v) { bootstrapRoom = v; return this; }
  public EventBuilder inputLen(Long v) { inputLen = v; return this; }
  public EventBuilder requestedLen(Long v) { requestedLen = v; return this; }
  public EventBuilder limit(Long v) { limit = v; return this; }
  public EventBuilder cachedLen(Long v) { cachedLen = v; return this; }
  public EventBuilder outputLen(Long v) { outputLen = v; return this; }
  public EventBuilder transferMb(Double v) { transferMb = v; return this; }
  public EventBuilder transferMillis(Double v) { transferMillis = v; return this; }
  public EventBuilder e2eLatencyMillis(Double v) { e2eLatencyMillis = v; return this; }
  public EventBuilder finishReason(String v) { finishReason = v; return this; }
  public EventBuilder bootstrapHost(String v) { bootstrapHost = v; return this; }

  /** A short description, cut at {@link #MAX_DETAIL} characters. */
  public EventBuilder detail(String v) {
    if (v == null || v.isBlank()) {
      detail = null;
    } else {
      String s = v.strip();
      detail = s.length() > MAX_DETAIL ? s.substring(0, MAX_DETAIL) : s;
    }
    return this;
  }

  public EngineEvent.Kind kind() { return kind; }
  public String rid() { return rid; }

  /** Identity of the fact for {@link RecentKeys}: everything but the source line. */
  public Object dedupKey() {
    return java.util.Arrays.asList(kind, rid, bootstrapRoom, inputLen, requestedLen, limit, cachedLen,
        outputLen, transferMb, finishReason, detail, rid == null ? time / 1000 : null);
  }

  public EngineEvent build() {
    return new EngineEvent(kind, node, role, rid, bootstrapRoom, time, inputLen, requestedLen, limit,
        cachedLen, outputLen, transferMb, transferMillis, e2eLatencyMillis, finishReason, detail,
        sourceFile, sourceLine, bootstrapHost);
  }
}
