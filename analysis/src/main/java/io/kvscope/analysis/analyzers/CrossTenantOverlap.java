package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.index.Documents;
import io.kvscope.index.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.FingerprintConfig;
import io.kvscope.index.fingerprint.FingerprintFields;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.Fingerprinter;
import io.kvscope.index.fingerprint.FrequencyHistogram;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.SharedSpan;
import io.kvscope.index.fingerprint.SpanFrequencyProbe;
import io.kvscope.index.fingerprint.SpanMatch;
import io.kvscope.index.fingerprint.SpanVerifier;
import io.kvscope.index.fingerprint.TextRange;
import io.kvscope.index.fingerprint.TokenizedText;
import io.kvscope.index.fingerprint.WordTokenizer;
import io.kvscope.index.identifiers.Identifier;
import io.kvscope.index.identifiers.IdentifierExtractor;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * Verbatim spans of a response that came from another request's prompt or partial generation.
 *
 * <p>Candidates come from one self-join over the fingerprint terms (see
 * {@link io.kvscope.index.fingerprint}), restricted by the mechanism: the source's pages could
 * still have been in the recipient's decode pool ({@link StalePageReach}). Each candidate is
 * verified on the stored texts: maximal shared spans of at least T tokens, minus what the
 * recipient's own prompt explains, minus text that many tenants carry (boilerplate, learned from
 * the data). A response-to-response match between two requests that asked the same question is the
 * same answer, not a leak. Each span is given to one origin (the source of the longest run, then
 * the earliest holder). What remains from another tenant is a {@code confirmed} cross-tenant
 * overlap; from the same tenant, same-tenant reuse.
 */
public final class CrossTenantOverlap implements Analyzer {

  /** Boilerplate cut-off never goes below this many tenants: a leak involves two, and may reach a few recipients. */
  static final int MIN_TENANT_CUTOFF = 4;

  @Override
  public String name() {
    return "cross-tenant-overlap";
  }

  @Override
  public String description() {
    return "Verbatim spans of responses found in another request's prompt or response (fingerprint self-join + exact verification)";
  }

