package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.Files2;
import io.kvscope.samples.testing.GatewayReader;
import io.kvscope.samples.testing.GatewayRecord;
import io.kvscope.samples.text.Words;
import io.kvscope.samples.truth.DecoyTruth;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.HolderTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.SourceTruth;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The traps ({@code GeneratorOptions.traps}): each situation that fooled a text-reading analysis
 * appears in the written logs as the truth marks it, checked on the gateway records read with
 * plain Jackson, not through the generator's own types.
 */
class TrapsTest {

  /** A seed whose quarter-scale incident has leaks under the floor and common openings. */
  private static final long SEED = 3L;

  @Test
  void everyTrapAppearsInTheLogsWithItsTruthMark(@TempDir Path dir) throws Exception {
    GeneratorOptions options = new GeneratorOptions(SEED, Scale.parse("0.25x"), FleetMode.INCIDENT,
        OutputCompression.PLAIN).withTraps(true);
    GenerationSummary summary = new IncidentGenerator().generate(dir, options);
    GroundTruth truth = GroundTruth.load(summary.truthFile());
    assertThat(truth.generator().scale()).isEqualTo("0.25x traps");

    Set<String> wanted = new HashSet<>(truth.leakedRequestIds());
    for (DecoyTruth d : truth.decoys()) {
      wanted.add(d.requestId());
      d.holders().forEach(h -> wanted.add(h.requestId()));
    }
    Map<String, GatewayRecord> records = new HashMap<>();
    GatewayReader.read(dir, wanted).forEach(r -> records.putIfAbsent(r.id(), r));
    Map<String, LeakTruth> leaks = new HashMap<>();
    truth.leakedResponses().forEach(l -> leaks.put(l.requestId(), l));
    Set<String> overLength = truth.overLengthAcceptedIds();

    Map<String, Integer> kinds = new HashMap<>();
    for (DecoyTruth d : truth.decoys()) {
      kinds.merge(d.kind(), 1, Integer::sum);
      GatewayRecord r = records.get(d.requestId());
      assertThat(d.holders()).singleElement();
      HolderTruth holder = d.holders().getFirst();
      assertThat(holder.tenant()).isNotEqualTo(d.tenant());
      GatewayRecord held = records.get(holder.requestId());
      String shared = r.response().substring(d.responseStart(), d.responseEnd());
      assertThat(Words.count(shared)).isEqualTo(d.words());
      if (d.servedNormally()) {
        // Served normally and answered as the other tenant's bare question was: not a leak.
        assertThat(leaks).doesNotContainKey(d.requestId());
        assertThat(overLength).doesNotContain(d.requestId());
        assertThat(r.success()).isTrue();
        String answer = held.response();
        assertThat(shared.length() <= answer.length() ? answer.startsWith(shared) : shared.startsWith(answer))
            .as("the same answer (one may be cut at max_tokens)").isTrue();
        String bare = held.messages().getLast();
        String asked = r.messages().getLast();
        if (d.kind().equals("pasted_question")) {
          assertThat(asked).endsWith(bare).hasSizeGreaterThan(bare.length() + 100);
        } else {
          assertThat(d.kind()).isEqualTo("near_duplicate");
          List<String> bareWords = List.of(bare.split("\\s+"));
          List<String> askedWords = List.of(asked.split("\\s+"));
          assertThat(asked).isNotEqualTo(bare);
          int common = 0;
          while (common < Math.min(bareWords.size(), askedWords.size())
              && bareWords.get(common).equals(askedWords.get(common))) {
            common++;
          }
          assertThat(bareWords.size() - common).as("words replaced at the end").isBetween(1, 3);
        }
      } else {
        // A leaked stub's reply opens with text many tenants hold; its one holder within reach is no source.
        LeakTruth leak = leaks.get(d.requestId());
        assertThat(leak).isNotNull();
        assertThat(d.responseStart()).isZero();
        assertThat(d.words()).isBetween(12, 20);
        assertThat(d.tenants()).isGreaterThanOrEqualTo(6);
        assertThat(String.join("\n", held.messages()) + "\n" + held.response()).contains(shared);
        assertThat(leak.sources()).noneMatch(s -> s.requestId().equals(holder.requestId()));
        assertThat(leak.sources()).allMatch(s -> s.responseStart() >= d.responseEnd());
      }
    }
    assertThat(kinds).containsOnlyKeys("pasted_question", "near_duplicate", "common_opening");

    List<SourceTruth> belowFloor = new ArrayList<>();
    List<SourceTruth> foreignCanaries = new ArrayList<>();
    for (LeakTruth leak : truth.leakedResponses()) {
      String response = records.get(leak.requestId()).response();
      for (SourceTruth s : leak.sources()) {
        String text = response.substring(s.responseStart(), s.responseEnd());
        if ("below_floor".equals(s.notExpected())) {
          belowFloor.add(s);
          assertThat(s.words()).isLessThan(12).isEqualTo(Words.count(text));
        } else if ("foreign_canary".equals(s.notExpected())) {
          foreignCanaries.add(s);
          assertThat(text).matches("canarytoken-[a-z]{20}");
          assertThat(s.category()).isEqualTo("canary");
        } else {
          assertThat(s.notExpected()).isNull();
          assertThat(s.kind().equals("identifier") || s.words() >= 12).isTrue();
        }
      }
    }
    assertThat(belowFloor).isNotEmpty();
    // Canaries of both formats are planted; which ones a stub echoes depends on the seed (small seed 4 has one).
    assertThat(gatewayHolds(dir, Pattern.compile("KVCANARY-[0-9A-F]{16}"))).isTrue();
    assertThat(gatewayHolds(dir, Pattern.compile("canarytoken-[a-z]{20}"))).isTrue();
    // A leak carrying only such fragments is not expected to be found.
    assertThat(truth.expectedLeakIds()).hasSizeLessThan(truth.leakedRequestIds().size());
    assertThat(Files.readString(summary.truthFile())).contains("\"decoys\"", "\"not_expected\"");
  }

  /** Whether a gateway line matches {@code pattern}. */
  private static boolean gatewayHolds(Path dir, Pattern pattern) throws Exception {
    try (var files = Files.list(dir.resolve("gateway"))) {
      for (Path f : files.sorted().toList()) {
        try (BufferedReader r = Files2.reader(f)) {
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (pattern.matcher(line).find()) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }
}
