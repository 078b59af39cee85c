package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.Mechanisms;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
import io.kvscope.model.evidence.FocusedLookup;
import io.kvscope.model.evidence.PassageFacts;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.evidence.RuleChain;
import io.kvscope.model.finding.Finding;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.index.fingerprint.FingerprintFields;
import io.kvscope.index.fingerprint.HashStream;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Verbatim passages of a response that another request's prompt or reply held, judged with the
 * mechanism that could have carried them.
 *
 * <p>Candidates come from one self-join over the fingerprint terms (see
 * {@link io.kvscope.index.fingerprint}), restricted to sources whose pages could still have been in
 * the recipient's decode pool ({@link StalePageReach}). Responses decoded over foreign KV get a
 * focused pass (every fingerprint, and word-for-word lookups of short windows, so runs down to
 * {@value PassageRules#MIN_WORDS} words are found). Each candidate is verified on the stored texts;
 * the maximal shared runs are the response's passages ({@link Passages}). For each passage the
 * facts are gathered ({@link PassageGatherer}: every request within reach that held it, how many
 * tenants hold it, the same question, stock phrasing) and the rules of {@link PassageRules} decide
 * whether it is evidence and how sure; {@link OverlapFindings} turns what is kept into a
 * cross-tenant overlap finding (or same-tenant reuse), naming every candidate origin.
 */
public final class CrossTenantOverlap implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "cross-tenant-overlap";

  /**
   * Fingerprints a pair must share in the general join, which covers responses with no mechanism
   * evidence. There only a passage of at least 2T words counts, and such a passage always holds two
   * fingerprints: two disjoint winnowing windows lie inside it, and each selects a k-gram in both
   * texts. Pairs sharing one fingerprint were 96% of all candidates at 4 GB and can show nothing.
   */
  static final int MIN_SHARED_FINGERPRINTS_SERVED_NORMALLY = 2;

  /**
   * The general join's settings under the learned boilerplate {@code cutoff}: same-tenant pairs too
   * (reuse is reported apart), a recipient's own prompt explains what it shares, and at least
   * {@link #MIN_SHARED_FINGERPRINTS_SERVED_NORMALLY} fingerprints a pair. Every engine's join runs
   * with these.
   */
  public static JoinOptions generalJoin(int cutoff) {
    return JoinOptions.defaults().withMaxTenantFrequency(cutoff).withIncludeSameTenant(true)
        .withOwnPromptExplains(true).withMinSharedFingerprints(MIN_SHARED_FINGERPRINTS_SERVED_NORMALLY);
  }

  /** Source texts kept tokenized between candidates: 24 M chars, about 150 MB with their tokens (a lane's). */
  static final long SOURCE_TEXT_CACHE_CHARS = 24L << 20;

  private final Set<String> withoutRules;
  private final CandidatePairs pairs;

  public CrossTenantOverlap() {
    this(Set.of());
  }

  /**
   * The analysis with the passage rules named {@code withoutRules} left out: for measuring what
   * each rule removes (the method document's figures), never for an investigation.
   */
  public CrossTenantOverlap(Set<String> withoutRules) {
    this(withoutRules, CandidatePairs.INDEX_JOIN);
  }

  /** The analysis with the general join's candidates taken from {@code pairs} (the Spark job's, say). */
  public CrossTenantOverlap(CandidatePairs pairs) {
    this(Set.of(), pairs);
  }

  private CrossTenantOverlap(Set<String> withoutRules, CandidatePairs pairs) {
    this.withoutRules = Set.copyOf(withoutRules);
    this.pairs = pairs;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Verbatim passages of responses that another request held, judged with the mechanism that could carry them";
  }

  @Override
  public Set<String> requires() {
    return Mechanisms.REQUIRED;
  }

  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    FingerprintConfig indexed = context.index().fingerprints();
    // Verification may ask for longer spans than the index guarantees to find, never shorter.
    int minSpan = context.options().minSpanTokens();
    if (minSpan < indexed.threshold()) {
      throw new IllegalArgumentException("--min-span " + minSpan + " is below the index's guaranteed detection length "
          + indexed.threshold() + "; shorter runs could be missed silently");
    }
    FingerprintConfig scheme = indexed.withThreshold(minSpan);
    RequestColumns columns = context.requestColumns();
    Mechanisms mechanisms = context.mechanisms();
    StalePageReach reach = context.reach();
    // A copy of a reply or a prompt is its request's tenant: forged copies never make a passage look
    // held by more tenants.
    FingerprintJoin join = new FingerprintJoin(context.reader(),
        doc -> columns.isSource(doc) || columns.copy(doc) != null ? columns.tenant(doc) : -1);
    int cutoff = learnCutoff(pairs.frequencies(context, join), context);
    SpanVerifier verifier = new SpanVerifier(scheme);
    RuleChain<PassageFacts> chain = PassageRules.chain(minSpan, cutoff).without(withoutRules);
    ReplyCopyFindings onCopies = new ReplyCopyFindings(columns, mechanisms.namingAmbiguousRooms(findings));
    // Every recipient of the general join keeps runs of 2T words or more: the focused pass takes
    // the responses decoded over foreign KV, whose minimum is lower, and verifies them on the index.
    // The job's runs, when it wrote them, are read once here and only read after, by every lane.
    Optional<RunsFile> runsFile = pairs.runs(context);
    VerifiedRuns fromFile = runsFile.isEmpty() ? null
        : runsFile.get().verifiedRuns(RunsFile.minWords(minSpan), scheme.schemeId(), context.reader().maxDoc());
    int threads = OverlapLanes.count(context.options().threads(),
        IntStream.range(0, context.reader().maxDoc()).filter(columns::isRecipient).count());
    Supplier<OverlapLanes.RecipientsLane> newLane = () -> {
      LuceneTextIndex text = new LuceneTextIndex(context.reader(), columns);
      StockPhrases stock = new StockPhrases(text, indexed.k(), cutoff);
      RememberedHolders remembered = new RememberedHolders(text);
      PassageGatherer gatherer = new PassageGatherer(remembered, columns, reach, stock, minSpan, cutoff);
      // Each lane keeps the whole budget: split among them, the same texts were read again and again.
      TokenizedTextCache sourceTexts = new TokenizedTextCache(columns, SOURCE_TEXT_CACHE_CHARS);
      VerifiedRuns onIndex = new IndexVerification(verifier, sourceTexts);
      OverlapLanes.Found found = new OverlapLanes.Found();
      OverlapRecipients work = new OverlapRecipients(columns, mechanisms, minSpan, gatherer, chain,
          new OverlapFindings(columns, verifier, sourceTexts), found);
      return new OverlapLanes.RecipientsLane(text, remembered, stock, gatherer, sourceTexts, onIndex,
          fromFile == null ? onIndex : fromFile, work, found);
    };
    // Responses decoded over foreign KV are where stale pages surface: a focused pass over all
    // their fingerprints, boilerplate-frequent ones included, and over short windows.
    Set<Integer> focus = new TreeSet<>();
    mechanisms.decodedOverForeignKv().stream().filter(columns::isRecipient).forEach(doc -> {
      focus.add(doc);
      columns.copiesOf(doc).forEach(copy -> focus.add(copy.doc()));
    });
    JoinOptions options = generalJoin(cutoff);
    FocusedCounts focused = new FocusedCounts();
    long focusedNanos;
    long joinNanos;
    JoinStats stats;
    Map<String, Object> pairsFrom;
    OverlapLanes<OverlapLanes.RecipientsLane> lanes = new OverlapLanes<>(threads, newLane, onCopies);
    // The index's general join walks beside the focused pass; the filter only reads fixed columns.
    try (lanes; CandidatePairs.Started general = pairs.start(context, join, options, (recipient, source) ->
        columns.isRecipient(recipient) && !focus.contains(recipient) && reach.reaches(source, recipient))) {
      long started = CpuClock.now();
      focusedPass(context, indexed, columns, focus, reach, lanes, focused);
      focusedNanos = CpuClock.now() - started;
      started = CpuClock.now();
      stats = general.emit(lanes.general());
      lanes.finish();
      onCopies.flush();
      joinNanos = CpuClock.now() - started + general.walkCpuNanos();
      pairsFrom = general.origin();
    }
    // What the lanes' own threads spent (none with one lane: the caller's clock counted it).
    focusedNanos += lanes.focusedCpuElsewhere();
    joinNanos += lanes.generalCpuElsewhere();
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put("focused_pass", round(focusedNanos));
    seconds.put("window_lookups", round(focused.windowNanos.sum()));
    seconds.put("general_join", round(joinNanos));
    seconds.put("passage_facts", round(lanes.sum(lane -> lane.recipients().factNanos)));
    context.parameter(NAME + ".cpu_seconds", seconds);
    context.parameter(NAME + ".min_span_tokens", scheme.threshold());
    context.parameter(NAME + ".min_words_over_foreign_kv", PassageRules.MIN_WORDS);
    context.parameter(NAME + ".scheme", scheme.schemeId());
    Map<String, Long> joinCounts = new LinkedHashMap<>();
    joinCounts.put("shared_fingerprints", stats.sharedTerms());
    joinCounts.put("skipped_boilerplate", stats.skippedByTenantFrequency());
    joinCounts.put("explained_by_own_prompt", stats.explainedByOwnPrompt());
    joinCounts.put("candidates", stats.candidates());
    joinCounts.put("focused_recipients", (long) focus.size());
    joinCounts.put("focused_candidates", focused.fromFingerprints.sum());
    joinCounts.put("window_candidates", focused.fromWindows.sum());
    joinCounts.put("verified_pairs", lanes.sum(lane -> lane.recipients().verifiedPairs));
    joinCounts.put("rejected_pairs", lanes.sum(lane -> lane.recipients().rejectedPairs));
    joinCounts.put("passages", lanes.sum(lane -> lane.recipients().passages));
    // These five count what each lane's caches saved: with several lanes they differ run to run.
    joinCounts.put("holder_lookups", lanes.sum(lane -> lane.text().lookups));
    joinCounts.put("holder_lookups_remembered", lanes.sum(lane -> lane.remembered().hits));
    joinCounts.put("stock_phrase_lookups", lanes.sum(lane -> lane.stock().lookups));
    joinCounts.put("same_question_reads", lanes.sum(lane -> lane.gatherer().sameQuestionReads));
    joinCounts.put("source_texts_read", lanes.sum(lane -> lane.sourceTexts().misses));
    joinCounts.put("source_texts_reused", lanes.sum(lane -> lane.sourceTexts().hits));
    context.parameter(NAME + ".join", joinCounts);
    context.parameter(NAME + ".candidate_pairs", pairsFrom);
    context.parameter(NAME + ".passages_dropped_by_rule", lanes.sumByName(lane -> lane.recipients().droppedByRule));
    context.parameter(NAME + ".passages_capped_by_rule", lanes.sumByName(lane -> lane.recipients().cappedByRule));
    context.parameter(NAME + ".decode_restarts", reach.restartCounts());
  }

  /** What the focused pass found, summed over its recipients whichever lane took them. */
  private static final class FocusedCounts {
    final LongAdder fromFingerprints = new LongAdder();
    final LongAdder fromWindows = new LongAdder();
    final LongAdder windowNanos = new LongAdder();
  }

  /**
   * For each focused recipient, every request within reach sharing any of its response fingerprints
   * is counted, and the best-sharing ones are verified; then windows of words are looked up word for
   * word, for runs too short to be sure of a fingerprint. Few recipients are focused, so looking
   * their text up piece by piece stays cheap. Which requests and windows: {@link FocusedLookup};
   * here only the postings walk and the lookups. Each recipient is one lane's work, in order.
   */
  private static void focusedPass(AnalysisContext context, FingerprintConfig indexed, RequestColumns columns,
      Set<Integer> focus, StalePageReach reach, OverlapLanes<OverlapLanes.RecipientsLane> lanes, FocusedCounts counts) throws IOException {
    Fingerprinter fingerprinter = new Fingerprinter(indexed);
    for (int recipient : focus) {
      lanes.focused(lane -> focusOn(recipient, context, fingerprinter, columns, reach, lane, counts));
    }
  }

  private static void focusOn(int recipient, AnalysisContext context, Fingerprinter fingerprinter,
      RequestColumns columns, StalePageReach reach, OverlapLanes.RecipientsLane lane, FocusedCounts counts) throws IOException {
    String response = columns.text(recipient, Schema.RESPONSE_TEXT);
    if (response == null) {
      return;
    }
    OverlapRecipients work = lane.recipients();
    Map<Integer, int[]> shared = new HashMap<>();
    long[] hashes = fingerprinter.distinctHashes(response);
    // Deleted documents are not left out, as the terms' postings did not leave them out.
    int[][][] holders = {HashStream.docsOf(context.reader(), FingerprintFields.PROMPT, hashes, false),
        HashStream.docsOf(context.reader(), FingerprintFields.RESPONSE, hashes, false)};
    for (int i = 0; i < hashes.length; i++) {
      for (int side = 0; side < 2; side++) {
        for (int doc : holders[side][i]) {
          if (reach.reaches(doc, recipient)) {
            shared.computeIfAbsent(columns.order(doc), r -> new int[2])[side]++;
          }
        }
      }
    }
    List<FocusedLookup.Sharing> verified = FocusedLookup.best(shared.entrySet().stream()
        .map(e -> new FocusedLookup.Sharing(e.getKey(), e.getValue()[0], e.getValue()[1])).toList());
    counts.fromFingerprints.add(verified.size());
    accept(recipient, verified, columns, work, lane.onIndex());
    // Runs too short to be sure of a fingerprint, where no verified run lies already.
    long windowsStarted = CpuClock.now();
    List<FocusedLookup.Held> held = new ArrayList<>();
    for (TextRange window : FocusedLookup.windows(WordTokenizer.tokenize(response), work.coveredTokens(recipient))) {
      held.addAll(latestHolders(lane.text(), response.substring(window.charStart(), window.charEnd()), recipient,
          reach, columns));
    }
    List<FocusedLookup.Sharing> more = FocusedLookup.beyond(verified, held);
    counts.windowNanos.add(CpuClock.now() - windowsStarted);
    counts.fromWindows.add(more.size());
    accept(recipient, more, columns, work, lane.onIndex());
  }

  private static void accept(int recipient, List<FocusedLookup.Sharing> sources, RequestColumns columns,
      OverlapRecipients work, VerifiedRuns runs) throws IOException {
    for (FocusedLookup.Sharing s : sources) {
      work.accept(new Candidate(recipient, columns.docAt(s.request()), s.inPrompt(), s.inReply()), runs);
    }
  }

  /** The latest requests within reach that held {@code window} ({@link FocusedLookup#latest}). */
  private static List<FocusedLookup.Held> latestHolders(TextIndex text, String window, int recipient,
      StalePageReach reach, RequestColumns columns) throws IOException {
    List<FocusedLookup.Held> held = new ArrayList<>();
    text.holders(window, doc -> reach.reaches(doc, recipient), (doc, inReply) -> {
      held.add(new FocusedLookup.Held(columns.order(doc), inReply));
      return true;
    });
    return FocusedLookup.latest(held);
  }

  private static double round(long nanos) {
    return Math.round(nanos / 1e8) / 10.0;
  }

  /** The boilerplate cut-off ({@link BoilerplateCutoff}) learned from {@code histogram}, reported with its shape. */
  private static int learnCutoff(FrequencyHistogram histogram, AnalysisContext context) {
    int cutoff = BoilerplateCutoff.learn(histogram);
    context.parameter(NAME + ".boilerplate_tenant_cutoff", cutoff);
    context.parameter(NAME + ".shared_fingerprints_above_cutoff", histogram.termsAbove(cutoff));
    return cutoff;
  }
}
