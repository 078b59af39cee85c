package io.kvscope.analysis;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.model.evidence.Observation;
import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overlap analysis end to end on real on-disk indexes: which passages count, how sure, and
 * whom they name. The rules themselves are tested on plain values in {@code evidence}.
 */
class CrossTenantOverlapTest {

  @TempDir Path tmp;

  /** Unique prose: words drawn from a large vocabulary with a fixed seed. */
  private static String words(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    return IntStream.range(0, n).mapToObj(i -> "w" + Integer.toString(random.nextInt(1_000_000), 36))
        .collect(Collectors.joining(" "));
  }

  private static String slice(String text, int from, int to) {
    return String.join(" ", Arrays.asList(text.split(" ")).subList(from, to));
  }

  @Test
  void aPassageOneEarlierRequestHeldIsConfirmedOnAStubWithThatRequestAsSoleSource() throws Exception {
    String secret = words(1, 60);
    String leaked = slice(secret, 10, 45); // 35 words
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("source", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Please summarise: " + secret).responseText("Sure.").build(), 100, false);
    index.served(request("stub", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(5, 50)).responseText("Here is the reply " + leaked + " and more " + words(6, 10)).build(), 100, false);
    // A later request holding the same text is never a source of an earlier response.
    index.served(request("later", "other", "2026-08-28T13:00:00Z", 100, 200)
        .promptText("Quoting: " + leaked).responseText(words(8, 20)).build(), 100, false);

    List<Finding> findings = analyze(index, "gw-stub");
    String response = responseOf(index, "gw-stub");

    Finding leak = only(findings, "gw-stub");
    assertThat(leak.kind()).isEqualTo(FindingKind.CROSS_TENANT_OVERLAP);
    assertThat(leak.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(leak.sources()).extracting(Source::requestId, Source::attribution, Source::matchedTokens)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-source", Attribution.SOLE, 35L));
    Span span = leak.sources().get(0).spans().get(0);
    assertThat(response.substring(span.responseStart(), span.responseEnd())).isEqualTo(leaked);
    assertThat(span.sourceField()).isEqualTo("prompt_text");
    assertThat(((Evidence.Overlap) leak.evidence()).confidenceReason().toString()).contains("foreign-kv");
  }

  /**
   * Real traffic repeats itself: a passage three earlier requests held word for word names all
   * three, each a candidate, in the mechanism's order (the one that ended last first); one on
   * another decode node or before the decode engine restarted could not have been in the pool.
   */
  @Test
  void aPassageSeveralRequestsWithinReachHeldNamesEachAsACandidate() throws Exception {
    String answer = words(20, 50);
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T09:00:00Z", 681_280, 1_048_576, "0.5.21");
    index.served(request("before-restart", "t0", "2026-08-28T08:30:00Z", 100, 200)
        .promptText(words(21, 10)).responseText(answer).build(), 100, false);
    index.served(request("first", "t1", "2026-08-28T09:10:00Z", 100, 200)
        .promptText(words(22, 10)).responseText(answer).build(), 100, false);
    index.servedOn(request("elsewhere", "t2", "2026-08-28T09:20:00Z", 100, 200)
        .promptText(words(23, 10)).responseText(answer).build(), "decode-1");
    index.served(request("second", "t3", "2026-08-28T09:30:00Z", 100, 200)
        .promptText("Pasted: " + answer).responseText(words(24, 10)).build(), 100, false);
    index.served(request("third", "t4", "2026-08-28T09:40:00Z", 100, 200)
        .promptText(words(25, 10)).responseText(answer).build(), 100, false);
    index.served(request("stub", "recipient", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(26, 10)).responseText(words(27, 10) + " " + slice(answer, 5, 45) + " " + words(28, 10))
        .build(), 100, false);

    Finding leak = only(analyze(index, "gw-stub"), "gw-stub");

    assertThat(leak.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(leak.sources()).extracting(s -> s.requestId() + " " + s.attribution().id())
        .containsExactly("gw-third candidate", "gw-second candidate", "gw-first candidate");
    assertThat(((Evidence.Overlap) leak.evidence()).attribution()).isEqualTo("ambiguous");
  }

  /**
   * Two tenants ask the same short question under different system prompts and the model gives
   * both the same long answer: on a response served normally that is at most suspect (not a leak
   * the summary counts); on one the engine never prefilled, nothing explains it and it is confirmed.
   */
  @Test
  void theSameAnswerToTheSameQuestionIsSuspectUnlessThePromptWasNeverPrefilled() throws Exception {
    String question = "how do I reverse a linked list in place";
    String answer = words(30, 120);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("asker-1", "alpha", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("You are a careful assistant.\n" + question).responseText(answer).build(), 100, false);
    index.served(request("asker-2", "beta", "2026-08-28T10:10:00Z", 100, 200)
        .promptText("You help the staff of Beta Corp. Answer briefly.\n" + question).responseText(answer).build(), 100, false);
    index.served(request("stub", "gamma", "2026-08-28T10:20:00Z", 100, 200)
        .promptText("You help Gamma.\n" + question).responseText("In short: " + slice(answer, 0, 60)).build(), 100, false);

    List<Finding> findings = analyze(index, "gw-stub");

    Finding normal = only(findings, "gw-asker-2");
    assertThat(normal.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(((Evidence.Overlap) normal.evidence()).confidenceReason().toString()).contains("same-answer");
    Finding stub = only(findings, "gw-stub");
    assertThat(stub.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(stub.sources()).extracting(Source::requestId).containsExactly("gw-asker-2", "gw-asker-1");
  }

  /**
   * Without mechanism evidence text alone is at most probable, only for a long passage no tenant
   * but one other holds (the same passage a third tenant also pasted is suspect), and only where
   * the logs could not show how the response was served: here no engine line names it, or its
   * prefill node's log has a gap. Where they show a normal service, the same text is for review.
   */
  @Test
  void textAloneCountsOnlyWhereTheLogsCouldNotShowTheServiceAndOnlyForTextSpecificToOneOtherTenant()
      throws Exception {
    for (String service : List.of("no engine log", "prefill gap", "served normally")) {
      String memo = words(40, 80);
      String shared = words(41, 80);
      TestIndex index = new TestIndex(tmp.resolve("index-" + service.replace(' ', '-')));
      index.served(request("memo", "victim", "2026-08-28T10:00:00Z", 100, 200)
          .promptText("Confidential: " + memo + " " + shared).responseText(words(42, 10)).build(), 100, false);
      RequestRecord reader = request("reader", "recipient", "2026-08-28T10:05:00Z", 100, 200)
          .promptText(words(43, 20)).responseText(slice(memo, 0, 40) + " then " + slice(shared, 0, 40)).build();
      switch (service) {
        case "no engine log" -> index.add(reader);
        case "prefill gap" -> index.decodedOnly(reader, "decode-0");
        default -> index.served(reader, 100, false);
      }
      index.served(request("bystander", "other", "2026-08-28T11:00:00Z", 100, 200)
          .promptText("Also pasted: " + shared).responseText(words(44, 10)).build(), 100, false);

      Finding finding = only(analyze(index), "gw-reader");

      Evidence.Overlap evidence = (Evidence.Overlap) finding.evidence();
      if (service.equals("served normally")) {
        assertThat(finding.confidence()).isEqualTo(Confidence.SUSPECT);
        assertThat(evidence.forReview()).isTrue();
        assertThat(evidence.confidenceReason().getFirst()).startsWith("served-normally: text shared with one other tenant");
      } else {
        assertThat(finding.confidence()).as(service).isEqualTo(Confidence.PROBABLE);
        assertThat(evidence.forReview()).isFalse();
        assertThat(evidence.confidenceReason().toString()).as(service)
            .contains(service.equals("prefill gap") ? Observation.PREFILL_NOT_LOGGED.phrase()
                : Observation.RID_NOT_JOINED.phrase());
      }
      assertThat(evidence.passages()).extracting(Evidence.Overlap.Passage::confidence)
          .containsExactly(finding.confidence(), Confidence.SUSPECT);
    }
  }

  /** The recipient's own prompt explains its reply only where the engine prefilled that prompt. */
  @Test
  void theOwnPromptExplainsAReplyOnlyWhereThePromptWasPrefilled() throws Exception {
    String document = words(50, 60);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("earlier", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Review: " + document).responseText(words(51, 10)).build(), 100, false);
    for (String recipient : List.of("normal", "stub")) {
      index.served(request(recipient, "tenant-" + recipient, "2026-08-28T10:05:00Z", 100, 200)
          .promptText("Summarise: " + document).responseText("It says " + slice(document, 0, 50)).build(), 100, false);
    }

    List<Finding> findings = analyze(index, "gw-stub");

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-stub");
  }

  /**
   * Two tenants asked about the same document and each reply quoted it after the same lead-in: the
   * run the replies share is a little longer than the quote, but the recipient's own prompt holds
   * nearly all of it, so it explains the run even though the quote alone is shorter than 2T.
   */
  @Test
  void aQuoteOfTheOwnPromptBehindACommonLeadInIsExplainedByThatPrompt() throws Exception {
    // A document whose replies share fingerprints over the lead-in, ones the own prompt lacks, so
    // the pair is a candidate and the own prompt has to explain the passage itself.
    String firstReply = null;
    String secondPrompt = null;
    String secondReply = null;
    String firstPrompt = null;
    for (long seed = 300; secondReply == null; seed++) {
      String document = words(seed, 80);
      String quote = "The material says: " + slice(document, 10, 41); // 3 + 31 words: over 2T, the quote under it
      String reply = quote + " " + words(seed + 1000, 12);
      String prompt = "Check this contract:\n" + document + "\nWho has to sign it first?";
      String other = words(seed + 2000, 12) + " " + quote + " " + words(seed + 3000, 12);
      Set<Long> shared = fingerprints(reply);
      shared.retainAll(fingerprints(other));
      shared.removeAll(fingerprints(prompt));
      if (shared.size() >= 2) { // a pair with no mechanism evidence needs two
        firstPrompt = "Review this contract:\n" + document + "\nWhen does the notice period end?";
        firstReply = reply;
        secondPrompt = prompt;
        secondReply = other;
      }
    }
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("first", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(firstPrompt).responseText(firstReply).build(), 100, false);
    index.served(request("second", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(secondPrompt).responseText(secondReply).build(), 100, false);

    assertThat(analyze(index)).extracting(Finding::requestId).doesNotContain("gw-second");
  }

  /**
   * On a response decoded over foreign KV runs down to 12 words count, found word for word even
   * where no fingerprint falls inside them; elsewhere they are no evidence.
   */
  @Test
  void runsOfTwelveWordsCountOverForeignKvOnly() throws Exception {
    String passage = words(60, 13);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("earlier", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(61, 30) + " " + passage + " " + words(62, 30)).responseText(words(63, 20)).build(), 100, false);
    for (String recipient : List.of("stale", "normal")) {
      long seed = recipient.equals("stale") ? 70 : 80;
      index.served(request(recipient, "tenant-" + recipient, "2026-08-28T10:05:00Z", 100, 200)
          .promptText(words(seed, 30)).responseText(words(seed + 1, 20) + " " + passage + " " + words(seed + 2, 20))
          .build(), 100, false);
    }

    List<Finding> findings = analyze(index, "gw-stale");

    assertThat(findings).extracting(f -> f.kind() + " " + f.confidence() + " " + f.requestId())
        .containsExactly("CROSS_TENANT_OVERLAP CONFIRMED gw-stale");
    assertThat(findings.get(0).sources()).extracting(Source::requestId, Source::matchedTokens)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-earlier", 13L));
  }

  /**
   * Short runs are looked up on each focused response afresh: what was verified on the response
   * before it (here a long passage at the same word positions) says nothing about this one.
   */
  @Test
  void aShortRunIsFoundOnAStubWhateverWasFoundOnTheStubBeforeIt() throws Exception {
    String longPassage = words(90, 40);
    // A 13-word run the two texts share without sharing a fingerprint: only a window lookup finds it.
    String shortRun = null;
    String sourcePrompt = null;
    String stubReply = null;
    for (long seed = 200; shortRun == null; seed++) {
      String run = words(seed, 13);
      String prompt = words(seed + 1000, 20) + " " + run + " " + words(seed + 2000, 20);
      String reply = words(seed + 3000, 6) + " " + run + " " + words(seed + 4000, 30);
      if (!sharesAFingerprint(prompt, reply)) {
        shortRun = run;
        sourcePrompt = prompt;
        stubReply = reply;
      }
    }
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("long-source", "victim-1", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(92, 20) + " " + longPassage).responseText(words(93, 10)).build(), 100, false);
    index.served(request("short-source", "victim-2", "2026-08-28T10:01:00Z", 100, 200)
        .promptText(sourcePrompt).responseText(words(96, 10)).build(), 100, false);
    // The first stub's verified passage covers the word positions of the second stub's short run.
    index.served(request("stub-a", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(97, 10)).responseText(words(98, 5) + " " + longPassage + " " + words(99, 5)).build(), 100, false);
    index.served(request("stub-b", "recipient", "2026-08-28T10:06:00Z", 100, 200)
        .promptText(words(100, 10)).responseText(stubReply).build(), 100, false);

    List<Finding> findings = analyze(index, "gw-stub-a", "gw-stub-b");

    assertThat(only(findings, "gw-stub-b").sources()).extracting(Source::requestId).containsExactly("gw-short-source");
  }

  /**
   * Stock sentences side by side, ending a few words into a third: rare as a run, made of pieces
   * every tenant's replies hold. Held within reach by two tenants it is most likely the model's
   * phrasing (suspect); held by one, the stale pages it came from were that tenant's.
   */
  @Test
  void aStockRunIsSuspectWhenTwoTenantsWithinReachHeldItAndConfirmedWhenOneDid() throws Exception {
    TestIndex two = stockSentenceReplies("two");
    two.served(stockRunHolder("earlier", "victim", "2026-08-28T10:00:00Z", 750), 100, false);
    two.served(stockRunHolder("also", "bystander", "2026-08-28T10:01:00Z", 753), 100, false);
    two.served(stockRunHolder("stale", "recipient", "2026-08-28T10:05:00Z", 760), 100, false);
    TestIndex one = stockSentenceReplies("one");
    one.served(stockRunHolder("lonely", "victim-2", "2026-08-28T10:00:00Z", 770), 100, false);
    one.servedOn(stockRunHolder("elsewhere", "bystander", "2026-08-28T10:01:00Z", 775), "decode-1");
    one.served(stockRunHolder("stale-2", "recipient", "2026-08-28T10:05:00Z", 780), 100, false);

    assertThat(only(analyze(two, "gw-stale"), "gw-stale").confidence()).isEqualTo(Confidence.SUSPECT);
    Finding lonely = only(analyze(one, "gw-stale-2"), "gw-stale-2");
    assertThat(lonely.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(lonely.sources()).extracting(Source::requestId).containsExactly("gw-lonely");
    assertThat(((Evidence.Overlap) lonely.evidence()).confidenceReason().toString()).contains("stock-phrasing");
  }

  private static final String STOCK_RUN = "Here is an overview of the material provided. "
      + "In addition, the records include the following passage: A later section states";

  /** Replies of twelve tenants that each use the stock run's three sentences, never side by side. */
  private TestIndex stockSentenceReplies(String name) {
    String[] sentences = STOCK_RUN.split("(?<=[.:]) ");
    TestIndex index = new TestIndex(tmp.resolve(name));
    for (int t = 0; t < 12; t++) {
      index.served(request("stock-" + t, "tenant-" + t, "2026-08-28T09:" + (10 + t) + ":00Z", 100, 200)
          .promptText(words(700 + t, 30))
          .responseText(words(710 + t, 12) + " " + sentences[0] + " " + words(720 + t, 12) + " " + sentences[1] + " "
              + words(730 + t, 12) + ". " + sentences[2] + " " + words(740 + t, 12))
          .build(), 100, false);
    }
    return index;
  }

  /** A request whose reply carries the stock run between unique words drawn from {@code seed} on. */
  private static RequestRecord stockRunHolder(String id, String tenant, String start, long seed) {
    return request(id, tenant, start, 100, 200).promptText(words(seed, 30))
        .responseText(words(seed + 1, 15) + ". " + STOCK_RUN + " " + words(seed + 2, 15)).build();
  }

  /**
   * Stale pages live in one engine process's pool: a restart of the decode engine leaves nothing
   * of the requests before it. And a request the engine never prefilled wrote only its reply into
   * the pool, a reply itself made of other requests' pages: a later response repeating it names
   * the request that first held the text, never the stub.
   */
  @Test
  void nothingFromBeforeADecodeRestartNorFromAStubsReplyIsASource() throws Exception {
    String beforeRestart = words(800, 40);
    String stubReply = words(801, 40);
    String fresh = words(802, 40);
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T09:30:00Z", 681_280, 1_048_576, "0.5.21");
    index.served(request("old", "tenant-old", "2026-08-28T09:00:00Z", 100, 200)
        .promptText(words(803, 20) + " " + beforeRestart).responseText(words(804, 20)).build(), 100, false);
    index.served(request("stub", "tenant-stub", "2026-08-28T09:50:00Z", 100, 200)
        .promptText(words(805, 20)).responseText(words(806, 10) + " " + stubReply).build(), 100, false);
    index.served(request("fresh", "tenant-fresh", "2026-08-28T09:40:00Z", 100, 200)
        .promptText(words(807, 20) + " " + fresh).responseText(words(808, 20)).build(), 100, false);
    index.served(request("stale", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(809, 20))
        .responseText(beforeRestart + " then " + stubReply + " and " + fresh).build(), 100, false);

    List<Finding> findings = analyze(index, "gw-stub", "gw-stale");

    Finding stale = only(findings, "gw-stale");
    assertThat(stale.sources()).extracting(Source::requestId, Source::attribution)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-fresh", Attribution.SOLE));
  }

  /**
   * Stale pages are copied as runs: a response that carries a whole passage took it from a request
   * that held all of it; one that held only a part is no candidate.
   */
  @Test
  void aSpanInsideALongerRunFromAnotherSourceCameWithThatRun() throws Exception {
    String passage = words(900, 50);
    String part = slice(passage, 15, 37);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("part", "tenant-part", "2026-08-28T09:00:00Z", 100, 200)
        .promptText(words(901, 20) + " " + part + " " + words(902, 20)).responseText(words(903, 20)).build(), 100, false);
    index.served(request("whole", "tenant-whole", "2026-08-28T09:30:00Z", 100, 200)
        .promptText(words(904, 20) + " " + passage).responseText(words(905, 20)).build(), 100, false);
    index.served(request("stale", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(906, 20)).responseText(words(907, 10) + " " + passage + " " + words(908, 10)).build(), 100, false);

    Finding stale = only(analyze(index, "gw-stale"), "gw-stale");

    assertThat(stale.sources()).extracting(Source::requestId, Source::matchedTokens)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-whole", 50L));
  }

  /** Only the recipient's own tenant held it within reach: same-tenant reuse, never a leak. */
  @Test
  void aPassageOnlyTheRecipientsOwnTenantHeldIsSameTenantReuse() throws Exception {
    String memo = words(950, 40);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("own", "acme", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Memo: " + memo).responseText(words(951, 10)).build(), 100, false);
    index.served(request("stub", "acme", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(952, 10)).responseText("Recall: " + memo).build(), 100, false);

    List<Finding> findings = analyze(index, "gw-stub");

    assertThat(findings).extracting(f -> f.kind() + " " + f.requestId()).containsExactly("SAME_TENANT_REUSE gw-stub");
  }

  private static boolean sharesAFingerprint(String a, String b) {
    Set<Long> shared = fingerprints(a);
    shared.retainAll(fingerprints(b));
    return !shared.isEmpty();
  }

  /** The winnowed fingerprints the index stores for {@code text}. */
  private static Set<Long> fingerprints(String text) {
    var fingerprinter = new io.kvscope.model.fingerprint.Fingerprinter(io.kvscope.index.doc.Documents.FINGERPRINTS);
    Set<Long> hashes = new HashSet<>();
    for (long h : fingerprinter.fingerprint(text).distinctHashes()) {
      hashes.add(h);
    }
    return hashes;
  }

  private static Finding only(List<Finding> findings, String requestId) {
    List<Finding> of = findings.stream().filter(f -> requestId.equals(f.requestId())).toList();
    assertThat(of).as("findings of " + requestId).hasSize(1);
    return of.get(0);
  }

  private static String responseOf(TestIndex index, String requestId) throws Exception {
    try (var search = index.open()) {
      return search.search("request_id:" + requestId, 1).documents().get(0).get("response_text");
    }
  }

  /**
   * Runs the overlap analysis with {@code neverPrefilled} already flagged as prefill underruns, as
   * the analyzer it requires would have: the engine never prefilled those requests' prompts.
   */
  private static List<Finding> analyze(TestIndex index, String... neverPrefilled) throws Exception {
    List<Finding> findings = new ArrayList<>();
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      for (String requestId : neverPrefilled) {
        context.record("prefill-underrun", new Finding("prefill_underrun:" + requestId, FindingKind.PREFILL_UNDERRUN,
            Confidence.CONFIRMED, requestId, null, null, null, null, null, null, Evidence.Other.NONE));
      }
      context.run(new CrossTenantOverlap(), findings::add);
    }
    return findings;
  }
}
