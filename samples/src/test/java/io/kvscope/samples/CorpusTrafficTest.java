package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.GatewayReader;
import io.kvscope.samples.testing.GatewayRecord;
import io.kvscope.samples.testing.TokenCount;
import io.kvscope.samples.text.CorpusFile;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.SourceTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An incident built from the development corpus of real questions and real models' answers (read
 * at run time from {@code ../shared/corpus}, next to the repository; skipped when it is absent).
 */
class CorpusTrafficTest {

  static final Path CORPUS = Path.of("..", "..", "shared", "corpus", "dev-corpus.jsonl.zst");

  @TempDir static Path dir;
  static GroundTruth truth;
  static CorpusFile corpus;
  static List<GatewayRecord> records;

  @BeforeAll
  static void generate() throws Exception {
    Assumptions.assumeTrue(Files.isRegularFile(CORPUS), "no development corpus at " + CORPUS.toAbsolutePath().normalize()
        + ": put dev-corpus.jsonl.zst there to run the corpus tests");
    corpus = CorpusFile.read(CORPUS);
    new IncidentGenerator().generate(dir, GeneratorOptions.incident(3L, Scale.parse("0.25x")).withCorpus(CORPUS));
    truth = GroundTruth.load(dir.resolve("truth.json"));
    Set<String> leaksAndSources = new HashSet<>();
    for (LeakTruth l : truth.leakedResponses()) {
      leaksAndSources.add(l.requestId());
      l.sources().forEach(s -> leaksAndSources.add(s.requestId()));
    }
    // One pass over the gateway files: texts of the small served prompts and of every leak and source.
    records = GatewayReader.read(dir, r -> isSmall(r) || leaksAndSources.contains(r.id()));
  }

  private static boolean isSmall(GatewayRecord r) {
    return r.success() && r.promptChars() < 50_000;
  }

  @Test
  void questionsAndAnswersAreTheCorpusAndManyTenantsAskTheSameOnes() {
    assertThat(truth.generator().texts()).isEqualTo("corpus dev-corpus.jsonl.zst");
    Set<String> turns = corpus.entries().stream().flatMap(e -> e.turns().stream()).map(String::strip)
        .collect(Collectors.toSet());
    Set<String> answers = corpus.entries().stream().flatMap(e -> e.answers().values().stream())
        .flatMap(List::stream).map(String::strip).collect(Collectors.toSet());
    Map<String, Set<String>> tenantsByQuestion = new HashMap<>();
    long whole = 0;
    for (GatewayRecord r : records.stream().filter(CorpusTrafficTest::isSmall).toList()) {
      String question = r.messages().getLast();
      if (turns.contains(question)) {
        tenantsByQuestion.computeIfAbsent(question, q -> new HashSet<>()).add(r.tenant());
        whole += answers.contains(r.response()) ? 1 : 0;
      }
    }
    assertThat(tenantsByQuestion).as("corpus questions asked").hasSizeGreaterThan(20);
    assertThat(tenantsByQuestion.values()).as("one several tenants asked").anyMatch(t -> t.size() >= 4);
    assertThat(whole).as("replies that are a corpus answer word for word").isGreaterThan(50);
  }

  @Test
  void everyFragmentIsItsSourcesTextAndItsHoldersIncludeTheSource() throws Exception {
    Map<String, GatewayRecord> byId = new HashMap<>();
    records.forEach(r -> byId.putIfAbsent(r.id(), r));
    int checked = 0;
    for (LeakTruth l : truth.leakedResponses()) {
      for (SourceTruth s : l.sources()) {
        GatewayRecord recipient = byId.get(l.requestId());
        GatewayRecord source = byId.get(s.requestId());
        if (recipient == null || source == null) {
          continue; // one of them went out as an OTLP span without the text kept
        }
        String fragment = recipient.response().substring(s.responseStart(), s.responseEnd());
        String original = s.part().equals("prompt")
            ? source.messages().get(s.sourceMessageIndex()).substring(s.sourceStart(), s.sourceEnd())
            : source.response().substring(s.sourceStart(), s.sourceEnd());
        assertThat(fragment).isEqualTo(original);
        assertThat(TokenCount.count(fragment)).isEqualTo(s.matchedTokens());
        assertThat(s.holders()).extracting(h -> h.requestId()).contains(s.requestId());
        checked++;
      }
    }
    assertThat(checked).isPositive();
  }
}
