package io.kvscope.analysis;

import io.kvscope.analysis.analyzers.OverLengthAccepted;
import io.kvscope.analysis.analyzers.PrefillUnderrun;
import io.kvscope.analysis.analyzers.TimingAnomaly;
import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.Observation;
import io.kvscope.model.evidence.ServiceSignals;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Window;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.join.RoomRule;
import java.io.IOException;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the logs say about how each request was served, apart from its text: the mechanism half of
 * the evidence. Read from the findings of the over-length, underrun and timing analyzers (an
 * analyzer using this must require them: {@link #REQUIRED}) and from the engine facts joined onto
 * each request (transfer failures, canary and checksum violations), plus whether its prefill node
 * was inside a vulnerable window. A request whose engine facts came through a bootstrap room that
 * named no one pair has them from more than one pair's lines: its findings say so.
 */
public final class Mechanisms {

  /** The analyzers whose findings this reads. */
  public static final Set<String> REQUIRED =
      Set.of(OverLengthAccepted.NAME, PrefillUnderrun.NAME, TimingAnomaly.NAME);

  /** The rule name a leak finding's confidence reasons give an ambiguous bootstrap room under. */
  public static final String ROOM_RULE = "room-ambiguous";

  private final Map<Integer, Mechanism> byDoc;
  /** Each request document's {@link Observation}, by document number (null for other documents). */
  private final Observation[] observed;
  private final BitSet neverPrefilled;
  private final BitSet refused;
  /** The ambiguous room of each request that has one, by request id (few: forged or reused rooms). */
  private final Map<String, RoomRule.Ambiguity> ambiguousRooms;

  private Mechanisms(Map<Integer, Mechanism> byDoc, Observation[] observed, BitSet neverPrefilled, BitSet refused,
      Map<String, RoomRule.Ambiguity> ambiguousRooms) {
    this.byDoc = byDoc;
    this.observed = observed;
    this.neverPrefilled = neverPrefilled;
    this.refused = refused;
    this.ambiguousRooms = ambiguousRooms;
  }

  public static Mechanisms of(AnalysisContext context) throws IOException {
    Set<String> overLength = context.requestsFlagged(OverLengthAccepted.NAME, FindingKind.OVER_LENGTH_ACCEPTED);
    Set<String> underrun = context.requestsFlagged(PrefillUnderrun.NAME, FindingKind.PREFILL_UNDERRUN);
    Set<String> timing = context.requestsFlagged(TimingAnomaly.NAME, FindingKind.TIMING_ANOMALY);
    List<Window> windows = VulnerableWindows.of(context.epochs(), context.clocks(), context.options().fixedVersion());
    Map<Integer, Mechanism> byDoc = new HashMap<>();
    BitSet never = new BitSet();
    BitSet refused = new BitSet();
    Observation[] observed = new Observation[context.reader().maxDoc()];
    Map<String, RoomRule.Ambiguity> ambiguousRooms = new HashMap<>();
    context.forEachRow(row -> {
      if (row.facts().ambiguousRoom() != null) {
        ambiguousRooms.put(row.record().requestId(), row.facts().ambiguousRoom());
      }
      if (refusedBeforePrefill(row)) {
        refused.set(row.doc());
      }
      String id = row.record().requestId();
      RequestRecord r = row.record();
      boolean inWindow = r.startTime() != null && inWindow(windows, r.prefillNode(), r.startTime());
      observed[row.doc()] = observation(row, timing.contains(id));
      ServiceSignals signals = new ServiceSignals(overLength.contains(id), underrun.contains(id),
          row.facts().transferFailures(), row.facts().canaryViolations(), row.facts().checksumMismatches(),
          timing.contains(id), inWindow ? r.prefillNode() : null, observed[row.doc()]);
      if (signals.neverPrefilled()) {
        never.set(row.doc());
      }
      Mechanism mechanism = signals.mechanism();
      if (mechanism.decodedOverForeignKv() || !mechanism.supporting().isEmpty()) {
        byDoc.put(row.doc(), mechanism);
      }
    });
    return new Mechanisms(byDoc, observed, never, refused, ambiguousRooms);
  }

  /** What the engine facts joined onto {@code row} let the logs show of how it was served. */
  static Observation observation(RequestRow row, boolean timingAnomaly) {
    EngineFacts facts = row.facts();
    return Observation.of(facts.events(), row.record().engineRid() != null, facts.prefillNode() != null,
        facts.decodeNode() != null, facts.engineInputLen() != null, timingAnomaly);
  }

  /** Whether the request was turned away before any of it was prefilled ({@link ServiceSignals#refusedBeforePrefill}). */
  static boolean refusedBeforePrefill(RequestRow row) {
    return ServiceSignals.refusedBeforePrefill(row.facts().rejected(), row.record().succeeded(), row.record().statusCode());
  }

  private static boolean inWindow(List<Window> windows, String node, long time) {
    Instant at = Instant.ofEpochMilli(time);
    for (Window w : windows) {
      if (w.node() != null && w.node().equals(node) && !at.isBefore(w.start()) && (w.end() == null || at.isBefore(w.end()))) {
        return true;
      }
    }
    return false;
  }

  /** The mechanism facts of request document {@code doc}. */
  public Mechanism of(int doc) {
    Mechanism known = byDoc.get(doc);
    if (known != null) {
      return known;
    }
    Observation observation = doc < observed.length ? observed[doc] : null;
    return observation == null ? Mechanism.none() : new Mechanism(false, List.of(), List.of(), observation);
  }

  /** Requests whose prompt the engine never prefilled: their replies were decoded over stale pages. */
  public BitSet neverPrefilled() {
    return (BitSet) neverPrefilled.clone();
  }

  /** Requests turned away before any of their prompt was prefilled (see {@link #refusedBeforePrefill}). */
  public BitSet refused() {
    return (BitSet) refused.clone();
  }

  /**
   * {@code out}, where a leak finding on a request whose engine facts came through an ambiguous
   * bootstrap room names the room in its confidence reasons ({@value #ROOM_RULE}): the mechanism it
   * cites may be another pair's.
   */
  public Consumer<Finding> namingAmbiguousRooms(Consumer<Finding> out) {
    return finding -> {
      RoomRule.Ambiguity room = finding.requestId() == null ? null : ambiguousRooms.get(finding.requestId());
      out.accept(room != null && finding.evidence() instanceof Evidence.OfLeak leak
          ? finding.withEvidence(leak.withReason(ROOM_RULE + ": " + room.describe())) : finding);
    };
  }

  /** Requests decoded over foreign KV, in document order. */
  public List<Integer> decodedOverForeignKv() {
    return byDoc.entrySet().stream().filter(e -> e.getValue().decodedOverForeignKv()).map(Map.Entry::getKey)
        .sorted().toList();
  }
}
