package io.kvscope.cli;

import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.Report;
import io.kvscope.samples.truth.DecoyTruth;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.SourceTruth;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How a report scores against a generated incident's truth, in the figures the quality gate asks
 * for: leaked responses found against true, confirmed false positives, recall of the leaks that
 * carry a fragment of at least {@value #SIGNIFICANT_WORDS} words or an identifier, whether every
 * true source is among the sources reported for its response, how often a sole attribution is
 * right, and how many sources a leak names on average.
 *
 * <p>A true source is named when a counted finding of its response names it, and listed when any
 * cross-tenant finding of a response found leaked does, a suspect passage's candidates included
 * (a short run many tenants hold, on a response leaked through other passages): the gate asks that
 * every true source be listed, so that the report shows each one somewhere for its response.
 *
 * <p>A same-tenant reuse reported as a leak is a false one, unless nothing in the logs could tell
 * it apart: every fragment it carried another tenant's request within reach also held (the truth
 * says so), and the range the report states for its leaked count holds the truth. Such a response
 * counts neither as a false leak nor as a trap, and the score says how many there were.
 *
 * <p>Everything is scored from the truth and the report's own figures alone, never with the
 * analysis' code, so that a fault there shows. Missed leaks and false leaks are counted as sets,
 * not derived from a printed ratio. The gate cannot pass by naming nothing or everything: every
 * source the truth shows was the only holder within reach of a fragment of {@value #SOLE_WORDS} words
 * or more, or of an identifier, must be named sole ({@code soleExpected}; a shorter fragment many
 * tenants hold is named a candidate, and the truth does not know how many hold it), and a leak may name at most as many
 * sources as requests within reach held its fragments, plus {@value #CANDIDATE_SLACK} on average.
 *
 * <p>Fragments the truth marks not expected to be found (under the 12-word floor, a canary in another
 * format than kvscope's) are scored apart: a leak that carried only such fragments is not missed
 * when the report does not count it, and is shown on its own line. The truth's decoys (questions
 * answered as another tenant's were, served normally; stub replies opening with text many tenants
 * hold) are shown too: a decoy counted leaked, or a common opening's holder named sole, is an error.
 */
record QualityScore(
    Set<String> leakedTruth,
    Set<String> leakedFound,
    Set<String> confirmedFalsePositives,
    Set<String> significantTruth,
    Set<String> significantFound,
    int trueSources,
    int trueSourcesNamed,
    int trueSourcesListed,
    int soleAttributions,
    int soleAttributionsRight,
    double candidatesPerLeak,
    Set<String> overLengthTruth,
    Set<String> overLengthFound,
    Set<String> underrunTruth,
    Set<String> underrunFound,
    long trapsAsLeaks,
    Set<String> trapsWithinRange,
    long leakedAtLeast,
    Set<String> soleExpected,
    Set<String> soleNamedRight,
    double holdersPerLeak,
    long reviewListed,
    Set<String> notExpected,
    Set<String> servedDecoys,
    Set<String> servedDecoysReviewed,
    int commonOpenings,
    int commonOpeningHoldersSole) {

  /**
   * A leak with a fragment this long, or an identifier, must be found: the analysis's floor over
   * foreign KV, the shortest run it promises to find.
   */
  static final int SIGNIFICANT_WORDS = PassageRules.MIN_WORDS;

  /** A source that alone held a fragment this long within reach must be named sole. */
  static final int SOLE_WORDS = 32;

  /** Sources named per leak may exceed the truth's holders within reach per leak by this much on average. */
  static final double CANDIDATE_SLACK = 0.5;

  static QualityScore of(GroundTruth truth, Report report) {
    Map<String, Set<String>> namedSources = new HashMap<>();
    Map<String, Set<String>> listedSources = new HashMap<>();
    Map<String, Set<String>> soleSources = new HashMap<>();
    Set<String> confirmed = new HashSet<>();
    for (Finding f : report.findings()) {
      if (!f.kind().isCrossTenantLeak() || f.requestId() == null) {
        continue;
      }
      for (Source s : f.sources()) {
        if (s.tenant() != null && !s.tenant().equals(f.tenant())) {
          listedSources.computeIfAbsent(f.requestId(), id -> new HashSet<>()).add(s.requestId());
        }
      }
      if (!f.isCountedLeak()) {
        continue;
      }
      if (f.confidence() == Confidence.CONFIRMED) {
        confirmed.add(f.requestId());
      }
      for (Source s : f.sources()) {
        if (s.tenant() != null && !s.tenant().equals(f.tenant())) {
          namedSources.computeIfAbsent(f.requestId(), id -> new HashSet<>()).add(s.requestId());
          if (s.sole()) {
            soleSources.computeIfAbsent(f.requestId(), id -> new HashSet<>()).add(s.requestId());
          }
        }
      }
    }
    Set<String> found = requests(report, FindingKind::isCrossTenantLeak);
    Set<String> leakedTruth = truth.leakedRequestIds();
    Set<String> notExpected = new HashSet<>(leakedTruth);
    notExpected.removeAll(truth.expectedLeakIds());
    // A leak no analysis is expected to find that the report did not count is out of every figure but its own.
    Set<String> unfound = new HashSet<>(notExpected);
    unfound.removeAll(found);
    Set<String> falseConfirmed = new HashSet<>(confirmed);
    falseConfirmed.removeAll(leakedTruth);
    Set<String> significant = new HashSet<>();
    int trueSources = 0;
    int named = 0;
    int listed = 0;
    Map<String, Set<String>> truthSources = new HashMap<>();
    // Every true source, those not expected to be found too: naming one sole is right.
    Map<String, Set<String>> anySource = new HashMap<>();
    truth.leakedResponses().forEach(l -> l.sources().forEach(
        s -> anySource.computeIfAbsent(l.requestId(), id -> new HashSet<>()).add(s.requestId())));
    for (LeakTruth leak : truth.leakedResponses()) {
      if (unfound.contains(leak.requestId())) {
        continue;
      }
      for (SourceTruth s : leak.sources()) {
        if (!s.expected()) {
          continue;
        }
        if ("identifier".equals(s.kind()) || s.words() >= SIGNIFICANT_WORDS) {
          significant.add(leak.requestId());
        }
        if (truthSources.computeIfAbsent(leak.requestId(), id -> new HashSet<>()).add(s.requestId())) {
          trueSources++;
          if (namedSources.getOrDefault(leak.requestId(), Set.of()).contains(s.requestId())) {
            named++;
          }
          if (found.contains(leak.requestId())
              && listedSources.getOrDefault(leak.requestId(), Set.of()).contains(s.requestId())) {
            listed++;
          }
        }
      }
    }
    int sole = 0;
    int soleRight = 0;
    Set<String> soleNamedRight = new HashSet<>();
    for (Map.Entry<String, Set<String>> e : soleSources.entrySet()) {
      for (String source : e.getValue()) {
        sole++;
        if (anySource.getOrDefault(e.getKey(), Set.of()).contains(source)) {
          soleRight++;
          soleNamedRight.add(e.getKey() + " <- " + source);
        }
      }
    }
    // (response <- source) pairs the truth shows were the only holder within reach of a fragment that must be found.
    Set<String> soleExpected = new HashSet<>();
    Map<String, Set<String>> holders = new HashMap<>();
    List<LeakTruth> countable = truth.leakedResponses().stream().filter(l -> !unfound.contains(l.requestId())).toList();
    for (LeakTruth leak : countable) {
      for (SourceTruth s : leak.sources()) {
        // A leak found although none of its fragments was expected to be may name their holders too.
        if (s.expected() && s.soleHolder() && ("identifier".equals(s.kind()) || s.words() >= SOLE_WORDS)) {
          soleExpected.add(leak.requestId() + " <- " + s.requestId());
        }
        s.holders().stream().filter(h -> !h.tenant().equals(leak.tenant()))
            .forEach(h -> holders.computeIfAbsent(leak.requestId(), id -> new HashSet<>()).add(h.requestId()));
      }
    }
    Set<String> servedDecoys = new HashSet<>();
    int openings = 0;
    int openingSole = 0;
    for (DecoyTruth d : truth.decoys()) {
      if (d.servedNormally()) {
        servedDecoys.add(d.requestId());
        continue;
      }
      openings++;
      // Its one holder within reach is a request the report may name a candidate, as the truth's holders.
      d.holders().forEach(h -> holders.computeIfAbsent(d.requestId(), id -> new HashSet<>()).add(h.requestId()));
      Set<String> sources = anySource.getOrDefault(d.requestId(), Set.of());
      Set<String> namedSole = soleSources.getOrDefault(d.requestId(), Set.of());
      if (d.holders().stream().anyMatch(h -> namedSole.contains(h.requestId()) && !sources.contains(h.requestId()))) {
        openingSole++;
      }
    }
    double holdersPerLeak = countable.isEmpty() ? 0 : countable.stream()
        .mapToInt(l -> holders.getOrDefault(l.requestId(), Set.of()).size()).average().orElse(0);
    double candidates = found.isEmpty() ? 0
        : found.stream().mapToInt(id -> namedSources.getOrDefault(id, Set.of()).size()).average().orElse(0);
    Set<String> significantFound = new HashSet<>(significant);
    significantFound.retainAll(found);
    Set<String> sameTenantOnly = new HashSet<>();
    truth.sameTenantReuse().stream().map(LeakTruth::requestId).forEach(sameTenantOnly::add);
    long traps = found.stream().filter(sameTenantOnly::contains).count();
    Set<String> withinRange = new HashSet<>(found);
    withinRange.retainAll(truth.sameTenantReuse().stream()
        .filter(LeakTruth::anotherTenantHeldEveryFragment).map(LeakTruth::requestId).toList());
    Set<String> reviewed = new HashSet<>();
    report.review().forEach(r -> reviewed.add(r.requestId()));
    reviewed.retainAll(servedDecoys);
    leakedTruth.removeAll(unfound);
    return new QualityScore(leakedTruth, found, falseConfirmed, significant, significantFound, trueSources, named, listed,
        sole, soleRight, candidates, truth.overLengthAcceptedIds(),
        requests(report, k -> k == FindingKind.OVER_LENGTH_ACCEPTED), truth.prefillUnderrunIds(),
        requests(report, k -> k == FindingKind.PREFILL_UNDERRUN), traps, withinRange,
        report.summary().leakedResponsesAtLeast(), soleExpected, soleNamedRight, holdersPerLeak,
        report.review().size(), notExpected, servedDecoys, reviewed, openings, openingSole);
  }

  private static Set<String> requests(Report report, Predicate<FindingKind> kind) {
    Set<String> ids = new HashSet<>();
    for (Finding f : report.findings()) {
      if (kind.test(f.kind()) && f.confidence().counts() && f.requestId() != null) {
        ids.add(f.requestId());
      }
    }
    return ids;
  }

  /** True leaks the report did not count. */
  Set<String> missedLeaks() {
    Set<String> missed = new HashSet<>(leakedTruth);
    missed.removeAll(leakedFound);
    return missed;
  }

  /** Responses counted leaked that carried no other tenant's data, less the traps no log can tell from a leak. */
  Set<String> falseLeaks() {
    Set<String> wrong = new HashSet<>(leakedFound);
    wrong.removeAll(leakedTruth);
    wrong.removeAll(trapsWithinRange);
    return wrong;
  }

  /** False leaks counted at {@code probable}: the text-alone class. */
  Set<String> probableFalsePositives() {
    Set<String> wrong = falseLeaks();
    wrong.removeAll(confirmedFalsePositives);
    return wrong;
  }

  /** Sources the truth shows were the only holder within reach that the report did not name sole. */
  Set<String> soleMissed() {
    Set<String> missed = new HashSet<>(soleExpected);
    missed.removeAll(soleNamedRight);
    return missed;
  }

  boolean leakedRangeHoldsTruth() {
    return leakedTruth.size() >= leakedAtLeast && leakedTruth.size() <= leakedFound.size();
  }

  /** The report names no more sources per leak than requests within reach held its fragments, plus the slack. */
  boolean candidatesWithinHolders() {
    return candidatesPerLeak <= holdersPerLeak + CANDIDATE_SLACK;
  }

  /** Decoys served normally that the report counted leaked. */
  Set<String> servedDecoysCounted() {
    Set<String> counted = new HashSet<>(servedDecoys);
    counted.retainAll(leakedFound);
    return counted;
  }

  /** Everything the gate asks for holds. */
  boolean passes() {
    return missedLeaks().isEmpty() && falseLeaks().isEmpty() && leakedRangeHoldsTruth()
        && significantFound.size() == significantTruth.size() && trueSourcesListed == trueSources
        && soleAttributionsRight == soleAttributions && soleMissed().isEmpty() && candidatesWithinHolders()
        && overLengthFound.equals(overLengthTruth) && underrunFound.equals(underrunTruth)
        && trapsAsLeaks == trapsWithinRange.size() && servedDecoysCounted().isEmpty()
        && commonOpeningHoldersSole == 0;
  }

  /** The report's lines, one figure each, as {@code kvscope score} prints them. */
  List<String> lines() {
    return List.of(
        set("leaked responses", leakedTruth, leakedFound),
        String.format("%-22s reported %d to %d, truth %d %s", "leaked range", leakedAtLeast, leakedFound.size(),
            leakedTruth.size(),
            leakedTruth.size() >= leakedAtLeast && leakedTruth.size() <= leakedFound.size() ? "within" : "outside"),
        String.format("%-22s %d true leaked responses not counted", "missed leaks", missedLeaks().size()),
        String.format("%-22s %d responses counted leaked that carried no other tenant's data, %d of them probable",
            "false leaks", falseLeaks().size(), probableFalsePositives().size()),
        String.format("%-22s %d responses reported confirmed that carried no other tenant's data",
            "confirmed false pos.", confirmedFalsePositives.size()),
        String.format("%-22s truth %5d  found %5d  recall %.3f   (a fragment of >= %d words or an identifier)",
            "significant leaks", significantTruth.size(), significantFound.size(),
            ratio(significantFound.size(), significantTruth.size()), SIGNIFICANT_WORDS),
        String.format("%-22s %d of %d true sources among the sources its counted findings name, %d with the"
            + " candidates of its suspect passages", "true sources named", trueSourcesNamed, trueSources,
            trueSourcesListed),
        String.format("%-22s %d sole attributions, %d right, precision %.3f", "sole attributions",
            soleAttributions, soleAttributionsRight, ratio(soleAttributionsRight, soleAttributions)),
        String.format("%-22s %d sources the truth shows were the only holder within reach of %d words or an"
            + " identifier, %d of them named sole", "sole expected", soleExpected.size(), SOLE_WORDS,
            soleExpected.size() - soleMissed().size()),
        String.format("%-22s %.2f sources named per leaked response found, truth %.2f holders within reach per leak %s",
            "candidates per leak", candidatesPerLeak, holdersPerLeak, candidatesWithinHolders() ? "within" : "beyond"),
        String.format("%-22s %d responses listed for review (text shared with one other tenant on a normally served"
            + " response), never counted", "review list", reviewListed),
        set("over-length accepted", overLengthTruth, overLengthFound),
        set("prefill underruns", underrunTruth, underrunFound),
        String.format("%-22s %d same-tenant-only responses reported as cross-tenant, %d of them counted in the"
            + " range and held by another tenant within reach too", "traps", trapsAsLeaks, trapsWithinRange.size()),
        String.format("%-22s %d leaked responses carry only fragments under %d words or canaries in another format:"
            + " not expected, not counted as missed; %d of them found", "not expected", notExpected.size(),
            SIGNIFICANT_WORDS, intersection(notExpected, leakedFound)),
        String.format("%-22s %d questions answered as another tenant's were, served normally: %d counted leaked, %d"
            + " in the review list; %d stub replies opening with text many tenants hold: %d of their one holder within"
            + " reach named sole", "decoys", servedDecoys.size(), servedDecoysCounted().size(),
            servedDecoysReviewed.size(), commonOpenings, commonOpeningHoldersSole));
  }

  double leakedPrecision() {
    return ratio(intersection(leakedFound, leakedTruth), leakedFound.size());
  }

  private static String set(String name, Set<String> truth, Set<String> found) {
    int hit = intersection(found, truth);
    return String.format("%-22s truth %5d  found %5d  precision %.3f  recall %.3f", name, truth.size(), found.size(),
        ratio(hit, found.size()), ratio(hit, truth.size()));
  }

  private static int intersection(Set<String> a, Set<String> b) {
    Set<String> hit = new HashSet<>(a);
    hit.retainAll(b);
    return hit.size();
  }

  private static double ratio(int part, int whole) {
    return whole == 0 ? 1 : (double) part / whole;
  }
}
