package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.WindowTruth;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time to the first answer: the figures the engine facts settle are printed before the text
 * analysis, marked preliminary, and equal to the final summary's and the generator's truth; one
 * progress bar runs on stderr, only on a terminal and never with --quiet; stdout holds no prompt text.
 */
class FirstAnswerTest {

  private static final String TERMINAL = "KVSCOPE_STDERR_TTY";
  private static final Pattern OVER_LENGTH = Pattern.compile("over-length prompts accepted: ([\\d,]+)    prefill underruns: ([\\d,]+)");
  /** A bar as drawn: {@code \r<task>  42% [===   ]  42/100% (...)  <step>}. */
  private static final Pattern BAR = Pattern.compile("\r\\S+\\s+(\\d+)% \\[[^\\]]*] [^\r\n]*?\\) +(ingest|analyze|done)");

  @TempDir Path tmp;
  @TempDir static Path shared;
  /** The demo's folder: its incident is generated here, so the demo uses it instead of its own. */
  static Path demo;
  static Path incident;
  static Path index;
  static GroundTruth truth;

  @BeforeAll
  static void generateAndIngest() throws Exception {
    demo = shared.resolve("demo");
    incident = demo.resolve("incident");
    index = shared.resolve("index");
    truth = CliTestSupport.generated(incident, "--seed", "1", "--scale", "0.05x");
    assertThat(truth.overLengthAcceptedIds()).as("the incident has over-length requests to count").isNotEmpty();
    CliTestSupport.Run ingest = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "-q");
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
  }

  @Test
  void thePreliminaryFiguresComeFirstSayTheyArePreliminaryAndEqualTheFinalOnes() {
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out",
        tmp.resolve("reports").toString(), "-q");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    String out = analyze.out();
    int finalAt = out.indexOf("\nExposure summary\n");
    assertThat(out).startsWith("Preliminary exposure summary (so far");
    assertThat(finalAt).isPositive();
    String preliminary = out.substring(0, finalAt);
    String last = out.substring(finalAt);
    assertThat(preliminary).contains("text analysis running").contains("leaked responses: not known yet")
        .doesNotContain("leaked responses (cross-tenant");

    Matcher early = OVER_LENGTH.matcher(preliminary);
    Matcher late = OVER_LENGTH.matcher(last);
    assertThat(early.find()).isTrue();
    assertThat(late.find()).isTrue();
    assertThat(Long.parseLong(early.group(1).replace(",", ""))).isEqualTo(truth.overLengthAcceptedIds().size())
        .isEqualTo(Long.parseLong(late.group(1).replace(",", "")));
    assertThat(Long.parseLong(early.group(2).replace(",", ""))).isEqualTo(truth.prefillUnderrunIds().size())
        .isEqualTo(Long.parseLong(late.group(2).replace(",", "")));

    List<String> vulnerableTruth = truth.windows().stream().filter(w -> w.kind().equals("vulnerable"))
        .map(WindowTruth::node).sorted().toList();
    assertThat(vulnerableTruth).isNotEmpty();
    List<String> earlyWindows = vulnerableLines(preliminary);
    assertThat(earlyWindows).isEqualTo(vulnerableLines(last));
    assertThat(earlyWindows.stream().map(line -> line.strip().split(" +")[0]).sorted().toList())
        .isEqualTo(vulnerableTruth);
  }

  @Test
  void stdoutCarriesNoPromptOrResponseText() throws Exception {
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out",
        tmp.resolve("reports").toString(), "-q");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    assertNoGatewayText(analyze.out());
  }

  /** Fails when {@code printed} holds six words in a row of any prompt or response the gateway logged. */
  private static void assertNoGatewayText(String printed) throws Exception {
    Set<String> runs = shingles(printed);
    List<String> texts = gatewayTexts();
    assertThat(texts).hasSizeGreaterThan(100);
    for (String text : texts) {
      Set<String> own = shingles(text);
      own.retainAll(runs);
      assertThat(own).as("six words of a prompt or response on stdout").isEmpty();
    }
  }

  @Test
  void theBarIsDrawnOnATerminalOnlyNeverWithQuietAndNeverOnStdout() throws Exception {
    ChildKvScope.Result watched = analyzeInChild("watched", Map.of(TERMINAL, "1"));
    ChildKvScope.Result quiet = analyzeInChild("quiet", Map.of(TERMINAL, "1"), "--quiet");
    ChildKvScope.Result piped = analyzeInChild("piped", Collections.singletonMap(TERMINAL, null));

    assertThat(positions(watched.err(), "analyze")).isNotEmpty().isSorted().endsWith(100);
    for (ChildKvScope.Result run : List.of(quiet, piped)) {
      assertThat(run.err()).doesNotContain("\r").doesNotContain("%");
    }
    for (ChildKvScope.Result run : List.of(watched, quiet, piped)) {
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out()).doesNotContain("\r").doesNotContain("\033").contains("Preliminary exposure summary");
    }
  }

  @Test
  void theDemoDrawsOneBarFromIngestThroughAnalysisAndPrintsThePreliminaryFiguresFirst() throws Exception {
    ChildKvScope.Result run = ChildKvScope.run(tmp, "demo", Map.of(TERMINAL, "1"), List.of(), "1g", 10,
        "demo", "--dir", demo.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> steps = new ArrayList<>();
    Matcher bar = BAR.matcher(run.err());
    while (bar.find()) {
      if (steps.isEmpty() || !steps.get(steps.size() - 1).equals(bar.group(2))) {
        steps.add(bar.group(2));
      }
    }
    assertThat(steps).as("one bar: ingest, then analysis, then done").containsExactly("ingest", "analyze", "done");
    // A second bar would start again from 0.
    assertThat(positions(run.err(), "")).isSorted().endsWith(100);
    assertThat(run.out()).containsSubsequence("2/3 Ingesting", "3/3 Analyzing", "Preliminary exposure summary",
        "Exposure summary", "report.json");
    assertNoGatewayText(run.out());
  }

  private ChildKvScope.Result analyzeInChild(String name, Map<String, String> environment, String... more)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze", "--index", index.toString(), "--out",
        tmp.resolve(name).toString()));
    args.addAll(List.of(more));
    return ChildKvScope.run(tmp, name, environment, List.of(), "1g", 10, args.toArray(String[]::new));
  }

  /** The bar's positions in percent, in the order drawn, of draws whose step starts with {@code step}. */
  private static List<Integer> positions(String err, String step) {
    List<Integer> positions = new ArrayList<>();
    Matcher bar = BAR.matcher(err);
    while (bar.find()) {
      if (bar.group(2).startsWith(step) || bar.group(2).equals("done")) {
        positions.add(Integer.parseInt(bar.group(1)));
      }
    }
    return positions;
  }

  /** The vulnerable windows' lines under the first "Vulnerable windows" heading. */
  private static List<String> vulnerableLines(String summary) {
    List<String> lines = new ArrayList<>();
    boolean in = false;
    for (String line : summary.split("\n")) {
      if (line.startsWith("Vulnerable windows")) {
        in = true;
      } else if (in && line.startsWith("  ") && !line.startsWith("  exposure on ")) {
        lines.add(line);
      } else if (in) {
        break;
      }
    }
    return lines;
  }

  /** Every prompt message and response text the gateway logged (LiteLLM: messages[].content, response.choices[].message.content). */
  private static List<String> gatewayTexts() throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    try (var files = Files.list(incident.resolve("gateway"))) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("litellm")).toList()) {
        InputStream in = Files.newInputStream(file);
        if (file.toString().endsWith(".gz")) {
          in = new GZIPInputStream(in);
        }
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            JsonNode record = json.readTree(line);
            record.path("messages").forEach(m -> texts.add(m.path("content").asText("")));
            record.path("response").path("choices").forEach(c -> texts.add(c.path("message").path("content").asText("")));
          }
        }
      }
    }
    return texts;
  }

  /** Runs of six words, lower case. */
  private static Set<String> shingles(String text) {
    String[] words = text.toLowerCase(java.util.Locale.ROOT).split("\\s+");
    Set<String> shingles = new HashSet<>();
    for (int i = 0; i + 6 <= words.length; i++) {
      shingles.add(String.join(" ", java.util.Arrays.copyOfRange(words, i, i + 6)));
    }
    return shingles;
  }
}