  @Override
  public int order() {
    return 400;
  }

  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    String recorded = context.index().fingerprintScheme();
    if (recorded != null && !recorded.equals(Documents.FINGERPRINTS.schemeId())) {
      throw new IOException("the index was fingerprinted with '" + recorded + "', not '"
          + Documents.FINGERPRINTS.schemeId() + "'; re-ingest it into a new index");
    }
    // Verification may ask for longer spans than the index guarantees to find, never shorter.
    int minSpan = context.options().minSpanTokens();
    if (minSpan < Documents.FINGERPRINTS.threshold()) {
      throw new IllegalArgumentException("--min-span " + minSpan + " is below the index's guaranteed detection length "
          + Documents.FINGERPRINTS.threshold() + "; shorter runs could be missed silently");
    }
    FingerprintConfig scheme = Documents.FINGERPRINTS.withThreshold(minSpan);
    RequestColumns columns = RequestColumns.load(context);
    StalePageReach reach = StalePageReach.of(context, columns);
    FingerprintJoin join = new FingerprintJoin(context.reader(), doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1);
    int cutoff = learnCutoff(join, context);
    JoinOptions options = JoinOptions.defaults().withMaxTenantFrequency(cutoff).withIncludeSameTenant(true)
        .withOwnPromptExplains(true).withMinSharedFingerprints(MIN_SHARED_FINGERPRINTS_SERVED_NORMALLY);
    SpanHolders holders = new SpanHolders(context.reader(), columns, reach);
    Verification verification = new Verification(context, columns, new SpanVerifier(scheme),
        new SpanFrequencyProbe(context.reader(), doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1,
            Documents.FINGERPRINTS), // the probe must select fingerprints as the index did
        new StockPhrases(holders, Documents.FINGERPRINTS.k(), cutoff), holders, cutoff, findings);
    // Recipients whose engine never prefilled their prompt are where stale pages surface; they
    // get a focused pass over all their fingerprints, boilerplate-frequent ones included.
    Set<Integer> focus = new TreeSet<>();
    reach.neverPrefilled().filter(columns::isRecipient).forEach(focus::add);
    int focusCandidates = focusedPass(context, columns, focus, reach, verification);
    JoinStats stats = join.run(options,
        (recipient, source) -> columns.isRecipient(recipient) && !focus.contains(recipient) && reach.reaches(source, recipient),
        verification::accept);
    verification.finish();
    context.parameter("cross-tenant-overlap.min_span_tokens", scheme.threshold());
    context.parameter("cross-tenant-overlap.scheme", scheme.schemeId());
    Map<String, Long> joinCounts = new LinkedHashMap<>();
    joinCounts.put("shared_fingerprints", stats.sharedTerms());
    joinCounts.put("skipped_boilerplate", stats.skippedByTenantFrequency());
    joinCounts.put("explained_by_own_prompt", stats.explainedByOwnPrompt());
    joinCounts.put("candidates", stats.candidates());
    joinCounts.put("focused_recipients", (long) focus.size());
    joinCounts.put("focused_candidates", (long) focusCandidates);
    joinCounts.put("verified_pairs", verification.verifiedPairs);
    joinCounts.put("rejected_pairs", verification.rejectedPairs);
    joinCounts.put("stock_phrase_spans", verification.stockPhraseSpans);
    joinCounts.put("stock_phrase_spans_held_by_one_tenant", verification.stockSpansHeldByOneTenant);
    joinCounts.put("stock_phrase_lookups", verification.stockPhrases.lookups);
    joinCounts.put("span_holder_lookups", verification.holders.lookups);
    joinCounts.put("source_texts_read", verification.sourceTexts.misses);
    joinCounts.put("source_texts_reused", verification.sourceTexts.hits);
    context.parameter("cross-tenant-overlap.join", joinCounts);
    context.parameter("cross-tenant-overlap.decode_restarts", reach.restartCounts());
  }

  /**
   * Fingerprints a pair must share in the general join, which covers the requests the engine
   * served normally (the focused pass takes every fingerprint of the others). There only a span of
   * at least 2T words is confirmed, and such a span always holds two fingerprints: two disjoint
   * winnowing windows lie inside it, and each selects a k-gram in both texts (the same one only if
   * an 8-word run repeats within the span). A pair sharing one fingerprint could at best give a
   * suspect; in generated text full of stock sentences such chance pairs grow with the square of
   * the traffic on a node (96% of all candidates at 4 GB), so they are not verified.
   */
  static final int MIN_SHARED_FINGERPRINTS_SERVED_NORMALLY = 2;

  /** Source texts kept tokenized between candidates: 24 M chars, about 150 MB with their tokens. */
  static final long SOURCE_TEXT_CACHE_CHARS = 24L << 20;

  /** Candidate sources verified per focused recipient, most shared fingerprints first. */
  static final int MAX_FOCUSED_CANDIDATES = 256;

  /**
   * For each focused recipient, every request sharing any of its response fingerprints (and
   * within reach of its decode pool, see {@link StalePageReach}) is counted, and the best-sharing
   * ones are verified.
   * Generated text is full of stock phrases many tenants share; a leaked fragment of it is still
   * a leak, and winnowing may have picked only stock-phrase fingerprints for it, which the
   * boilerplate cut-off drops from the general join. Few recipients are focused, so looking up
   * their fingerprints one by one stays cheap.
   */
  private static int focusedPass(AnalysisContext context, RequestColumns columns, Set<Integer> focus,
      StalePageReach reach, Verification verification) throws IOException {
    Fingerprinter fingerprinter = new Fingerprinter(Documents.FINGERPRINTS);
    int candidates = 0;
    for (int recipient : focus) {
      String response = columns.text(recipient, Schema.RESPONSE_TEXT);
      if (response == null) {
        continue;
      }
      Map<Integer, int[]> shared = new HashMap<>();
      for (long hash : fingerprinter.fingerprint(response).distinctHashes()) {
        BytesRef term = FingerprintFields.term(hash);
        for (int side = 0; side < 2; side++) {
          String field = side == 0 ? FingerprintFields.PROMPT : FingerprintFields.RESPONSE;
          PostingsEnum docs = MultiTerms.getTermPostingsEnum(context.reader(), field, term, 0);
          if (docs == null) {
            continue;
          }
          for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
            if (reach.reaches(doc, recipient)) {
              shared.computeIfAbsent(doc, d -> new int[2])[side]++;
            }
          }
        }
      }
      List<Map.Entry<Integer, int[]>> best = shared.entrySet().stream()
          .sorted(Comparator.comparingInt((Map.Entry<Integer, int[]> e) -> -(e.getValue()[0] + e.getValue()[1]))
              .thenComparing(Map.Entry::getKey))
          .limit(MAX_FOCUSED_CANDIDATES).sorted(Map.Entry.comparingByKey()).toList();
      for (Map.Entry<Integer, int[]> entry : best) {
        verification.accept(new Candidate(recipient, entry.getKey(), entry.getValue()[0], entry.getValue()[1]));
        candidates++;
      }
    }
    verification.finish();
    return candidates;
  }

  /**
   * The boilerplate cut-off, learned from how many tenants share each fingerprint: a leaked span
   * is shared by its source and a few recipients, public text by many. The cut-off is the tenant
   * frequency below which 99% of shared fingerprints fall, but never under
   * {@value #MIN_TENANT_CUTOFF}; it is reported with the histogram's shape.
   */
  private static int learnCutoff(FingerprintJoin join, AnalysisContext context) throws IOException {
    FrequencyHistogram histogram = new FrequencyHistogram(64);
    join.frequencies(histogram);
    int cutoff = Math.max(MIN_TENANT_CUTOFF, histogram.tenantFrequencyAtQuantile(0.99));
    context.parameter("cross-tenant-overlap.boilerplate_tenant_cutoff", cutoff);
    context.parameter("cross-tenant-overlap.shared_fingerprints_above_cutoff", histogram.termsAbove(cutoff));
    return cutoff;
  }

  /** Verifies candidates one recipient at a time (the join emits them grouped by recipient). */
  private static final class Verification {
    private final AnalysisContext context;
    private final RequestColumns columns;
    private final SpanVerifier verifier;
    private final SpanFrequencyProbe probe;
    private final StockPhrases stockPhrases;
    private final SpanHolders holders;
    private final TokenizedTextCache sourceTexts;
    private final int cutoff;
    private final Consumer<Finding> findings;
    private final IdentifierExtractor identifiers = new IdentifierExtractor();
    private final Set<String> overLength;
    private final Set<String> underrun;
    long verifiedPairs;
    long rejectedPairs;
    long stockPhraseSpans;
    long stockSpansHeldByOneTenant;

    private int recipient = -1;
    private boolean recipientSawItsPrompt;
    private TokenizedText response;
    /** The recipient's own prompt and what of its response that prompt explains, read on first need. */
    private TokenizedText ownPrompt;
    private List<SharedSpan> explainedByOwnPrompt;
    private final Map<Integer, List<Span>> crossSpans = new LinkedHashMap<>();
    private final Map<Integer, List<Span>> sameSpans = new LinkedHashMap<>();
    private final Map<Integer, Integer> tokensBySource = new LinkedHashMap<>();
    /** Sources of the recipient kept on a stock span only their tenant held within reach. */
    private final Set<Integer> namedAsSoleHolder = new TreeSet<>();
    /** The one tenant within reach holding each stock span of the recipient, by char range. */
    private final Map<Long, Integer> soleHolderBySpan = new HashMap<>();

    Verification(AnalysisContext context, RequestColumns columns, SpanVerifier verifier, SpanFrequencyProbe probe,
        StockPhrases stockPhrases, SpanHolders holders, int cutoff, Consumer<Finding> findings) {
      this.context = context;
      this.columns = columns;
      this.verifier = verifier;
      this.probe = probe;
      this.stockPhrases = stockPhrases;
      this.holders = holders;
      this.sourceTexts = new TokenizedTextCache(columns, SOURCE_TEXT_CACHE_CHARS);
      this.cutoff = cutoff;
      this.findings = findings;
      this.overLength = context.requestsWith(FindingKind.OVER_LENGTH_ACCEPTED);
      this.underrun = context.requestsWith(FindingKind.PREFILL_UNDERRUN);
    }

    void accept(Candidate candidate) throws IOException {
      if (candidate.recipientDoc() != recipient) {
        finish();
        recipient = candidate.recipientDoc();
        response = tokenize(columns.text(recipient, Schema.RESPONSE_TEXT));
        ownPrompt = null;
        explainedByOwnPrompt = null;
        soleHolderBySpan.clear();
        String id = columns.header(recipient).get(Schema.REQUEST_ID);
        recipientSawItsPrompt = !overLength.contains(id) && !underrun.contains(id);
      }
      if (response == null) {
        return;
      }
      int source = candidate.sourceDoc();
      List<Span> spans = new ArrayList<>();
      int tokens = 0;
      if (candidate.sharedWithSourcePrompt() > 0) {
        TokenizedText sourcePrompt = sourceTexts.get(source, Schema.PROMPT_TEXT);
        tokens += collect(source, unexplainedSpans(sourcePrompt), Schema.PROMPT_TEXT, spans);
      }
      if (candidate.sharedWithSourceResponse() > 0) {
        // The reply first: replies are short, and most candidates end here with no span, so
        // the source's prompt (often large) is read only to rule out the same question.
        List<Span> fromResponse = new ArrayList<>();
        TokenizedText sourceResponse = sourceTexts.get(source, Schema.RESPONSE_TEXT);
        int fromResponseTokens = collect(source, unexplainedSpans(sourceResponse), Schema.RESPONSE_TEXT, fromResponse);
        if (!fromResponse.isEmpty() && !sameQuestion(sourceTexts.get(source, Schema.PROMPT_TEXT), recipientSawItsPrompt)) {
          spans.addAll(fromResponse);
          tokens += fromResponseTokens;
        }
      }
      if (spans.isEmpty()) {
        rejectedPairs++;
        return;
      }
      verifiedPairs++;
      boolean sameTenant = columns.tenant(source) == columns.tenant(recipient);
      (sameTenant ? sameSpans : crossSpans).put(source, spans);
      tokensBySource.put(source, tokens);
    }

    /**
     * Spans of the response shared with {@code source}, minus what the recipient's own prompt
     * explains. Most candidates share no span at all, so the own prompt (often megabytes) is read
     * and matched against the response only once one does, and then once per recipient.
     */
    private List<SharedSpan> unexplainedSpans(TokenizedText source) throws IOException {
      List<SharedSpan> shared = verifier.verify(response, source);
      if (shared.isEmpty()) {
        return shared;
      }
      if (explainedByOwnPrompt == null) {
        ownPrompt = tokenize(columns.text(recipient, Schema.PROMPT_TEXT));
        explainedByOwnPrompt = ownPrompt == null ? List.of() : verifier.verify(response, ownPrompt);
      }
      return ownPrompt == null ? shared : verifier.subtract(response, source, shared, explainedByOwnPrompt);
    }

    /**
     * Two requests that asked the same thing get the same answer: a response-to-response match is
     * explained when the prompts share spans covering most of the shorter one. Not for a recipient
     * whose engine never prefilled its prompt (over-length accepted, underrun): its reply cannot
     * have come from its question.
     */
    private boolean sameQuestion(TokenizedText sourcePrompt, boolean recipientSawItsPrompt) {
      // Called only after a span was found, so the own prompt has been read.
      if (!recipientSawItsPrompt || ownPrompt == null || sourcePrompt == null) {
        return false;
      }
      int shorter = Math.min(ownPrompt.size(), sourcePrompt.size());
      int shared = verifier.verify(ownPrompt, sourcePrompt).stream().mapToInt(SharedSpan::tokenCount).sum();
      return shorter > 0 && 2 * shared >= shorter;
    }

    /**
     * Keeps spans that are not boilerplate; returns their recipient token count. A short span is
     * also checked for being the model's stock sentences side by side (see {@link StockPhrases}),
     * whichever field of the source held it: a conversation's later prompts repeat its earlier
     * replies. A long span is too specific for that. Where the engine never prefilled the
     * recipient's prompt, a stock span is still kept when the source's tenant is the only one
     * within reach of the recipient's pool that held it word for word.
     */
    private int collect(int source, List<SharedSpan> shared, String sourceField, List<Span> out) throws IOException {
      int tokens = 0;
      for (SharedSpan span : shared) {
        if (isBoilerplate(span.recipient())) {
          continue;
        }
        if (span.tokenCount() < 2 * verifier.config().threshold()
            && stockPhrases.isStock(response, span.recipient())) {
          if (recipientSawItsPrompt || soleHolder(span.recipient()) != columns.tenant(source)) {
            stockPhraseSpans++;
            continue;
          }
          stockSpansHeldByOneTenant++;
          namedAsSoleHolder.add(source);
        }
        for (SpanMatch part : span.parts()) {
          out.add(new Span(part.recipient().charStart(), part.recipient().charEnd(), sourceField,
              part.source().charStart(), part.source().charEnd(), part.tokenCount()));
        }
        tokens += span.tokenCount();
      }
      return tokens;
    }

    /**
     * Whether more tenants than the cut-off hold this stretch of the response. The fingerprint
     * bound decides, except where the engine never prefilled the recipient's prompt: there a short
     * leaked passage of common words must not be lost to a loose bound, so the phrase is counted.
     */
    private boolean isBoilerplate(TextRange range) throws IOException {
      if (probe.frequency(response, range).tenantFrequency() <= cutoff) {
        return false;
      }
      if (recipientSawItsPrompt) {
        return true;
      }
      int tenants = holders.tenantsHolding(textOf(range), cutoff + 1);
      return tenants == 0 || tenants > cutoff; // 0: the phrase missed even the response it came from
    }

    /** The range's text for a phrase query, without a word it cuts at either end. */
    private String textOf(TextRange range) {
      String text = response.text();
      int start = range.charStart();
      int end = range.charEnd();
      if (insideWord(text, start - 1, -1)) { // e.g. a span starting at the 7 of 10.7
        int space = text.indexOf(' ', start);
        start = space < 0 || space > end ? end : space;
      }
      if (insideWord(text, end, 1)) {
        end = Math.max(start, text.lastIndexOf(' ', end - 1));
      }
      return text.substring(start, end);
    }

    /**
     * Whether the char at {@code i}, next to a span's edge, continues the edge word for the search
     * analyzer: a letter or digit, or a mark between word chars (the point of 10.7).
     */
    private static boolean insideWord(String text, int i, int outward) {
      if (i < 0 || i >= text.length()) {
        return false;
      }
      char c = text.charAt(i);
      int beyond = i + outward;
      return Character.isLetterOrDigit(c) || !Character.isWhitespace(c) && beyond >= 0 && beyond < text.length()
          && Character.isLetterOrDigit(text.charAt(beyond));
    }

    /** The one tenant within reach holding this stretch of the response, looked up once per recipient. */
    private int soleHolder(TextRange range) throws IOException {
      long key = ((long) range.charStart() << 32) | range.charEnd();
      Integer tenant = soleHolderBySpan.get(key);
      if (tenant == null) {
        tenant = holders.soleTenantHolding(textOf(range), recipient);
        soleHolderBySpan.put(key, tenant);
      }
      return tenant;
    }

    /**
     * Text has one origin. Stale pages are copied as runs, so a span that lies inside a longer span
     * from another source came with that longer run: only that source held all of it. Then the
     * earliest request that held the text is its origin: a later request that carries the same text
     * (a conversation's next turn quoting the last answer, another tenant's response that itself
     * leaked it) only repeated it. So a span is dropped where a longer span from another source
     * contains it, or where spans from earlier sources cover most of it; a source left with nothing
     * is no source.
     */
    private void keepEarliestOrigins() {
      List<SourcedSpan> all = new ArrayList<>();
      for (Map<Integer, List<Span>> group : List.of(crossSpans, sameSpans)) {
        group.forEach((source, spans) -> spans.forEach(span -> all.add(new SourcedSpan(source, span))));
      }
      Set<SourcedSpan> whole = all.stream().filter(s -> !insideLongerRun(s, all))
          .collect(Collectors.toCollection(LinkedHashSet::new));
      for (Map<Integer, List<Span>> group : List.of(crossSpans, sameSpans)) {
        for (Map.Entry<Integer, List<Span>> entry : group.entrySet()) {
          int source = entry.getKey();
          List<Span> kept = entry.getValue().stream()
              .filter(span -> whole.contains(new SourcedSpan(source, span)) && !coveredByEarlier(source, span, whole))
              .toList();
          if (kept.size() < entry.getValue().size()) {
            tokensBySource.put(source, kept.stream().mapToInt(Span::tokens).sum());
          }
          entry.setValue(kept);
        }
        group.values().removeIf(List::isEmpty);
      }
    }

    private record SourcedSpan(int source, Span span) {}

    private static boolean insideLongerRun(SourcedSpan candidate, List<SourcedSpan> all) {
      Span span = candidate.span();
      return all.stream().anyMatch(other -> other.source() != candidate.source()
          && other.span().responseStart() <= span.responseStart() && other.span().responseEnd() >= span.responseEnd()
          && other.span().tokens() > span.tokens());
    }

    private boolean coveredByEarlier(int source, Span span, Set<SourcedSpan> all) {
      int covered = 0;
      for (SourcedSpan other : all) {
        if (other.source() != source && columns.start(other.source()) < columns.start(source)) {
          covered += Math.max(0, Math.min(span.responseEnd(), other.span().responseEnd())
              - Math.max(span.responseStart(), other.span().responseStart()));
        }
      }
      return 2 * covered >= span.responseEnd() - span.responseStart();
    }

    /** Emits the findings of the current recipient. */
    void finish() throws IOException {
      keepEarliestOrigins();
      if (recipient >= 0 && (!crossSpans.isEmpty() || !sameSpans.isEmpty())) {
        Document header = columns.header(recipient);
        if (!crossSpans.isEmpty()) {
          findings.accept(finding(FindingKind.CROSS_TENANT_OVERLAP, header, crossSpans));
        }
        if (!sameSpans.isEmpty()) {
          findings.accept(finding(FindingKind.SAME_TENANT_REUSE, header, sameSpans));
        }
      }
      crossSpans.clear();
      sameSpans.clear();
      namedAsSoleHolder.clear();
      tokensBySource.clear();
      recipient = -1;
    }

    private Finding finding(FindingKind kind, Document header, Map<Integer, List<Span>> bySource) throws IOException {
      List<Source> sources = new ArrayList<>();
      boolean sameNode = false;
      long newestSourceAgeMs = Long.MAX_VALUE;
      Set<String> categories = new TreeSet<>();
      Set<String> soleHolders = new TreeSet<>();
      int longest = 0;
      for (Map.Entry<Integer, List<Span>> entry : bySource.entrySet()) {
        int source = entry.getKey();
        Document sourceHeader = columns.header(source);
        if (namedAsSoleHolder.contains(source)) {
          soleHolders.add(sourceHeader.get(Schema.REQUEST_ID));
        }
        sources.add(new Source(sourceHeader.get(Schema.REQUEST_ID), sourceHeader.get(Schema.ENGINE_RID),
            sourceHeader.get(Schema.TENANT), tokensBySource.get(source), entry.getValue()));
        sameNode |= columns.decodeNode(source) >= 0 && columns.decodeNode(source) == columns.decodeNode(recipient);
        newestSourceAgeMs = Math.min(newestSourceAgeMs, columns.start(recipient) - columns.start(source));
        for (Span span : entry.getValue()) {
          longest = Math.max(longest, span.tokens());
          for (Identifier id : identifiers.extract(response.text().substring(span.responseStart(), span.responseEnd()))) {
            categories.add(id.category().id());
          }
        }
      }
      String requestId = header.get(Schema.REQUEST_ID);
      // Most tokens first, then by id: the join's doc order changes from one ingest to the next.
      sources.sort(Comparator.comparingLong(Source::matchedTokens).reversed().thenComparing(Source::requestId));
      Map<String, Object> evidence = new LinkedHashMap<>();
      evidence.put("longest_span_tokens", longest);
      evidence.put("spans", sources.stream().mapToInt(s -> s.spans().size()).sum());
      evidence.put("same_decode_node", sameNode);
      // A source named on stock phrasing rests on elimination, not on the text alone: say so.
      evidence.put("sources_named_as_sole_holder_of_stock_phrasing", List.copyOf(soleHolders));
      evidence.put("newest_source_age_s", newestSourceAgeMs / 1000);
      evidence.put("recipient_over_length_accepted", overLength.contains(requestId));
      evidence.put("recipient_prefill_underrun", underrun.contains(requestId));
      evidence.put("categories", List.copyOf(categories));
      Long start = RequestColumns.startOf(header);
      Confidence confidence = confidence(sources, overLength.contains(requestId) || underrun.contains(requestId));
      evidence.put("confidence_reason", confidence == Confidence.CONFIRMED
          ? "verified verbatim span of at least " + verifier.config().threshold() + " tokens"
          : "only short matches, on a request the engine served normally");
      return new Finding(kind.id() + ":" + requestId, kind, confidence, requestId,
          header.get(Schema.ENGINE_RID), header.get(Schema.TENANT), start == null ? null : Instant.ofEpochMilli(start),
          header.get(Schema.PREFILL_NODE), header.get(Schema.DECODE_NODE), sources, evidence);
    }

    /**
     * A verified span is proof where the engine showed how it could happen (the recipient's
     * prompt was never prefilled). On a request the engine served normally, a short match (under
     * twice T) is more likely two texts sharing stock phrasing, so it is reported as suspect, not
     * counted; a long one is still proof.
     */
    private Confidence confidence(List<Source> sources, boolean mechanismSeen) {
      if (mechanismSeen) {
        return Confidence.CONFIRMED;
      }
      int shortMatch = 2 * verifier.config().threshold();
      boolean onlyShortMatches = sources.stream().flatMap(s -> s.spans().stream()).allMatch(span -> span.tokens() < shortMatch);
      return onlyShortMatches ? Confidence.SUSPECT : Confidence.CONFIRMED;
    }

    private static TokenizedText tokenize(String text) {
      return text == null ? null : WordTokenizer.tokenize(text);
    }
  }
}
