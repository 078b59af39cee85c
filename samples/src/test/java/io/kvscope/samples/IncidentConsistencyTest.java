package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.EngineFacts;
import io.kvscope.samples.testing.GatewayReader;
import io.kvscope.samples.testing.GatewayRecord;
import io.kvscope.samples.testing.TokenCount;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.NodeTruth;
import io.kvscope.samples.truth.OverLengthTruth;
import io.kvscope.samples.truth.SourceTruth;
import io.kvscope.samples.truth.WindowTruth;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates the small incident once and checks its ground truth against the files it wrote, read
 * back with plain Jackson and regular expressions (not the ingest parsers).
 */
class IncidentConsistencyTest {

  private static final long POOL = 681_280L;

  @TempDir
  static Path dir;

  static GenerationSummary summary;
  static GroundTruth truth;
  static List<GatewayRecord> records;
  static Map<String, GatewayRecord> byId;
  static EngineFacts engine;

  @BeforeAll
  static void generate() throws Exception {
    summary = new IncidentGenerator().generate(dir, 7L, Scale.SMALL);
    truth = GroundTruth.load(dir.resolve("truth.json"));
    engine = EngineFacts.read(dir);
    Set<String> leaksAndSources = new HashSet<>();
    for (LeakTruth l : all()) {
      leaksAndSources.add(l.requestId());
      for (SourceTruth s : sources(l)) {
        leaksAndSources.add(s.requestId());
      }
    }
    // One pass over the gateway files (the slowest part of this class): texts of every record a
    // test below reads.
    Set<String> stubs = truth.overLengthAcceptedIds();
    records = GatewayReader.read(dir, r -> leaksAndSources.contains(r.id()) || isSmall(r) || isNearALeak(r, stubs));
    byId = new HashMap<>();
    for (GatewayRecord r : records) {
      byId.putIfAbsent(r.id(), r);
    }
  }

  /** A served prompt small enough that its text is read for the traffic's shape. */
  private static boolean isSmall(GatewayRecord r) {
    return r.success() && r.promptChars() < 50_000;
  }

  /**
   * A served, non-stubbed request decoded on some leak's decode node within the seven days before
   * that leak: one that could be within the leak's reach.
   */
  private static boolean isNearALeak(GatewayRecord r, Set<String> stubs) {
    String rid = r.id().startsWith("chatcmpl-") ? rid(r.id()) : null;
    if (!r.success() || stubs.contains(r.id()) || rid == null || engine.requests.get(rid) == null
        || engine.requests.get(rid).stats("decode") == null) {
      return false;
    }
    String node = engine.requests.get(rid).stats("decode").node();
    return all().stream().anyMatch(l -> l.decodeNode().equals(node)
        && l.time().toEpochMilli() - r.startMs() > 0 && l.time().toEpochMilli() - r.startMs() <= 7 * 86_400_000L);
  }

  private static List<LeakTruth> all() {
    List<LeakTruth> out = new ArrayList<>(truth.leakedResponses());
    out.addAll(truth.sameTenantReuse());
    return out;
  }

  private static List<SourceTruth> sources(LeakTruth l) {
    List<SourceTruth> out = new ArrayList<>(l.sources());
    out.addAll(l.sameTenantSources());
    return out;
  }

  private static String rid(String requestId) {
    return requestId.substring("chatcmpl-".length());
  }

  @Test
  void theSmallIncidentHasTensOfLeaksFromManyTenants() {
    assertThat(truth.summary().leakedResponses()).isBetween(10L, 99L);
    assertThat(truth.victimTenants().size()).isGreaterThan(5);
    assertThat(summary.requests()).isBetween(2_000L, 9_000L);
    assertThat(summary.litellmRecords() + summary.otlpSpans()).isEqualTo(summary.requests());
    assertThat(truth.generator().charsPerToken()).isBetween(4.5, 7.0);
  }

