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
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
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
  private final SpanVerifier verifier;
  private final TokenizedTextCache sourceTexts;
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
  private int minWords;
  private final List<Passages.Verified> verified = new ArrayList<>();

  OverlapRecipients(RequestColumns columns, Mechanisms mechanisms, SpanVerifier verifier,
      TokenizedTextCache sourceTexts, PassageGatherer gatherer, RuleChain<PassageFacts> chain, OverlapFindings build,
      RecipientFindings findings) {
    this.columns = columns;
    this.mechanisms = mechanisms;
    this.verifier = verifier;
    this.sourceTexts = sourceTexts;
    this.gatherer = gatherer;
    this.chain = chain;
    this.build = build;
    this.findings = findings;
  }

  void accept(Candidate candidate) throws IOException {
    if (recipient == null || candidate.recipientDoc() != recipient.doc) {
      finish();
      int doc = candidate.recipientDoc();
      String response = columns.text(doc, Schema.RESPONSE_TEXT);
      Mechanism mechanism = mechanisms.of(columns.requestDoc(doc)); // a reply copy was served as its request
      recipient = new PassageGatherer.Recipient(doc, mechanism, response == null ? null : WordTokenizer.tokenize(response));
      minWords = PassageRules.minimumWords(mechanism, verifier.config().threshold());
    }
    if (recipient.response == null) {
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
    TokenizedText text = sourceTexts.get(source, reply ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT);
    if (text == null) {
      return;
    }
    for (SharedSpan span : verifier.verify(recipient.response, text, minWords)) {
      for (SpanMatch part : span.parts()) {
        verified.add(new Passages.Verified(source, reply, part));
      }
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
  }

  private void judge() throws IOException {
    if (!recipient.mechanism.neverPrefilled()) {
      // The own prompt (often the largest text around) is read once a passage is found, not before.
      recipient.prompt = columns.text(recipient.doc, Schema.PROMPT_TEXT);
      TokenizedText prompt = recipient.prompt == null ? null : WordTokenizer.tokenize(recipient.prompt);
      // Down to the shortest run that counts anywhere, not this response's minimum: a quote of the
      // prompt under 2T words behind a common lead-in ("The document says:") makes a longer run.
      recipient.ownPromptRanges = prompt == null ? List.of()
          : verifier.verify(recipient.response, prompt, PassageRules.MIN_WORDS).stream().map(SharedSpan::recipient)
              .toList();
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
