package io.kvscope.analysis;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrossTenantOverlapTest {

  @TempDir Path tmp;

  /** Unique prose: words drawn from a large vocabulary with a fixed seed. */
  private static String words(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    return IntStream.range(0, n).mapToObj(i -> "w" + Integer.toString(random.nextInt(1_000_000), 36))
        .collect(Collectors.joining(" "));
  }

  @Test
  void findsTheSourceOfALeakedSpanAndIgnoresBoilerplateOwnPromptAndSameAnswers() throws Exception {
    String secret = words(1, 60);
    String leaked = String.join(" ", java.util.Arrays.asList(secret.split(" ")).subList(10, 45)); // 35 tokens
    String boilerplate = words(2, 40);
    String question = words(3, 30);
    String answer = words(4, 40);
    TestIndex index = new TestIndex(tmp.resolve("index"));

    index.served(request("source", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Please summarise: " + secret).responseText("Sure.").build(), 100, false);
    index.served(request("leak", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(5, 50)).responseText("Here is the reply " + leaked + " and more " + words(6, 10)).build(), 100, false);
    for (int t = 0; t < 8; t++) { // a system prompt every tenant pastes and every model repeats
      index.served(request("boiler-" + t, "tenant-" + t, "2026-08-28T09:0" + t + ":00Z", 100, 200)
          .promptText(boilerplate + " " + words(100 + t, 30)).responseText("As instructed: " + boilerplate).build(), 100, false);
    }
    index.served(request("asker-1", "alpha", "2026-08-28T11:00:00Z", 100, 200)
        .promptText(question).responseText(answer).build(), 100, false);
    index.served(request("asker-2", "beta", "2026-08-28T11:30:00Z", 100, 200)
        .promptText(question).responseText(answer).build(), 100, false);
    index.served(request("echo", "gamma", "2026-08-28T12:00:00Z", 100, 200)
        .promptText("Repeat this: " + secret).responseText("Repeating: " + leaked).build(), 100, false);
    index.served(request("reuse", "victim", "2026-08-28T10:10:00Z", 100, 200)
        .promptText(words(7, 20)).responseText("Again " + leaked).build(), 100, false);
    // A later request holding the same text is never a source of an earlier response.
    index.served(request("later", "other", "2026-08-28T13:00:00Z", 100, 200)
        .promptText("Quoting: " + leaked).responseText(words(8, 20)).build(), 100, false);

    List<Finding> findings = new ArrayList<>();
    String responseText;
    try (var search = index.open()) {
      new CrossTenantOverlap().analyze(new AnalysisContext(search, AnalysisOptions.defaults()), findings::add);
      responseText = search.search("request_id:gw-leak", 1).documents().get(0).get("response_text");
    }

    assertThat(findings).extracting(f -> f.kind() + " " + f.requestId())
        .containsExactlyInAnyOrder("CROSS_TENANT_OVERLAP gw-leak", "SAME_TENANT_REUSE gw-reuse");
    Finding leak = findings.stream().filter(f -> f.kind() == FindingKind.CROSS_TENANT_OVERLAP).findFirst().orElseThrow();
    Source source = leak.sources().stream().filter(s -> s.requestId().equals("gw-source")).findFirst().orElseThrow();
    assertThat(source.tenant()).isEqualTo("victim");
    assertThat(source.matchedTokens()).isEqualTo(35);
    Span span = source.spans().get(0);
    assertThat(responseText.substring(span.responseStart(), span.responseEnd())).isEqualTo(leaked);
    assertThat(span.sourceField()).isEqualTo("prompt_text");
  }

  /**
   * A model's stock sentences combine freely: two replies can share a 16-word run made of two of
   * them (rare as a run, so the fingerprint cut-off does not see it) without either having taken
   * it from the other. A short passage of unique text shared the same way is still reported.
   */
  @Test
  void twoStockSentencesSideBySideAreNotALeakButAShortUniquePassageIs() throws Exception {
    String overview = "Here is an overview of the material provided.";
    String passage = "In addition, the records include the following passage:";
    String unique = words(11, 20);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    for (int t = 0; t < 12; t++) { // every tenant's replies use both sentences, never side by side
      index.served(request("stock-" + t, "tenant-" + t, "2026-08-28T09:" + (10 + t) + ":00Z", 100, 200)
          .promptText(words(300 + t, 30))
          .responseText(words(400 + t, 12) + " " + overview + " " + words(500 + t, 12) + " " + passage + " " + words(600 + t, 12))
          .build(), 100, false);
    }
    index.served(request("earlier", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(20, 30)).responseText(words(21, 15) + " " + overview + " " + passage + " " + unique + " " + words(22, 15))
        .build(), 100, false);
    index.served(request("later", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(30, 30)).responseText(words(31, 15) + " " + overview + " " + passage + " " + words(32, 15)
            + " and also " + unique + " " + words(33, 15))
        .build(), 100, false);

    List<Finding> findings = new ArrayList<>();
    String responseText;
    try (var search = index.open()) {
      new CrossTenantOverlap().analyze(new AnalysisContext(search, AnalysisOptions.defaults()), findings::add);
      responseText = search.search("request_id:gw-later", 1).documents().get(0).get("response_text");
    }

    Finding later = findings.stream().filter(f -> f.requestId().equals("gw-later")).findFirst().orElseThrow();
    assertThat(later.sources()).extracting(Source::requestId).containsExactly("gw-earlier");
    assertThat(later.sources().get(0).spans())
        .extracting(span -> responseText.substring(span.responseStart(), span.responseEnd()))
        .containsExactly(unique);
  }

  /**
   * A passage of exactly T words holds one fingerprint. On a response the engine never prefilled
   * (here, a prefill underrun) it is verified and confirmed; on a response served normally it
   * could at best be a suspect, and a pair sharing one fingerprint is not even verified there.
   */
  @Test
  void aPassageOfTWordsIsVerifiedWhereTheEngineNeverPrefilledThePrompt() throws Exception {
    String passage = words(40, 16);
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("earlier", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(41, 30) + " " + passage + " " + words(42, 30)).responseText(words(43, 20)).build(), 100, false);
    for (String recipient : List.of("stale", "normal")) {
      long seed = recipient.equals("stale") ? 50 : 60;
      index.served(request(recipient, "tenant-" + recipient, "2026-08-28T10:05:00Z", 100, 200)
          .promptText(words(seed, 30)).responseText(words(seed + 1, 20) + " " + passage + " " + words(seed + 2, 20))
          .build(), 100, false);
    }

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stale");

    assertThat(findings).extracting(f -> f.kind() + " " + f.confidence() + " " + f.requestId())
        .containsExactly("CROSS_TENANT_OVERLAP CONFIRMED gw-stale");
    assertThat(findings.get(0).sources()).extracting(Source::requestId, Source::matchedTokens)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-earlier", 16L));
  }

  /**
   * Stock sentences side by side, ending a few words into a third: every 8-word piece over those
   * last words also holds the end of the sentence before, a pairing no other reply has, yet each
   * sentence piece is stock. When two tenants within reach of the recipient's pool held that run,
   * it cannot be told whose pages it came from: not a leak, even on a response the engine never
   * prefilled.
   */
  @Test
  void stockSentencesTwoTenantsWithinReachHeldAreNotALeak() throws Exception {
    TestIndex index = stockSentenceReplies();
    index.served(stockRunHolder("earlier", "victim", "2026-08-28T10:00:00Z", 750), 100, false);
    index.served(stockRunHolder("also", "bystander", "2026-08-28T10:01:00Z", 753), 100, false);
    index.served(stockRunHolder("stale", "recipient", "2026-08-28T10:05:00Z", 760), 100, false);

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stale");

    assertThat(findings).extracting(Finding::requestId).doesNotContain("gw-stale");
  }

  /**
   * The same run of stock sentences, held by one tenant within reach of the recipient's pool: the
   * others that held it decoded on another node, or never had their prompt prefilled (their reply
   * was itself written from stale pages). Only the one tenant's pages can have carried it.
   */
  @Test
  void aStockRunOnlyOneTenantWithinReachHeldCameFromThatTenant() throws Exception {
    TestIndex index = stockSentenceReplies();
    index.served(stockRunHolder("earlier", "victim", "2026-08-28T10:00:00Z", 750), 100, false);
    index.servedOn(stockRunHolder("elsewhere", "bystander", "2026-08-28T10:01:00Z", 753), "decode-1");
    index.served(stockRunHolder("stub", "other-stale", "2026-08-28T10:02:00Z", 756), 100, false);
    index.served(stockRunHolder("stale", "recipient", "2026-08-28T10:05:00Z", 760), 100, false);

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stub", "gw-stale");

    Finding stale = findings.stream().filter(f -> f.requestId().equals("gw-stale")).findFirst().orElseThrow();
    assertThat(stale.sources()).extracting(Source::requestId).containsExactly("gw-earlier");
    assertThat(stale.evidence()).containsEntry("sources_named_as_sole_holder_of_stock_phrasing", List.of("gw-earlier"));
  }

  /**
   * A short run whose every eight-word piece is common, though the run itself is not: twelve
   * tenants' replies hold the sentence twice over, the victim's holds it twice and a word more.
   * The fingerprint bound calls the run boilerplate (its pieces are in twelve tenants' texts); on
   * a response the engine never prefilled, the run is counted word for word instead, and only the
   * victim held it.
   */
  @Test
  void aRunIsCountedWordForWordWhereOnlyItsPiecesAreCommon() throws Exception {
    String sentence = "please forward the signed quarterly schedule to finance";
    String twice = sentence + " " + sentence;
    String run = twice + " please"; // 17 words
    TestIndex index = new TestIndex(tmp.resolve("index"));
    for (int t = 0; t < 12; t++) {
      index.served(request("common-" + t, "tenant-" + t, "2026-08-28T09:" + (10 + t) + ":00Z", 100, 200)
          .promptText(words(1000 + t, 30)).responseText(words(1020 + t, 12) + " " + twice + ". " + words(1040 + t, 12))
          .build(), 100, false);
    }
    for (int pair = 0; pair < 60; pair++) { // ordinary shared text, so the learned cut-off stays low
      String passage = words(2000 + pair, 100);
      String start = "2026-08-28T08:" + String.format("%02d", pair) + ":00Z";
      index.served(request("pair-a-" + pair, "pair-a-" + pair, start, 100, 200)
          .promptText(passage).responseText(words(3000 + pair, 10)).build(), 100, false);
      index.served(request("pair-b-" + pair, "pair-b-" + pair, start, 100, 200)
          .promptText(words(4000 + pair, 10)).responseText(passage).build(), 100, false);
    }
    index.served(request("earlier", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText(words(1100, 30)).responseText(words(1101, 15) + ". " + run + " " + words(1102, 15)).build(), 100, false);
    index.served(request("stale", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(1103, 30)).responseText(words(1104, 15) + ". " + run + " " + words(1105, 15)).build(), 100, false);

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stale");

    Finding stale = findings.stream().filter(f -> f.requestId().equals("gw-stale")).findFirst().orElseThrow();
    assertThat(stale.sources()).extracting(Source::requestId).containsExactly("gw-earlier");
  }

  private static final String STOCK_RUN = "Here is an overview of the material provided. "
      + "In addition, the records include the following passage: A later section states";

  /** Replies of twelve tenants that each use the stock run's three sentences, never side by side. */
  private TestIndex stockSentenceReplies() {
    String[] sentences = STOCK_RUN.split("(?<=[.:]) ");
    TestIndex index = new TestIndex(tmp.resolve("index"));
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

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stub", "gw-stale");

    Finding stale = findings.stream().filter(f -> f.requestId().equals("gw-stale")).findFirst().orElseThrow();
    assertThat(stale.sources()).extracting(Source::requestId).containsExactly("gw-fresh");
    assertThat(stale.evidence()).containsEntry("sources_named_as_sole_holder_of_stock_phrasing", List.of());
  }

  /**
   * Stale pages are copied as runs: a response that carries a whole passage took it from the one
   * request that held all of it, even when an earlier request of another tenant held a part.
   */
  @Test
  void aSpanInsideALongerRunFromAnotherSourceCameWithThatRun() throws Exception {
    String passage = words(900, 50);
    String part = String.join(" ", java.util.Arrays.asList(passage.split(" ")).subList(15, 37));
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("part", "tenant-part", "2026-08-28T09:00:00Z", 100, 200)
        .promptText(words(901, 20) + " " + part + " " + words(902, 20)).responseText(words(903, 20)).build(), 100, false);
    index.served(request("whole", "tenant-whole", "2026-08-28T09:30:00Z", 100, 200)
        .promptText(words(904, 20) + " " + passage).responseText(words(905, 20)).build(), 100, false);
    index.served(request("stale", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText(words(906, 20)).responseText(words(907, 10) + " " + passage + " " + words(908, 10)).build(), 100, false);

    List<Finding> findings = analyzeWithNeverPrefilled(index, "gw-stale");

    Finding stale = findings.stream().filter(f -> f.requestId().equals("gw-stale")).findFirst().orElseThrow();
    assertThat(stale.sources()).extracting(Source::requestId, Source::matchedTokens)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gw-whole", 50L));
  }

  /**
   * Runs the overlap analysis with {@code requestIds} already flagged as prefill underruns, as the
   * analyzer that runs before it would have: the engine never prefilled those requests' prompts.
   */
  private static List<Finding> analyzeWithNeverPrefilled(TestIndex index, String... requestIds) throws Exception {
    List<Finding> findings = new ArrayList<>();
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      for (String requestId : requestIds) {
        context.add(new Finding("prefill_underrun:" + requestId, FindingKind.PREFILL_UNDERRUN,
            io.kvscope.analysis.finding.Confidence.CONFIRMED, requestId, null, null, null, null, null, null, null));
      }
      new CrossTenantOverlap().analyze(context, findings::add);
    }
    return findings;
  }
}
