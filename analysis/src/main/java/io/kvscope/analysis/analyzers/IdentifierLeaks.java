package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.index.Redaction;
import io.kvscope.index.Schema;
import io.kvscope.index.identifiers.Identifier.Category;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * Canary markers and rare identifiers that a response carries, its own prompt does not explain,
 * and another request held earlier. One walk over the response identifiers' terms, each looked
 * up among prompt identifiers: a self-join through the index, not a query per response.
 *
 * <p>An identifier seen across more than {@value #MAX_TENANTS_FOR_RARE} tenants is public (a
 * support address, a documented example key) and proves nothing. A canary is proof: it is planted
 * in one request and must never appear elsewhere.
 */
public final class IdentifierLeaks implements Analyzer {

  static final int MAX_TENANTS_FOR_RARE = 3;
  /** Identifiers in more responses than this are boilerplate; their postings are not read further. */
  static final int MAX_RESPONSES_PER_IDENTIFIER = 500;

  @Override
  public String name() {
    return "identifier-leaks";
  }

  @Override
  public String description() {
    return "Canary markers and rare identifiers in responses that came from another tenant's earlier request";
  }

  @Override
  public int order() {
    return 410;
  }

  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    RequestColumns columns = RequestColumns.load(context);
    long horizon = context.options().sourceHorizon().toMillis();
    Terms responseTerms = MultiTerms.getTerms(context.reader(), Schema.IDENT_RESPONSE);
    Terms promptTerms = MultiTerms.getTerms(context.reader(), Schema.IDENT_PROMPT);
    if (responseTerms == null) {
      return;
    }
    TermsEnum inPrompts = promptTerms == null ? null : promptTerms.iterator();
    Map<Integer, Recipient> recipients = new TreeMap<>();
    long common = 0;
    TermsEnum terms = responseTerms.iterator();
    PostingsEnum postings = null;
    for (BytesRef term = terms.next(); term != null; term = terms.next()) {
      if (terms.docFreq() > MAX_RESPONSES_PER_IDENTIFIER) {
        common++;
        continue;
      }
      List<Integer> responders = live(postings = terms.postings(postings, PostingsEnum.NONE), columns);
      List<Integer> prompters = inPrompts != null && inPrompts.seekExact(term)
          ? live(inPrompts.postings(null, PostingsEnum.NONE), columns) : List.of();
      String value = term.utf8ToString();
      Category category = Category.fromTerm(value);
      Set<Integer> tenants = new HashSet<>();
      responders.forEach(d -> tenants.add(columns.tenant(d)));
      prompters.forEach(d -> tenants.add(columns.tenant(d)));
      if (category != Category.CANARY && tenants.size() > MAX_TENANTS_FOR_RARE) {
        common++;
        continue;
      }
      Set<Integer> ownPrompt = new HashSet<>(prompters);
      for (int recipient : responders) {
        if (!columns.isRecipient(recipient) || ownPrompt.contains(recipient)) {
          continue; // the recipient's own prompt explains it
        }
        int source = likeliestSource(recipient, prompters, responders, columns, horizon);
        if (source >= 0) {
          recipients.computeIfAbsent(recipient, r -> new Recipient()).add(source, category, value, columns);
        }
      }
    }
    context.parameter("identifier-leaks.max_tenants_for_rare", MAX_TENANTS_FOR_RARE);
    context.parameter("identifier-leaks.common_identifiers_skipped", common);
    for (Map.Entry<Integer, Recipient> entry : recipients.entrySet()) {
      emit(entry.getKey(), entry.getValue(), columns, findings);
    }
  }

  private static List<Integer> live(PostingsEnum postings, RequestColumns columns) throws IOException {
    List<Integer> docs = new ArrayList<>();
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      if (columns.isRequest(doc)) {
        docs.add(doc);
      }
    }
    return docs;
  }

  /**
   * The request whose stale pages most plausibly held the identifier: earlier than the recipient
   * and within the horizon. Its owner is who wrote it into a prompt; a response that carried it
   * is a source only when no prompt did. Stale pages stay in one decode node's pool, so the source
   * must have been decoded on the recipient's node (when both are known); then the most recent
   * wins. No preference for another tenant: that would turn a tenant's own reuse into a leak.
   */
  private static int likeliestSource(int recipient, List<Integer> prompters, List<Integer> responders,
      RequestColumns columns, long horizon) {
    java.util.Comparator<Integer> preference = java.util.Comparator.comparingLong(columns::start);
    for (List<Integer> candidates : List.of(prompters, responders)) {
      Integer best = null;
      for (int candidate : candidates) {
        long gap = columns.start(recipient) - columns.start(candidate);
        if (candidate != recipient && gap >= 0 && gap <= horizon
            && CrossTenantOverlap.samePoolPossible(columns, recipient, candidate)
            && (best == null || preference.compare(candidate, best) > 0)) {
          best = candidate;
        }
      }
      if (best != null) {
        return best;
      }
    }
    return -1;
  }

  /** Identifiers one response carried, grouped by source request. */
  private static final class Recipient {
    final Map<Integer, List<String>> bySource = new LinkedHashMap<>();
    final Set<String> categories = new java.util.TreeSet<>();
    boolean canary;

    void add(int source, Category category, String term, RequestColumns columns) {
      bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(term);
      categories.add(category.id());
      canary |= category == Category.CANARY;
    }
  }

  private static void emit(int recipientDoc, Recipient recipient, RequestColumns columns, Consumer<Finding> findings)
      throws IOException {
    Document header = columns.header(recipientDoc);
    List<Source> cross = new ArrayList<>();
    List<Source> same = new ArrayList<>();
    List<String> hashes = new ArrayList<>();
    boolean crossCanary = false;
    for (Map.Entry<Integer, List<String>> entry : recipient.bySource.entrySet()) {
      Document source = columns.header(entry.getKey());
      long tokens = entry.getValue().stream().mapToLong(t -> Math.max(1, (t.length() - t.indexOf(':') - 1) / 4)).sum();
      Source s = new Source(source.get(Schema.REQUEST_ID), source.get(Schema.ENGINE_RID), source.get(Schema.TENANT),
          tokens, List.of());
      boolean sameTenant = columns.tenant(entry.getKey()) == columns.tenant(recipientDoc);
      (sameTenant ? same : cross).add(s);
      if (!sameTenant && entry.getValue().stream().anyMatch(t -> t.startsWith("canary:"))) {
        crossCanary = true;
      }
      entry.getValue().forEach(t -> hashes.add(t.substring(0, t.indexOf(':')) + ":" + Redaction.shortHash(t)));
    }
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("categories", List.copyOf(recipient.categories));
    evidence.put("identifiers", hashes.size());
    evidence.put("identifier_hashes", hashes);
    evidence.put("note", "identifier values are not shown; hashes let them be matched against the source");
    if (!cross.isEmpty()) {
      FindingKind kind = crossCanary ? FindingKind.CANARY_LEAK : FindingKind.RARE_IDENTIFIER_LEAK;
      findings.accept(finding(kind, crossCanary ? Confidence.CONFIRMED : Confidence.PROBABLE, header, cross, evidence));
    }
    if (!same.isEmpty()) {
      findings.accept(finding(FindingKind.SAME_TENANT_REUSE, Confidence.PROBABLE, header, same, evidence));
    }
  }

  private static Finding finding(FindingKind kind, Confidence confidence, Document header, List<Source> sources,
      Map<String, Object> evidence) {
    Long start = RequestColumns.startOf(header);
    String requestId = header.get(Schema.REQUEST_ID);
    return new Finding(kind.id() + ":" + requestId, kind, confidence, requestId, header.get(Schema.ENGINE_RID),
        header.get(Schema.TENANT), start == null ? null : Instant.ofEpochMilli(start),
        header.get(Schema.PREFILL_NODE), header.get(Schema.DECODE_NODE), sources, evidence);
  }
}
