package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.Mechanisms;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
import io.kvscope.model.evidence.Candidates;
import io.kvscope.model.evidence.Decision;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.evidence.IdentifierFacts;
import io.kvscope.model.evidence.IdentifierRules;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.RuleChain;
import io.kvscope.model.evidence.SameQuestion;
import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.RequestHeader;
import io.kvscope.model.finding.Source;
import io.kvscope.index.store.Redaction;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.identifiers.Identifier.Category;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * Canary markers and rare identifiers a response carried that another request held before it.
 * One walk over the response identifiers' terms, each looked up among prompt identifiers: a
 * self-join through the index, not a query per response. For each (response, identifier) the facts
 * are gathered ({@link IdentifierFacts}: every request within reach of the response's decode pool
 * that held it, how many tenants hold it, whether the response's own prompt or the answer to the
 * same question explains it) and the rules of {@link IdentifierRules} decide, with the response's
 * mechanism facts, whether it is evidence and how sure.
 */
public final class IdentifierLeaks implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "identifier-leaks";

  /** Identifiers in more responses than this are boilerplate; their postings are not read further. */
  static final int MAX_RESPONSES_PER_IDENTIFIER = 500;
  /** Replies holding an identifier whose prompts are read to find the same question. */
  static final int MAX_SAME_QUESTION_READS = 8;


  private final Set<String> withoutRules;

  public IdentifierLeaks() {
    this(Set.of());
  }

  /** The analysis without the identifier rules named {@code withoutRules}: for measuring what each does. */
  public IdentifierLeaks(Set<String> withoutRules) {
    this.withoutRules = Set.copyOf(withoutRules);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Canary markers and rare identifiers in responses that came from another tenant's earlier request";
  }

  @Override
  public Set<String> requires() {
    Set<String> needed = new TreeSet<>(Mechanisms.REQUIRED);
    needed.add(CrossTenantOverlap.NAME); // a verified passage's sources are the likeliest origin of an identifier in it
    return needed;
  }

  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    RequestColumns columns = context.requestColumns();
    Mechanisms mechanisms = context.mechanisms();
    StalePageReach reach = context.reach();
    Terms responseTerms = MultiTerms.getTerms(context.reader(), Schema.IDENT_RESPONSE);
    Terms promptTerms = MultiTerms.getTerms(context.reader(), Schema.IDENT_PROMPT);
    if (responseTerms == null) {
      return;
    }
    RuleChain<IdentifierFacts> chain = IdentifierRules.chain().without(withoutRules);
    Map<String, Long> dropped = new TreeMap<>();
    TermsEnum inPrompts = promptTerms == null ? null : promptTerms.iterator();
    Map<Integer, List<Carried>> recipients = new TreeMap<>();
    Map<Integer, String> prompts = new HashMap<>();
    long common = 0;
    TermsEnum terms = responseTerms.iterator();
    PostingsEnum postings = null;
    for (BytesRef term = terms.next(); term != null; term = terms.next()) {
      if (terms.docFreq() > MAX_RESPONSES_PER_IDENTIFIER) {
        common++;
        continue;
      }
      List<Integer> received = live(postings = terms.postings(postings, PostingsEnum.NONE), columns, true);
      // A reply copy is a response received, never a holder: only requests hold an identifier.
      List<Integer> responders = received.stream().filter(columns::isRequest).toList();
      // A prompt copy holds it for its request, as a passage (PassageGatherer).
      List<Integer> prompters = inPrompts != null && inPrompts.seekExact(term)
          ? live(inPrompts.postings(null, PostingsEnum.NONE), columns, false) : List.of();
      String value = term.utf8ToString();
      Category category = Category.fromTerm(value);
      for (int recipient : received) {
        if (!columns.isRecipient(recipient)) {
          continue;
        }
        Mechanism mechanism = mechanisms.of(columns.requestDoc(recipient));
        IdentifierFacts facts = facts(recipient, category, mechanism, prompters, responders, columns, reach, prompts);
        Decision decision = chain.decide(mechanism, facts);
        if (!decision.kept()) {
          dropped.merge(decision.droppedBy(), 1L, Long::sum);
          continue;
        }
        recipients.computeIfAbsent(recipient, r -> new ArrayList<>()).add(new Carried(value, facts, decision));
      }
      if (!prompts.isEmpty() && prompts.size() > 4_096) {
        prompts.clear(); // bounded; prompts of one identifier's holders are what is reused
      }
    }
    context.parameter(NAME + ".max_tenants_for_rare", IdentifierRules.MAX_TENANTS_FOR_RARE);
    context.parameter(NAME + ".common_identifiers_skipped", common);
    context.parameter(NAME + ".dropped_by_rule", dropped);
    Map<String, Set<String>> spanSources = spanSources(context);
    ReplyCopyFindings onCopies = new ReplyCopyFindings(columns, mechanisms.namingAmbiguousRooms(findings));
    for (Map.Entry<Integer, List<Carried>> entry : recipients.entrySet()) {
      emit(entry.getKey(), entry.getValue(), mechanisms.of(columns.requestDoc(entry.getKey())), spanSources, columns,
          context.index().redaction(), onCopies);
    }
    onCopies.flush();
  }

  private static IdentifierFacts facts(int recipient, Category category, Mechanism mechanism, List<Integer> prompters,
      List<Integer> responders, RequestColumns columns, StalePageReach reach, Map<Integer, String> prompts)
      throws IOException {
    int request = columns.requestDoc(recipient);
    boolean ownPrompt = prompters.contains(request);
    prompters = onePromptPerRequest(prompters, recipient, columns);
    // By request: one that held it in a prompt (its own or a copy) is a prompt holder, once.
    Set<Integer> inPrompt = new HashSet<>();
    prompters.forEach(doc -> inPrompt.add(columns.requestDoc(doc)));
    Set<Integer> tenants = new HashSet<>();
    List<Integer> replyHolders = new ArrayList<>();
    Map<Integer, Holder> fromPrompts = new LinkedHashMap<>();
    Map<Integer, Holder> fromReplies = new LinkedHashMap<>();
    for (List<Integer> side : List.of(prompters, responders)) {
      for (int doc : side) {
        int holder = columns.requestDoc(doc);
        if (holder == request) {
          continue;
        }
        if (!clientsWordOnly(doc, columns)) {
          tenants.add(columns.tenant(doc)); // a trace's copy of a prompt adds no tenant
        }
        boolean reply = !inPrompt.contains(holder);
        if (reply) {
          replyHolders.add(doc);
        }
        Map<Integer, Holder> into = reply ? fromReplies : fromPrompts;
        if (!into.containsKey(holder) && reach.reaches(doc, recipient)) {
          into.put(holder, reach.holder(doc, recipient, reply));
        }
      }
    }
    // An identifier is the data of who wrote it into a prompt; a reply that carried it is a
    // possible origin only when no prompt within reach held it.
    Map<Integer, Holder> candidates = fromPrompts.isEmpty() ? fromReplies : fromPrompts;
    boolean heldInAPrompt = candidates.values().stream().anyMatch(h -> !h.inReply());
    boolean sameQuestion = false;
    if (!mechanism.neverPrefilled() && category != Category.CANARY && !replyHolders.isEmpty()) {
      String own = prompt(recipient, columns, prompts);
      for (int holder : columns.earliest(replyHolders, MAX_SAME_QUESTION_READS)) {
        if (SameQuestion.asked(own, prompt(holder, columns, prompts))) {
          sameQuestion = true;
          break;
        }
      }
    }
    return new IdentifierFacts(category.id(), columns.tenantName(recipient),
        candidates.values().stream().sorted(Holder.IN_REQUEST_ORDER).toList(),
        heldInAPrompt, tenants.size(), ownPrompt, sameQuestion);
  }

  /**
   * The docs of {@code prompters} that hold the identifier for their requests, one a request: its
   * kept prompt where that holds it, else the first of its copies that does. The recipient's own
   * copies are left to its kept prompt; a copy only a trace claims, for the recipient's own tenant,
   * is no holder (its writer may be the recipient's client), as for a passage.
   */
  private static List<Integer> onePromptPerRequest(List<Integer> prompters, int recipient, RequestColumns columns) {
    if (prompters.stream().allMatch(columns::isRequest)) {
      return prompters;
    }
    int request = columns.requestDoc(recipient);
    Map<Integer, Integer> kept = new TreeMap<>();
    for (int doc : prompters) {
      if (!columns.isRequest(doc) && (columns.requestDoc(doc) == request
          || clientsWordOnly(doc, columns) && columns.tenant(doc) == columns.tenant(recipient))) {
        continue;
      }
      kept.merge(columns.requestDoc(doc), doc, (a, b) -> columns.isRequest(a) || !columns.isRequest(b) && a < b ? a : b);
    }
    return List.copyOf(kept.values());
  }

  /** True for a copy of a prompt whose record ranks below the kept prompt's (a trace's). */
  private static boolean clientsWordOnly(int doc, RequestColumns columns) {
    RequestColumns.CopyOf copy = columns.promptCopy(doc);
    return copy != null && copy.copy().outranked();
  }

  private static String prompt(int doc, RequestColumns columns, Map<Integer, String> prompts) throws IOException {
    String text = prompts.get(doc);
    if (text == null && !prompts.containsKey(doc)) {
      text = columns.text(doc, Schema.PROMPT_TEXT);
      prompts.put(doc, text);
    }
    return text;
  }

  /**
   * The sources of each recipient's verified passages (cross-tenant and same-tenant): an identifier
   * one of them held most likely rode in on the same stale pages, so they are listed first.
   */
  private static Map<String, Set<String>> spanSources(AnalysisContext context) {
    Map<String, Set<String>> sources = new HashMap<>();
    for (Finding finding : context.findingsOf(CrossTenantOverlap.NAME)) {
      if (finding.kind() == FindingKind.CROSS_TENANT_OVERLAP || finding.kind() == FindingKind.SAME_TENANT_REUSE) {
        Set<String> ids = sources.computeIfAbsent(finding.requestId(), r -> new HashSet<>());
        finding.sources().forEach(source -> ids.add(source.requestId()));
      }
    }
    return sources;
  }

  /** Live requests of {@code postings}, with their reply copies for {@code replies}, else their prompt copies. */
  private static List<Integer> live(PostingsEnum postings, RequestColumns columns, boolean replies)
      throws IOException {
    List<Integer> docs = new ArrayList<>();
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      if (columns.isRequest(doc) || (replies ? columns.copy(doc) : columns.promptCopy(doc)) != null) {
        docs.add(doc);
      }
    }
    return docs;
  }

  /** An identifier a response carried, what is known about it and what the rules decided. */
  private record Carried(String term, IdentifierFacts facts, Decision decision) {

    /** Capped by the rule that lists an identifier on a normally served response for review. */
    boolean forReview() {
      return decision.verdicts().stream().anyMatch(v -> v.rule().equals(Evidence.OfLeak.SERVED_NORMALLY_RULE));
    }
  }

  private static void emit(int recipientDoc, List<Carried> carried, Mechanism mechanism,
      Map<String, Set<String>> spanSources, RequestColumns columns, Redaction redaction, ReplyCopyFindings findings)
      throws IOException {
    RequestHeader header = columns.header(recipientDoc);
    Set<String> passageSources = spanSources.getOrDefault(header.requestId(), Set.of());
    List<Carried> cross = carried.stream().filter(c -> !c.facts().sameTenantOnly()).toList();
    List<Carried> same = carried.stream().filter(c -> c.facts().sameTenantOnly()).toList();
    if (!cross.isEmpty()) {
      boolean canary = cross.stream().anyMatch(c -> c.facts().canary());
      findings.accept(recipientDoc, finding(canary ? FindingKind.CANARY_LEAK : FindingKind.RARE_IDENTIFIER_LEAK, header, cross,
          mechanism, passageSources, columns, redaction));
    }
    if (!same.isEmpty()) {
      findings.accept(recipientDoc, finding(FindingKind.SAME_TENANT_REUSE, header, same, mechanism, passageSources, columns, redaction));
    }
  }

  private static Finding finding(FindingKind kind, RequestHeader header, List<Carried> carried, Mechanism mechanism,
      Set<String> passageSources, RequestColumns columns, Redaction redaction) throws IOException {
    Map<Integer, SourceDraft> sources = new LinkedHashMap<>();
    Carried best = null;
    List<String> hashes = new ArrayList<>();
    Set<String> categories = new TreeSet<>();
    for (Carried c : carried) {
      List<Holder> ranked = new ArrayList<>(Candidates.ranked(c.facts().candidates()));
      ranked.sort(Comparator.comparing((Holder h) -> !passageSources.contains(h.requestId())));
      long tokens = Math.max(1, (c.term().length() - c.term().indexOf(':') - 1) / 4);
      for (Holder h : ranked) {
        // A request found through its own prompt and through a copy of it is one source.
        int found = columns.docOf(h);
        SourceDraft d = sources.computeIfAbsent(columns.requestDoc(found), r -> new SourceDraft(h));
        d.held.heldIn(columns.promptCopy(found));
        d.sole |= ranked.size() == 1;
        d.tokens += tokens;
      }
      // Keyed by the case: a hash of a phone number cannot be undone by trying every number.
      hashes.add(c.term().substring(0, c.term().indexOf(':')) + ":" + redaction.hash(c.term()));
      categories.add(c.facts().category());
      if (best == null || c.decision().confidence().ordinal() < best.decision().confidence().ordinal()
          || c.decision().confidence() == best.decision().confidence() && c.forReview() && !best.forReview()) {
        best = c;
      }
    }
    List<Source> list = new ArrayList<>();
    List<SourceDraft> ordered = new ArrayList<>(sources.values());
    ordered.sort(Comparator.comparing((SourceDraft d) -> !d.sole).thenComparing(d -> d.sole ? -d.tokens : 0L)
        .thenComparing(d -> d.holder, Candidates.MECHANISM_ORDER));
    for (SourceDraft d : ordered) {
      list.add(new Source(d.holder.requestId(), columns.engineRid(columns.docOf(d.holder)),
          d.holder.tenant(), d.tokens, List.of(), d.sole ? Attribution.SOLE : Attribution.CANDIDATE));
    }
    List<String> reasons = new ArrayList<>(best.decision().reasons());
    Map<String, PromptCopiesHeld> held = new LinkedHashMap<>();
    sources.values().forEach(d -> held.put(d.holder.requestId(), d.held));
    Confidence confidence = PromptCopiesHeld.note(best.decision().confidence(), held, reasons);
    Evidence.Identifier evidence = new Evidence.Identifier(List.copyOf(reasons), OverlapFindings.mechanism(mechanism),
        list.stream().allMatch(Source::sole) ? "sole" : "ambiguous", List.copyOf(categories), hashes.size(), hashes,
        Evidence.Identifier.NOTE);
    return header.finding(kind, confidence, list, evidence);
  }

  /** A source being assembled over the identifiers of one finding. */
  private static final class SourceDraft {
    final Holder holder;
    final PromptCopiesHeld held = new PromptCopiesHeld();
    boolean sole;
    long tokens;

    SourceDraft(Holder holder) {
      this.holder = holder;
    }
  }
}
