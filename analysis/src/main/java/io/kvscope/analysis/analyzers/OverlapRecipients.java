package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.Mechanisms;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.model.evidence.Decision;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.PassageFacts;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.evidence.RuleChain;
import io.kvscope.model.evidence.Verdict;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.model.fingerprint.SpanMatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Verifies candidates one recipient at a time (every pass hands them over grouped by recipient),
 * then judges the recipient's passages and emits its findings.
 */
final class OverlapRecipients {

  private final RequestColumns columns;
  private final Mechanisms mechanisms;
  private final int t;
  private final PassageGatherer gatherer;
  private final RuleChain<PassageFacts> chain;
  private final OverlapFindings build;
  private final RecipientFindings findings;
  long verifiedPairs;
  long rejectedPairs;
  long passages;
  long factNanos;
  final Map<String, Long> droppedByRule = new TreeMap<>();
  final Map<String, Long> cappedByRule = new TreeMap<>();

  private PassageGatherer.Recipient recipient;
  private VerifiedRuns runs;
  private int minWords;
  private final List<Passages.Verified> verified = new ArrayList<>();

  /** @param t T, the analysis' minimum span, which a recipient's minimum run follows from */
  OverlapRecipients(RequestColumns columns, Mechanisms mechanisms, int t, PassageGatherer gatherer,
      RuleChain<PassageFacts> chain, OverlapFindings build, RecipientFindings findings) {
    this.columns = columns;
    this.mechanisms = mechanisms;
    this.t = t;
    this.gatherer = gatherer;
    this.chain = chain;
    this.build = build;
    this.findings = findings;
  }

  /** Verifies {@code candidate} with the runs of {@code from}, which serves all of its recipient's candidates. */
  void accept(Candidate candidate, VerifiedRuns from) throws IOException {
    if (recipient == null || candidate.recipientDoc() != recipient.doc) {
      finish();
      int doc = candidate.recipientDoc();
      Mechanism mechanism = mechanisms.of(columns.requestDoc(doc)); // a reply copy was served as its request
      recipient = new PassageGatherer.Recipient(doc, mechanism, columns);
      runs = from;
      minWords = PassageRules.minimumWords(mechanism, t);
    }
    if (!runs.verifies(recipient)) {
      return;
    }
    int before = verified.size();
    int source = candidate.sourceDoc();
    if (!gatherer.mayHold(source, recipient.doc)) {
      rejectedPairs++;
      return;
    }
    if (candidate.sharedWithSourceResponse() > 0) {
      collect(source, true);
    }
    if (candidate.sharedWithSourcePrompt() > 0) {
      collect(source, false);
    }
    if (verified.size() > before) {
      verifiedPairs++;
    } else {
      rejectedPairs++;
    }
  }

  private void collect(int source, boolean reply) throws IOException {
    for (SpanMatch part : runs.withSource(recipient, source, reply, minWords)) {
      verified.add(new Passages.Verified(source, reply, part));
    }
  }

  /** Token ranges {start, end} of {@code doc}'s response verified so far (none unless it is the current recipient). */
  List<int[]> coveredTokens(int doc) {
    if (recipient == null || recipient.doc != doc) {
      return List.of();
    }
    return verified.stream().map(v -> new int[] {v.match().recipient().tokenStart(), v.match().recipient().tokenEnd()})
        .toList();
  }

  /** Judges the current recipient's passages and emits its findings. */
  void finish() throws IOException {
    if (recipient != null && !verified.isEmpty()) {
      judge();
    }
    verified.clear();
    recipient = null;
    runs = null;
  }

  private void judge() throws IOException {
    if (!recipient.mechanism.neverPrefilled()) {
      // The own prompt (often the largest text around) is verified once a passage is found, not before.
      recipient.ownPromptRanges = runs.withOwnPrompt(recipient);
    }
    List<OverlapFindings.Judged> kept = new ArrayList<>();
    for (Passages.Passage passage : Passages.of(verified)) {
      passages++;
      long started = CpuClock.now();
      PassageFacts facts = gatherer.facts(recipient, passage.range(), fallback(passage));
      factNanos += CpuClock.now() - started;
      Decision decision = chain.decide(recipient.mechanism, facts);
      for (Verdict v : decision.verdicts()) {
        if (v.effect() == Verdict.Effect.CAP) {
          cappedByRule.merge(v.rule(), 1L, Long::sum);
        }
      }
      if (!decision.kept()) {
        droppedByRule.merge(decision.droppedBy(), 1L, Long::sum);
        continue;
      }
      kept.add(new OverlapFindings.Judged(passage, facts, decision));
    }
    build.emit(recipient, kept, findings);
  }

  /** The verified sources of exactly this passage, should the word-for-word lookup miss them. */
  private List<Holder> fallback(Passages.Passage passage) throws IOException {
    List<Holder> holders = new ArrayList<>();
    for (Passages.Verified v : passage.exact()) {
      if (holders.stream().noneMatch(h -> h.request() == columns.order(v.doc()))) {
        holders.add(gatherer.holder(v.doc(), recipient.doc, v.inReply()));
      }
    }
    return holders;
  }
}
