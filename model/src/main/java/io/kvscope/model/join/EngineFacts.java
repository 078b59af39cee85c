package io.kvscope.model.join;

import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.model.join.RoomRule;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the engines logged about one request, folded from its {@link EngineEvent}s and the config
 * epochs of the nodes that served it. Node epochs are chosen by each node's own clock, so a skewed
 * node still gets its own epoch right.
 *
 * @param engineInputLen tokens actually prefilled: the prefill side's word first (a rejected stub
 *     shows 1 there while decode still reserved the full length)
 * @param ambiguousRoom a bootstrap room the request's lines name that named no one pair (the
 *     smallest, when several did), or null: the request's findings say so
 */
public record EngineFacts(
    String prefillNode,
    String decodeNode,
    Long bootstrapRoom,
    Long engineInputLen,
    Long cachedTokens,
    boolean rejected,
    Long requestedLen,
    Long rejectionLimit,
    Double transferMb,
    int transferFailures,
    int canaryViolations,
    int checksumMismatches,
    ConfigEpoch prefillEpoch,
    ConfigEpoch decodeEpoch,
    int events,
    RoomRule.Ambiguity ambiguousRoom) {

  /** Facts joined through rooms that each named one pair. */
  public EngineFacts(String prefillNode, String decodeNode, Long bootstrapRoom, Long engineInputLen, Long cachedTokens,
      boolean rejected, Long requestedLen, Long rejectionLimit, Double transferMb, int transferFailures,
      int canaryViolations, int checksumMismatches, ConfigEpoch prefillEpoch, ConfigEpoch decodeEpoch, int events) {
    this(prefillNode, decodeNode, bootstrapRoom, engineInputLen, cachedTokens, rejected, requestedLen, rejectionLimit,
        transferMb, transferFailures, canaryViolations, checksumMismatches, prefillEpoch, decodeEpoch, events, null);
  }

  /**
   * Node-local time, then kind, then where the line was: a total order, so the facts do not depend
   * on the order the join found the events in (the join at write time and the Linker's must agree).
   */
  private static final Comparator<EngineEvent> ORDER = Comparator.comparingLong(EngineEvent::time)
      .thenComparing(e -> e.kind().ordinal())
      .thenComparing(EngineEvent::node)
      .thenComparing(e -> String.valueOf(e.sourceFile()))
      .thenComparingLong(EngineEvent::sourceLine);

  public static final EngineFacts NONE =
      new EngineFacts(null, null, null, null, null, false, null, null, null, 0, 0, 0, null, null, 0);

  /**
   * Folds a request's events; {@code ambiguousRoom} is the room the join found no one pair's (null
   * for none), {@code epochAt} finds a node's epoch at a node-local time.
   */
  public static EngineFacts fold(List<EngineEvent> events, RoomRule.Ambiguity ambiguousRoom, EpochLookup epochAt) {
    if (events.isEmpty()) {
      return NONE;
    }
    List<EngineEvent> ordered = events.stream().sorted(ORDER).toList();
    EngineEvent prefill = first(ordered, e -> e.role() == NodeRole.PREFILL || e.role() == NodeRole.UNIFIED);
    EngineEvent decode = first(ordered, e -> e.role() == NodeRole.DECODE || e.role() == NodeRole.UNIFIED);
    Long bootstrapRoom = firstValue(ordered, EngineEvent::bootstrapRoom);
    Long inputLen = prefillInputLen(ordered);
    Long cached = firstValue(ordered, EngineEvent::cachedLen);
    EngineEvent rejection = first(ordered, e -> e.kind() == Kind.REJECTED);
    Double transferMb = ordered.stream()
        .filter(e -> e.transferMb() != null).map(EngineEvent::transferMb).findFirst().orElse(null);
    int transferFailures = count(ordered, Kind.TRANSFER_FAILED) + count(ordered, Kind.BOOTSTRAP_FAILED);
    return new EngineFacts(
        prefill == null ? null : epochAt.canonical(prefill.node()),
        decode == null ? null : epochAt.canonical(decode.node()),
        bootstrapRoom,
        inputLen,
        cached,
        rejection != null,
        rejection == null ? null : rejection.requestedLen(),
        rejection == null ? null : rejection.limit(),
        transferMb,
        transferFailures,
        count(ordered, Kind.CANARY_VIOLATION),
        count(ordered, Kind.CHECKSUM_MISMATCH),
        prefill == null ? null : epochAt.at(prefill.node(), prefill.time()),
        decode == null ? null : epochAt.at(decode.node(), decode.time()),
        events.size(),
        ambiguousRoom);
  }

  /** The prefill side's own count wins; the decode side reports the length it reserved. */
  private static Long prefillInputLen(List<EngineEvent> ordered) {
    // Each prefill rid's first input length; when an ambiguous room joined several, the smallest:
    // the underrun (a prefill that computed a few tokens of a long prompt) any of them shows stays
    // shown, so a forged rid with a full-length count cannot hide it.
    Map<String, Long> perRid = new java.util.LinkedHashMap<>();
    for (EngineEvent e : ordered) {
      if ((e.role() == NodeRole.PREFILL || e.role() == NodeRole.UNIFIED) && e.inputLen() != null) {
        perRid.putIfAbsent(String.valueOf(e.rid()), e.inputLen());
      }
    }
    if (!perRid.isEmpty()) {
      return perRid.values().stream().min(Long::compare).orElseThrow();
    }
    return ordered.stream().map(EngineEvent::inputLen).filter(v -> v != null).min(Long::compare).orElse(null);
  }

  private static EngineEvent first(List<EngineEvent> events, java.util.function.Predicate<EngineEvent> test) {
    return events.stream().filter(test).findFirst().orElse(null);
  }

  private static <T> T firstValue(List<EngineEvent> events, Function<EngineEvent, T> value) {
    return events.stream().map(value).filter(v -> v != null).findFirst().orElse(null);
  }

  private static int count(List<EngineEvent> events, Kind kind) {
    return (int) events.stream().filter(e -> e.kind() == kind).count();
  }

  /** Finds the epoch a node was in at a node-local time. */
  @FunctionalInterface
  public interface EpochLookup {
    ConfigEpoch at(String node, long time);

    /** The name reports use for a node the logs call {@code node}. */
    default String canonical(String node) {
      return node;
    }
  }
}
