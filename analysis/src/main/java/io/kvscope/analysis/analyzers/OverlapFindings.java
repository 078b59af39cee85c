package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.model.evidence.Candidates;
import io.kvscope.model.evidence.Decision;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.PassageFacts;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.RequestHeader;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.identifiers.Identifier;
import io.kvscope.model.identifiers.IdentifierExtractor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a recipient's kept passages into findings: a cross-tenant overlap for passages another
 * tenant held, same-tenant reuse for those only the recipient's own tenant held. Every request
 * within reach that held a passage is a source: {@code sole} when it was the only one for some
 * passage, {@code candidate} otherwise, listed in the mechanism's order ({@link Candidates}).
 * The finding's confidence is its best passage's, and the evidence lists each passage's facts and
 * the rules that decided it.
 */
final class OverlapFindings {

  /** Passages described one by one in a finding's evidence (the rest are counted). */
  static final int PASSAGES_IN_EVIDENCE = 20;

  private final RequestColumns columns;
  private final SpanVerifier verifier;
  private final TokenizedTextCache sourceTexts;
  private final IdentifierExtractor identifiers = new IdentifierExtractor();

  OverlapFindings(RequestColumns columns, SpanVerifier verifier, TokenizedTextCache sourceTexts) {
    this.columns = columns;
    this.verifier = verifier;
    this.sourceTexts = sourceTexts;
  }

  /** A passage the rules kept, with its facts and their decision. */
  record Judged(Passages.Passage passage, PassageFacts facts, Decision decision) {

    /** Capped by the rule that lists text on a normally served response for review. */
    boolean forReview() {
      return decision.verdicts().stream().anyMatch(v -> v.rule().equals(Evidence.OfLeak.SERVED_NORMALLY_RULE));
    }
  }

  /**
   * The passage whose rules a finding quotes: the surest; among equally sure ones, one listed for
   * review (so that the finding is listed too), then the longest.
   */
  private static final Comparator<Judged> BEST_FIRST = Comparator
      .comparing((Judged j) -> j.decision().confidence().ordinal())
      .thenComparing(j -> !j.forReview())
      .thenComparing(j -> -j.passage().range().tokenCount());

  void emit(PassageGatherer.Recipient recipient, List<Judged> kept, RecipientFindings findings) throws IOException {
    List<Judged> cross = kept.stream().filter(j -> !j.facts().sameTenantOnly()).toList();
    List<Judged> same = kept.stream().filter(j -> j.facts().sameTenantOnly()).toList();
    RequestHeader header = columns.header(recipient.doc);
    if (!cross.isEmpty()) {
      findings.accept(recipient.doc, finding(FindingKind.CROSS_TENANT_OVERLAP, recipient, header, cross));
    }
    if (!same.isEmpty()) {
      findings.accept(recipient.doc, finding(FindingKind.SAME_TENANT_REUSE, recipient, header, same));
    }
  }