  @Test
  void everyLeakedResponseContainsItsSourcesTextAtTheStatedOffsets() {
    Pattern email = Pattern.compile("^[a-z]+\\.[a-z]+\\d+@[a-z-]+\\.example$");
    Pattern canary = Pattern.compile("^" + truth.generator().canaryPattern() + "$");
    int checked = 0;
    for (LeakTruth l : all()) {
      GatewayRecord recipient = byId.get(l.requestId());
      assertThat(recipient).as("recipient %s in the gateway logs", l.requestId()).isNotNull();
      for (SourceTruth s : sources(l)) {
        GatewayRecord source = byId.get(s.requestId());
        assertThat(source).as("source %s in the gateway logs", s.requestId()).isNotNull();
        String fragment = recipient.response().substring(s.responseStart(), s.responseEnd());
        String original = s.part().equals("prompt")
            ? source.messages().get(s.sourceMessageIndex()).substring(s.sourceStart(), s.sourceEnd())
            : source.response().substring(s.sourceStart(), s.sourceEnd());
        assertThat(fragment).as("fragment of %s in %s", s.requestId(), l.requestId()).isEqualTo(original);
        assertThat(TokenCount.count(fragment)).isEqualTo(s.matchedTokens());
        if (s.kind().equals("span")) {
          assertThat(s.words()).isBetween(12, 200);
        } else {
          assertThat(s.matchedTokens()).isEqualTo(1);
          switch (s.category()) {
            case "email" -> assertThat(fragment).matches(email);
            case "canary" -> assertThat(fragment).matches(canary);
            case "uuid" -> assertThat(fragment).matches("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
            case "account" -> assertThat(fragment).matches("^\\d{12}$");
            case "phone" -> assertThat(fragment).matches("^\\+\\d+-\\d{3}-\\d{3}-\\d{4}$");
            default -> throw new AssertionError("unexpected category " + s.category());
          }
        }
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(10);
  }

  @Test
  void sourcesPrecedeTheirRecipientAndSitOnTheSameDecodeNode() {
    for (LeakTruth l : all()) {
      GatewayRecord recipient = byId.get(l.requestId());
      String recipientDecode = engine.requests.get(l.engineRid()).stats("decode").node();
      assertThat(recipientDecode).isEqualTo(l.decodeNode());
      for (SourceTruth s : sources(l)) {
        GatewayRecord source = byId.get(s.requestId());
        assertThat(source.startMs()).isLessThan(recipient.startMs());
        assertThat(source.endMs()).isLessThan(recipient.endMs());
        assertThat(recipient.startMs() - source.endMs()).as("recent").isLessThan(48 * 3_600_000L);
        assertThat(engine.requests.get(rid(s.requestId())).stats("decode").node())
            .as("decode node of source %s", s.requestId()).isEqualTo(l.decodeNode());
      }
    }
  }

  @Test
  void crossTenantAndSameTenantSourcesAreKeptApart() {
    for (LeakTruth l : all()) {
      String recipientTenant = byId.get(l.requestId()).tenant();
      assertThat(recipientTenant).isEqualTo(l.tenant());
      for (SourceTruth s : l.sources()) {
        assertThat(byId.get(s.requestId()).tenant()).isEqualTo(s.tenant()).isNotEqualTo(recipientTenant);
      }
      for (SourceTruth s : l.sameTenantSources()) {
        assertThat(byId.get(s.requestId()).tenant()).isEqualTo(recipientTenant);
      }
    }
    for (LeakTruth l : truth.leakedResponses()) {
      assertThat(l.sources()).isNotEmpty();
    }
    for (LeakTruth l : truth.sameTenantReuse()) {
      assertThat(l.sources()).isEmpty();
      assertThat(l.sameTenantSources()).isNotEmpty();
    }
  }

  @Test
  void overLengthAcceptedPromptsExceedThePoolGot200AndWereStubbedOnPrefill() {
    assertThat(truth.overLengthAccepted()).isNotEmpty();
    Set<Long> reported = new TreeSet<>();
    for (OverLengthTruth o : truth.overLengthAccepted()) {
      GatewayRecord r = byId.get(o.requestId());
      assertThat(r.success()).isTrue();
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.promptTokensCounted()).isEqualTo(o.promptTokens()).isGreaterThan(POOL);
      assertThat(r.promptChars()).isGreaterThan(3_000_000L);
      EngineFacts.Request q = engine.requests.get(o.engineRid());
      EngineFacts.Stats decode = q.stats("decode");
      assertThat(decode.node()).isEqualTo(o.decodeNode());
      assertThat(decode.inputLen()).isEqualTo(o.promptTokens());
      if (inLostHour(o.prefillNode(), o.time())) {
        assertThat(q.stats("prefill")).as("prefill lines of %s were lost", o.requestId()).isNull();
      } else {
        assertThat(q.lengthRejectedOn).containsExactly(o.prefillNode());
        EngineFacts.Stats prefill = q.stats("prefill");
        assertThat(prefill.node()).isEqualTo(o.prefillNode());
        assertThat(prefill.inputLen()).isEqualTo(1);
        EngineFacts.Startup atPrefill = engine.startupAt(o.prefillNode(), prefill.localTime());
        assertThat(o.promptTokens()).isGreaterThan(atPrefill.poolTokens()).isLessThan(atPrefill.contextLength());
        // One page of KV went over the wire, not the prompt's worth.
        assertThat(prefill.transferMb()).isLessThan(20.0);
      }
      long reportedByEngine = q.finish.get(o.decodeNode())[0];
      assertThat(r.promptTokensReported()).isEqualTo(reportedByEngine).isIn(1L, o.promptTokens());
      reported.add(r.promptTokensReported() == 1 ? 1L : 0L);
      // Faster than any real prefill of that many tokens could be.
      assertThat(r.endMs() - r.startMs()).isLessThan(60_000L);
    }
    assertThat(reported).as("some report the stub's 1 token, some the true count").containsExactly(0L, 1L);
    assertThat(truth.prefillUnderrunIds()).isEqualTo(truth.overLengthAcceptedIds());
  }

  @Test
  void everyServedPromptBeyondItsPrefillNodesRealLimitIsInTheTruthAndNoOtherIs() {
    Set<String> expected = new TreeSet<>();
    Set<String> unknown = new TreeSet<>();
    int legitimateLong = 0;
    for (GatewayRecord r : records) {
      if (!r.success() || !r.id().startsWith("chatcmpl-")) {
        continue;
      }
      String rid = rid(r.id());
      String prefillNode = engine.nodeOf(rid, "prefill");
      if (prefillNode == null) {
        unknown.add(r.id()); // its prefill node's lines fell into the lost hour
        continue;
      }
      EngineFacts.Request q = engine.requests.get(rid);
      long receivedLocal = q.receivedAt.get(prefillNode);
      EngineFacts.Startup s = engine.startupAt(prefillNode, receivedLocal);
      long limit = Math.min(s.contextLength(), s.poolTokens());
      if (r.promptTokensCounted() > limit) {
        expected.add(r.id());
      } else {
        EngineFacts.Stats prefill = q.stats("prefill");
        if (prefill != null) { // null inside the lost hour
          assertThat(prefill.inputLen()).as("prefill input_len of %s", r.id()).isEqualTo(r.promptTokensCounted());
        }
        assertThat(r.promptTokensReported()).as("reported prompt_tokens of %s", r.id()).isEqualTo(r.promptTokensCounted());
        if (r.promptTokensCounted() > POOL) {
          legitimateLong++;
        }
      }
    }
    Set<String> listed = new TreeSet<>(truth.overLengthAcceptedIds());
    listed.removeAll(unknown);
    assertThat(expected).isEqualTo(listed);
    assertThat(unknown.size()).isLessThan(40);
    assertThat(legitimateLong).as("prompts above 681,280 served properly once the pool was raised").isPositive();
  }

  @Test
  void outsideTheVulnerableWindowsOverLengthPromptsGot400() {
    int rejectedOutside = 0;
    int acceptedInside = 0;
    for (GatewayRecord r : records) {
      if (r.promptTokensCounted() <= POOL) {
        continue;
      }
      Instant start = Instant.ofEpochMilli(r.startMs());
      boolean inWindow = false;
      for (WindowTruth w : truth.windows()) {
        if (!start.isBefore(w.start()) && start.isBefore(w.end())) {
          inWindow = true;
        }
      }
      if (!inWindow) {
        if (r.success()) {
          // Only where the pool had been raised above the prompt: served with a full prefill.
          EngineFacts.Stats prefill = engine.requests.get(rid(r.id())).stats("prefill");
          assertThat(prefill.inputLen()).isEqualTo(r.promptTokensCounted());
          assertThat(truth.overLengthAcceptedIds()).doesNotContain(r.id());
        } else {
          assertThat(r.status()).isEqualTo(400);
          assertThat(r.errorMessage()).contains("(" + r.promptTokensCounted() + " tokens)");
          assertThat(r.errorMessage()).containsAnyOf("exceeds the maximum allowed length", "is longer than the model's context length");
          rejectedOutside++;
        }
      } else if (r.success() && truth.overLengthAcceptedIds().contains(r.id())) {
        acceptedInside++;
      }
    }
    assertThat(rejectedOutside).isPositive();
    assertThat(acceptedInside).isEqualTo(truth.overLengthAccepted().size());
  }

  @Test
  void vulnerableWindowsMatchTheLoggedConfigurations() {
    assertThat(truth.windows()).hasSize(4);
    for (WindowTruth w : truth.windows()) {
      long skew = skew(w.node());
      EngineFacts.Startup open = engine.startupAt(w.node(), w.start().toEpochMilli() + skew);
      assertThat(open.localTime()).as("the start, in whole seconds").isEqualTo(
          Math.floorDiv(w.start().toEpochMilli() + skew, 1000L) * 1000L);
      assertThat(open.poolTokens()).isLessThan(open.contextLength());
      assertThat(open.version()).isIn("0.5.19", "0.5.21");
      EngineFacts.Startup close = engine.startupAt(w.node(), w.end().toEpochMilli() + skew);
      assertThat(close.version().equals("0.5.22") || close.poolTokens() >= close.contextLength()).isTrue();
    }
    for (OverLengthTruth o : truth.overLengthAccepted()) {
      boolean inside = truth.windows().stream().anyMatch(w -> w.node().equals(o.prefillNode())
          && !o.time().isBefore(w.start()) && o.time().isBefore(w.end()));
      assertThat(inside).as("%s inside its prefill node's window", o.requestId()).isTrue();
    }
  }

  private static boolean inLostHour(String node, Instant t) {
    return truth.coverageGaps().stream().anyMatch(g -> g.node().equals(node)
        && !t.isBefore(g.start().minusSeconds(5)) && t.isBefore(g.end()));
  }

  private static long skew(String node) {
    return truth.nodes().stream().filter(n -> n.node().equals(node)).mapToLong(NodeTruth::clockSkewMs).findFirst()
        .orElseThrow();
  }

  @Test
  void theSkewedNodeStampsItsLinesTensOfSecondsAhead() {
    int checked = 0;
    for (GatewayRecord r : records) {
      if (!r.success() || !r.id().startsWith("chatcmpl-")) {
        continue;
      }
      EngineFacts.Request q = engine.requests.get(rid(r.id()));
      for (Map.Entry<String, Long> e : q.receivedAt.entrySet()) {
        long offset = e.getValue() - r.startMs();
        long expectedSkew = skew(e.getKey());
        // the prefix has whole seconds: up to a second early
        assertThat(offset - expectedSkew).as("receipt on %s", e.getKey()).isBetween(-999L, 100L);
        if (expectedSkew > 10_000) {
          checked++;
        }
      }
    }
    assertThat(checked).isPositive();
  }

  @Test
  void engineLogsHaveUpstreamShapes() {
    assertThat(engine.contextRejectionLines).as("the tokenizer's 400 is not logged").isZero();
    int pairs = 0;
    int failed = 0;
    for (EngineFacts.Line line : engine.requestLines) {
      if (line.message().startsWith("Receive:") || line.message().startsWith("Finish:")) {
        assertThat(line.rank()).as("request logger: no rank tag").isEqualTo(-1);
      } else if (!line.message().startsWith("Decode transfer failed")) {
        assertThat(line.rank()).as("rank 0 only: %s", line.message()).isZero();
      }
    }
    for (EngineFacts.Request q : engine.requests.values()) {
      String prefill = q.ridOn.keySet().stream().filter(n -> "prefill".equals(engine.roleOf.get(n))).findFirst()
          .orElse(null);
      String decode = q.ridOn.keySet().stream().filter(n -> "decode".equals(engine.roleOf.get(n))).findFirst()
          .orElse(null);
      if (prefill != null && decode != null) {
        assertThat(q.ridOn.get(prefill)).as("each server makes its own rid").isNotEqualTo(q.ridOn.get(decode));
        pairs++;
      }
      assertThat(q.lengthRejectedOn).as("set_finish_with_abort logs on rank 0 only").hasSizeLessThanOrEqualTo(1);
      if (!q.transferFailedRanks.isEmpty()) {
        int ranks = engine.startupAt(decode, q.receivedAt.get(decode)).tpSize();
        assertThat(q.transferFailedRanks).as("one line per decode rank").containsExactlyInAnyOrderElementsOf(
            java.util.stream.IntStream.range(0, ranks).boxed().toList());
        assertThat(q.finishType.get(decode)).isEqualTo("abort");
        failed++;
      }
    }
    assertThat(pairs).isGreaterThan(1_000);
    assertThat(failed).as("aborted decode halves of length-rejected requests").isPositive();
  }

  @Test
  void duplicatedGatewayLinesAreCountedInTheTruth() {
    Map<String, Integer> seen = new HashMap<>();
    int duplicates = 0;
    for (GatewayRecord r : records) {
      if (seen.merge(r.id(), 1, Integer::sum) > 1) {
        duplicates++;
      }
    }
    int expected = truth.duplicates().stream().mapToInt(d -> d.lines()).sum();
    assertThat(expected).isPositive();
    assertThat(duplicates).isEqualTo(expected);
    assertThat(truth.duplicates()).anyMatch(d -> !d.file().equals(d.originalFile()));
    assertThat(truth.duplicates()).anyMatch(d -> d.file().equals(d.originalFile()));
  }

  @Test
  void theLostHourHasNoEngineLinesWhileItsNeighboursDo() {
    assertThat(truth.coverageGaps()).hasSize(1);
    var gap = truth.coverageGaps().getFirst();
    var hours = engine.linesPerHour.get(gap.node());
    long start = gap.start().toEpochMilli();
    assertThat(hours).doesNotContainKey(start);
    assertThat(hours).containsKey(start - 3_600_000L).containsKey(start + 3_600_000L);
    assertThat(gap.droppedLines()).isPositive();
    for (var e : engine.linesPerHour.entrySet()) {
      if (!e.getKey().equals(gap.node())) {
        assertThat(e.getValue()).containsKey(start);
      }
    }
  }

  @Test
  void prefixCacheHitsAreReportedAndFast() {
    long hits = records.stream().filter(r -> r.cachedTokens() > 0).count();
    assertThat(hits).isGreaterThan(50);
    long fastHits = records.stream()
        .filter(r -> r.cachedTokens() > 0 && r.firstTokenMs() - r.startMs() < 1_000 && r.firstTokenMs() < r.endMs())
        .count();
    assertThat(fastHits).isPositive();
  }

  @Test
  void summaryCountsFollowFromTheListedLeaks() {
    Set<String> sourcesSeen = new TreeSet<>();
    Set<String> victims = new TreeSet<>();
    Set<String> recipients = new TreeSet<>();
    Instant first = null;
    Instant last = null;
    for (LeakTruth l : truth.leakedResponses()) {
      recipients.add(l.tenant());
      for (SourceTruth s : l.sources()) {
        sourcesSeen.add(s.requestId());
        victims.add(s.tenant());
      }
      first = first == null || l.time().isBefore(first) ? l.time() : first;
      last = last == null || l.time().isAfter(last) ? l.time() : last;
    }
    var s = truth.summary();
    assertThat(s.leakedResponses()).isEqualTo(truth.leakedResponses().size());
    assertThat(s.sourceRequests()).isEqualTo(sourcesSeen.size());
    assertThat(s.victimTenants()).isEqualTo(victims.size());
    assertThat(s.recipientTenants()).isEqualTo(recipients.size());
    assertThat(s.overLengthAccepted()).isEqualTo(truth.overLengthAccepted().size());
    assertThat(s.prefillUnderruns()).isEqualTo(truth.prefillUnderruns().size());
    assertThat(s.firstExposure()).isEqualTo(first);
    assertThat(s.lastExposure()).isEqualTo(last);
    assertThat(truth.victimTenants()).containsExactlyElementsOf(victims);
    assertThat(truth.recipientTenants()).containsExactlyElementsOf(recipients);
    // Every prefill stub in the logs is a listed underrun.
    Set<String> stubs = new TreeSet<>();
    engine.requests.forEach((rid, q) -> {
      EngineFacts.Stats p = q.stats("prefill");
      if (p != null && p.inputLen() == 1) {
        stubs.add("chatcmpl-" + rid);
      }
    });
    assertThat(truth.prefillUnderrunIds()).containsAll(stubs);
  }

  @Test
  void filesAreOwnerOnlyAndListedWithTheirSizes() throws Exception {
    for (var f : truth.files()) {
      Path p = dir.resolve(f.path());
      assertThat(java.nio.file.Files.size(p)).isEqualTo(f.bytes());
      if (java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p)))
            .isEqualTo("rw-------");
      }
    }
    if (java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
          java.nio.file.Files.getPosixFilePermissions(dir.resolve("engine")))).isEqualTo("rwx------");
    }
    assertThat(truth.files()).anyMatch(f -> f.codec().equals("gzip"));
    assertThat(truth.files()).anyMatch(f -> f.format().equals("otlp-json"));
    assertThat(truth.files().stream().filter(f -> f.format().equals("sglang-log"))).hasSize(8);
  }

  /**
   * Every request the truth names as having held a leaked fragment did hold it word for word, on
   * the recipient's decode node, before it; and every request that did, within the reach the
   * truth states (prompt prefilled, same decode node and engine run, at most 7 days before), is
   * named. The source is always among them.
   */
  @Test
  void theHoldersOfEachFragmentAreEveryEarlierRequestWithinReachThatHeldItWordForWord() throws Exception {
    Set<String> stubs = truth.overLengthAcceptedIds();
    // Texts of every served request that could be within some recipient's reach.
    Map<String, GatewayRecord> texts = new HashMap<>();
    records.stream().filter(r -> isNearALeak(r, stubs)).forEach(r -> texts.putIfAbsent(r.id(), r));
    int shared = 0;
    int checked = 0;
    for (LeakTruth l : all()) {
      String response = byId.get(l.requestId()).response();
      for (SourceTruth s : sources(l)) {
        String fragment = response.substring(s.responseStart(), s.responseEnd());
        Set<String> named = new TreeSet<>();
        s.holders().forEach(h -> named.add(h.requestId()));
        assertThat(named).as("holders of a fragment of %s", l.requestId()).contains(s.requestId());
        Set<String> held = new TreeSet<>();
        for (GatewayRecord r : texts.values()) {
          String node = engine.requests.get(rid(r.id())).stats("decode").node();
          long gap = l.time().toEpochMilli() - r.startMs();
          if (node.equals(l.decodeNode()) && gap > 0 && gap <= 7 * 86_400_000L && !restartedBetween(node, r.startMs(),
              l.time().toEpochMilli()) && (r.response().contains(fragment) || r.messages().stream().anyMatch(m -> m.contains(fragment)))) {
            held.add(r.id());
          }
        }
        assertThat(held).as("requests named as holders of a fragment of %s", l.requestId()).containsAll(named);
        Set<String> unnamed = new TreeSet<>(held);
        unnamed.removeAll(named);
        for (String id : unnamed) {
          // Only a request that started before the recipient but got its decode pages after it.
          assertThat(l.time().toEpochMilli() - byId.get(id).startMs()).as("%s held it but is not named", id)
              .isLessThan(120_000L);
        }
        shared += named.size() > 1 ? 1 : 0;
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(10);
    assertThat(shared).as("fragments several requests within reach held").isPositive();
  }

  /** A startup of the decode node's engine in {@code (from, to]}, true time. */
  private static boolean restartedBetween(String node, long from, long to) {
    return truth.configEpochs().stream().anyMatch(e -> e.node().equals(node)
        && e.start().toEpochMilli() > from && e.start().toEpochMilli() <= to);
  }

  /**
   * The built-in text repeats itself the way real traffic does: popular questions, some short,
   * asked by many tenants under different system prompts and answered word for word alike on one
   * deployment; conversations that re-send their history; retrieved chunks and pasted documents.
   */
  @Test
  void theTrafficRepeatsItselfAsRealTrafficDoes() throws Exception {
    List<GatewayRecord> texts = records.stream().filter(IncidentConsistencyTest::isSmall).toList();
    Map<String, Set<String>> tenantsByQuestion = new HashMap<>();
    Map<String, Set<String>> systemsByQuestion = new HashMap<>();
    Map<String, Set<String>> repliesByQuestion = new HashMap<>();
    int conversations = 0;
    int retrieval = 0;
    for (GatewayRecord r : texts) {
      List<String> m = r.messages();
      String question = m.getLast();
      tenantsByQuestion.computeIfAbsent(question, q -> new HashSet<>()).add(r.tenant());
      systemsByQuestion.computeIfAbsent(question, q -> new HashSet<>()).add(m.size() > 1 ? m.getFirst() : "");
      repliesByQuestion.computeIfAbsent(question + "\u0000" + (m.size() > 3 ? m.get(m.size() - 2) : ""),
          q -> new HashSet<>()).add(r.response());
      conversations += m.size() >= 4 ? 1 : 0;
      retrieval += question.startsWith("Context:") ? 1 : 0;
    }
    List<String> popular = tenantsByQuestion.entrySet().stream().filter(e -> e.getValue().size() >= 5)
        .map(Map.Entry::getKey).toList();
    assertThat(popular).as("questions five or more tenants asked").isNotEmpty();
    assertThat(popular).as("some of them short").anyMatch(q -> q.split("\\s+").length < 16);
    assertThat(popular).as("under several system prompts").anyMatch(q -> systemsByQuestion.get(q).size() >= 3);
    // One answer per model (two deployments), some cut short at the request's max_tokens.
    assertThat(popular).as("answered word for word alike").allMatch(q -> repliesByQuestion.get(q + "\u0000").size() <= 8);
    assertThat(conversations).as("turns re-sending their conversation").isGreaterThan(20);
    assertThat(retrieval).as("prompts with retrieved chunks").isGreaterThan(20);
  }
}
