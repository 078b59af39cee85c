package io.kvscope.analysis;

import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.Observation;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.EngineFacts;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the logs say about how each request was served, apart from its text: the mechanism half of
 * the evidence. Read from the findings of the over-length, underrun and timing analyzers (an
 * analyzer using this must require them: {@link #REQUIRED}) and from the engine facts joined onto
 * each request (transfer failures, canary and checksum violations), plus whether its prefill node
 * was inside a vulnerable window.
 */
public final class Mechanisms {

  public static final String OVER_LENGTH = "over-length-accepted";
  public static final String UNDERRUN = "prefill-underrun";
  public static final String TIMING = "timing-anomaly";
  /** The analyzers whose findings this reads. */
  public static final Set<String> REQUIRED = Set.of(OVER_LENGTH, UNDERRUN, TIMING);

  private final Map<Integer, Mechanism> byDoc;
  /** Each request document's {@link Observation}, by document number (null for other documents). */
  private final Observation[] observed;
  private final BitSet neverPrefilled;
  private final BitSet refused;

  private Mechanisms(Map<Integer, Mechanism> byDoc, Observation[] observed, BitSet neverPrefilled, BitSet refused) {
    this.byDoc = byDoc;
    this.observed = observed;
    this.neverPrefilled = neverPrefilled;
    this.refused = refused;
  }

  public static Mechanisms of(AnalysisContext context) throws IOException {
    Set<String> overLength = context.requestsFlagged(OVER_LENGTH, FindingKind.OVER_LENGTH_ACCEPTED);
    Set<String> underrun = context.requestsFlagged(UNDERRUN, FindingKind.PREFILL_UNDERRUN);
    Set<String> timing = context.requestsFlagged(TIMING, FindingKind.TIMING_ANOMALY);
    List<Window> windows = VulnerableWindows.of(context.epochs(), context.clocks(), context.options().fixedVersion());
    Map<Integer, Mechanism> byDoc = new HashMap<>();
    BitSet never = new BitSet();
    BitSet refused = new BitSet();
    Observation[] observed = new Observation[context.reader().maxDoc()];
    RequestRows.forEach(context.reader(), row -> {
      if (refusedBeforePrefill(row)) {
        refused.set(row.doc());
      }
      List<String> foreign = new ArrayList<>();
      List<String> supporting = new ArrayList<>();
      String id = row.record().requestId();
      if (overLength.contains(id)) {
        foreign.add("over-length prompt accepted");
      }
      if (underrun.contains(id)) {
        foreign.add("prefill underrun");
      }
      if (row.facts().transferFailures() > 0) {
        foreign.add("KV transfer or bootstrap failure");
      }
      if (row.facts().canaryViolations() > 0) {
        foreign.add("KV canary violation");
      }
      if (row.facts().checksumMismatches() > 0) {
        foreign.add("KV checksum mismatch");
      }
      if (timing.contains(id)) {
        supporting.add("time to first token far below the prompt's prefill time");
      }
      RequestRecord r = row.record();
      if (r.startTime() != null && inWindow(windows, r.prefillNode(), r.startTime())) {
        supporting.add("served inside a vulnerable window of " + r.prefillNode());
      }
      boolean notPrefilled = overLength.contains(id) || underrun.contains(id);
      if (notPrefilled) {
        never.set(row.doc());
      }
      observed[row.doc()] = observation(row, timing.contains(id));
      if (!foreign.isEmpty() || !supporting.isEmpty()) {
        byDoc.put(row.doc(), new Mechanism(notPrefilled, foreign, supporting, observed[row.doc()]));
      }
    });
    return new Mechanisms(byDoc, observed, never, refused);
  }

  /** What the engine facts joined onto {@code row} let the logs show of how it was served. */
  static Observation observation(RequestRow row, boolean timingAnomaly) {
    EngineFacts facts = row.facts();
    return Observation.of(facts.events(), row.record().engineRid() != null, facts.prefillNode() != null,
        facts.decodeNode() != null, facts.engineInputLen() != null, timingAnomaly);
  }

  /**
   * Whether the request was turned away before any of it was prefilled: the engine logged a
   * rejection and the client got no success, or the client got a 4xx refusal. SGLang checks the
   * length in the tokenizer (a 400 to the client) and in the scheduler before prefill (an abort);
   * a gateway refuses bad, unauthorised or rate-limited requests before forwarding them. Not 408
   * or 499: a timeout or a client that hung up can come after the prefill.
   */
  static boolean refusedBeforePrefill(RequestRow row) {
    if (row.facts().rejected() && !row.record().succeeded()) {
      return true;
    }
    Integer status = row.record().statusCode();
    return status != null && status >= 400 && status < 500 && status != 408 && status != 499;
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

  /** Requests decoded over foreign KV, in document order. */
  public List<Integer> decodedOverForeignKv() {
    return byDoc.entrySet().stream().filter(e -> e.getValue().decodedOverForeignKv()).map(Map.Entry::getKey)
        .sorted().toList();
  }
}