  private Finding finding(FindingKind kind, PassageGatherer.Recipient recipient, RequestHeader header, List<Judged> passages)
      throws IOException {
    Map<Integer, SourceDraft> sources = new LinkedHashMap<>();
    Set<String> categories = new TreeSet<>();
    int longest = 0;
    Judged best = null;
    String replyCopy = where(columns.copy(recipient.doc));
    for (Judged j : passages) {
      TextRange range = j.passage().range();
      List<Holder> ranked = Candidates.ranked(j.facts().candidates());
      for (Holder h : ranked) {
        // A request found through its own prompt and through a copy of it is one source.
        int found = columns.docOf(h);
        SourceDraft draft = sources.computeIfAbsent(columns.requestDoc(found), d -> new SourceDraft(h));
        RequestColumns.CopyOf promptCopy = columns.promptCopy(found);
        draft.held.heldIn(promptCopy);
        draft.sole |= PassageRules.makesSoleSource(j.facts(), j.decision());
        draft.tokens += range.tokenCount();
        Span span = span(recipient.response(), j.passage(), h);
        if (span != null) {
          draft.spans.add(replyCopy == null && promptCopy == null ? span : span.inCopies(replyCopy, where(promptCopy)));
        }
      }
      longest = Math.max(longest, range.tokenCount());
      for (Identifier id : identifiers.extract(recipient.response().text().substring(range.charStart(), range.charEnd()))) {
        categories.add(id.category().id());
      }
      if (best == null || BEST_FIRST.compare(j, best) < 0) {
        best = j;
      }
    }
    List<Source> list = new ArrayList<>();
    List<SourceDraft> ordered = new ArrayList<>(sources.values());
    // Sole sources first (most tokens first), then candidates in the mechanism's order.
    ordered.sort(Comparator.comparing((SourceDraft d) -> !d.sole).thenComparing(d -> d.sole ? -d.tokens : 0L)
        .thenComparing(d -> d.holder, Candidates.MECHANISM_ORDER));
    for (SourceDraft d : ordered) {
      list.add(new Source(d.holder.requestId(), columns.engineRid(columns.docOf(d.holder)), d.holder.tenant(), d.tokens, d.spans,
          d.sole ? Attribution.SOLE : Attribution.CANDIDATE));
    }
    List<String> reasons = new ArrayList<>(best.decision().reasons());
    Map<String, PromptCopiesHeld> held = new LinkedHashMap<>();
    sources.values().forEach(d -> held.put(d.holder.requestId(), d.held));
    Confidence confidence = PromptCopiesHeld.note(best.decision().confidence(), held, reasons);
    Evidence evidence = new Evidence.Overlap(List.copyOf(reasons), mechanism(recipient.mechanism),
        list.stream().allMatch(Source::sole) ? "sole" : "ambiguous", list.stream().filter(Source::sole).count(),
        list.stream().filter(s -> !s.sole()).count(), longest, passages.size(),
        passages.stream().limit(PASSAGES_IN_EVIDENCE).map(OverlapFindings::describe).toList(),
        sources.values().stream().mapToLong(d -> (columns.start(recipient.doc) - d.holder.start()) / 1000).min().orElse(0),
        List.copyOf(categories));
    return header.finding(kind, confidence, list, evidence);
  }

  /** The record a copy was read from, as a span names it; null for a kept text. */
  private static String where(RequestColumns.CopyOf copy) {
    return copy == null ? null : copy.copy().where();
  }

  static Evidence.LeakMechanism mechanism(Mechanism m) {
    return new Evidence.LeakMechanism(m.foreignKv(), m.neverPrefilled(), m.supporting());
  }

  private static Evidence.Overlap.Passage describe(Judged j) {
    TextRange range = j.passage().range();
    return new Evidence.Overlap.Passage(j.facts().words(), range.charStart(), range.charEnd(), j.decision().confidence(),
        j.facts().candidates().size(), j.facts().candidateTenants().size(), j.facts().tenantsInIndex(),
        j.decision().reasons());
  }

  /**
   * Where the passage sits in the holder's text: from the verified match when the holder was
   * verified on exactly this passage, else by verifying its text now; null when its words do not
   * line up (the lookup's and the verifier's words differ at an odd edge).
   */
  private Span span(TokenizedText response, Passages.Passage passage, Holder holder) throws IOException {
    TextRange range = passage.range();
    String field = holder.inReply() ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT;
    for (Passages.Verified v : passage.exact()) {
      if (columns.order(v.doc()) == holder.request() && v.inReply() == holder.inReply()) {
        TextRange src = v.match().source();
        return new Span(range.charStart(), range.charEnd(), field, src.charStart(), src.charEnd(), range.tokenCount());
      }
    }
    TokenizedText text = sourceTexts.get(columns.docOf(holder), field);
    if (text == null) {
      return null;
    }
    int min = Math.max(verifier.config().k(), Math.min(range.tokenCount(), PassageRules.MIN_WORDS));
    for (SharedSpan shared : verifier.verify(response, text, min)) {
      for (SpanMatch m : shared.parts()) {
        TextRange r = m.recipient();
        if (r.tokenStart() <= range.tokenStart() && r.tokenEnd() >= range.tokenEnd()) {
          int from = m.source().tokenStart() + range.tokenStart() - r.tokenStart();
          int to = from + range.tokenCount();
          return new Span(range.charStart(), range.charEnd(), field, text.start(from), text.end(to - 1),
              range.tokenCount());
        }
      }
    }
    return null;
  }

  /** A source being assembled over the passages of one finding. */
  private static final class SourceDraft {
    final Holder holder;
    final List<Span> spans = new ArrayList<>();
    final PromptCopiesHeld held = new PromptCopiesHeld();
    boolean sole;
    long tokens;

    SourceDraft(Holder holder) {
      this.holder = holder;
    }
  }
}
