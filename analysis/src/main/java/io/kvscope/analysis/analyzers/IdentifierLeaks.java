package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
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
import java.util.HashMap;
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
    StalePageReach reach = StalePageReach.of(context, columns);
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
        int[] holders = possibleOrigins(recipient, prompters, responders, reach);
        if (holders.length > 0) {
          recipients.computeIfAbsent(recipient, r -> new Recipient()).carried.add(new Carried(value, category, holders));
        }
      }
    }
    context.parameter("identifier-leaks.max_tenants_for_rare", MAX_TENANTS_FOR_RARE);
    context.parameter("identifier-leaks.common_identifiers_skipped", common);
    Map<String, Set<String>> spanSources = spanSources(context);
    for (Map.Entry<Integer, Recipient> entry : recipients.entrySet()) {
      emit(entry.getKey(), entry.getValue(), spanSources, columns, context.index().redaction(), findings);
    }
  }

  /**
   * The sources of each recipient's verified spans (cross-tenant and same-tenant): an identifier
   * that one of them held most likely rode in on the same stale pages.
   */
  private static Map<String, Set<String>> spanSources(AnalysisContext context) {
    Map<String, Set<String>> sources = new HashMap<>();
    for (Finding finding : context.findings()) {
      if (finding.kind() == FindingKind.CROSS_TENANT_OVERLAP || finding.kind() == FindingKind.SAME_TENANT_REUSE) {
        Set<String> ids = sources.computeIfAbsent(finding.requestId(), r -> new HashSet<>());
        finding.sources().forEach(source -> ids.add(source.requestId()));
      }
    }
    return sources;
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
   * The requests whose stale pages could have held the identifier ({@link StalePageReach}). Its owner is who wrote it into a prompt; a response that carried it is a
   * possible origin only when no prompt did. No preference for another tenant: that would turn a
   * tenant's own reuse into a leak.
   */
  private static int[] possibleOrigins(int recipient, List<Integer> prompters, List<Integer> responders,
      StalePageReach reach) {
    for (List<Integer> candidates : List.of(prompters, responders)) {
      int[] possible = candidates.stream().mapToInt(Integer::intValue)
          .filter(candidate -> reach.reaches(candidate, recipient)).toArray();
      if (possible.length > 0) {
        return possible;
      }
    }
    return new int[0];
  }

  /** An identifier a response carried, with the requests that could have been its origin. */
  private record Carried(String term, Category category, int[] origins) {}

  /** The identifiers one response carried. */
  private static final class Recipient {
    final List<Carried> carried = new ArrayList<>();

    /**
     * Attributes each identifier to one origin. A source of one of the response's verified spans
     * comes first: the identifier most likely rode in on the same stale pages. Otherwise the
     * fewest requests that explain them all, taken greedily (the request holding most of the
     * still unexplained identifiers, the earliest on a tie, as text has one origin: the first
     * request that held it). One stale page usually carries several identifiers of one request;
     * a later request that repeated one of them (the next turn of a conversation) explains less
     * and is not named.
     */
    Map<Integer, List<String>> bySource(RequestColumns columns, Set<String> spanSources) throws IOException {
      Map<Integer, Boolean> isSpanSource = new HashMap<>();
      for (Carried c : carried) {
        for (int origin : c.origins()) {
          if (!isSpanSource.containsKey(origin)) {
            isSpanSource.put(origin, spanSources.contains(columns.header(origin).get(Schema.REQUEST_ID)));
          }
        }
      }
      Map<Integer, List<String>> bySource = new LinkedHashMap<>();
      List<Carried> open = new ArrayList<>(carried);
      while (!open.isEmpty()) {
        Map<Integer, Integer> explains = new HashMap<>();
        for (Carried c : open) {
          for (int origin : c.origins()) {
            explains.merge(origin, 1, Integer::sum);
          }
        }
        int best = explains.entrySet().stream()
            .min(java.util.Comparator.comparing((Map.Entry<Integer, Integer> e) -> !isSpanSource.get(e.getKey()))
                .thenComparingInt(e -> -e.getValue())
                .thenComparingLong(e -> columns.start(e.getKey()))
                .thenComparingInt(Map.Entry::getKey))
            .orElseThrow().getKey();
        List<String> terms = bySource.computeIfAbsent(best, s -> new ArrayList<>());
        open.removeIf(c -> {
          boolean explained = java.util.Arrays.stream(c.origins()).anyMatch(origin -> origin == best);
          if (explained) {
            terms.add(c.term());
          }
          return explained;
        });
      }
      return bySource;
    }

    Set<String> categories() {
      Set<String> categories = new java.util.TreeSet<>();
      carried.forEach(c -> categories.add(c.category().id()));
      return categories;
    }
  }

  private static void emit(int recipientDoc, Recipient recipient, Map<String, Set<String>> spanSources,
      RequestColumns columns, Redaction redaction, Consumer<Finding> findings) throws IOException {
    Document header = columns.header(recipientDoc);
    List<Source> cross = new ArrayList<>();
    List<Source> same = new ArrayList<>();
    List<String> hashes = new ArrayList<>();
    boolean crossCanary = false;
    for (Map.Entry<Integer, List<String>> entry : recipient.bySource(columns,
        spanSources.getOrDefault(columns.header(recipientDoc).get(Schema.REQUEST_ID), Set.of())).entrySet()) {
      Document source = columns.header(entry.getKey());
      long tokens = entry.getValue().stream().mapToLong(t -> Math.max(1, (t.length() - t.indexOf(':') - 1) / 4)).sum();
      Source s = new Source(source.get(Schema.REQUEST_ID), source.get(Schema.ENGINE_RID), source.get(Schema.TENANT),
          tokens, List.of());
      boolean sameTenant = columns.tenant(entry.getKey()) == columns.tenant(recipientDoc);
      (sameTenant ? same : cross).add(s);
      if (!sameTenant && entry.getValue().stream().anyMatch(t -> t.startsWith("canary:"))) {
        crossCanary = true;
      }
      // Keyed by the case: a hash of a phone number cannot be undone by trying every number.
      entry.getValue().forEach(t -> hashes.add(t.substring(0, t.indexOf(':')) + ":" + redaction.hash(t)));
    }
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("categories", List.copyOf(recipient.categories()));
    evidence.put("identifiers", hashes.size());
    evidence.put("identifier_hashes", hashes);
    evidence.put("note", "identifier values are not shown; hashes (keyed by the case) let them be matched against the source");
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
