package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.UserAliases;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import io.kvscope.samples.truth.GroundTruth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's report on incidents other than {@link LocalRun}'s: {@code kvscope analyze} on the index
 * of the job's shards writes the report.json it writes after {@code kvscope ingest} of the same
 * files ({@link SameReport}). One incident with the questions, answers and pasted documents of the
 * development corpus (real text: other scripts, characters above U+FFFF); one in the formats' other
 * shapes, scoped with {@code --node-alias}; one where a request's gateway records disagree.
 */
class MoreIncidentsTest {

  /** Beside the repository, read at run time; the test is skipped without it, as the other corpus tests are. */
  static final Path CORPUS = Path.of("..", "..", "shared", "corpus", "dev-corpus.jsonl.zst");

  @Test
  void onCorpusTextTheJobWritesTheSingleMachineReport(@TempDir Path dir) throws IOException {
    Assumptions.assumeTrue(Files.isRegularFile(CORPUS), "no development corpus at " + CORPUS.toAbsolutePath().normalize()
        + ": put dev-corpus.jsonl.zst there to run the corpus tests");
    Path incident = dir.resolve("incident");
    new IncidentGenerator().generate(incident, GeneratorOptions.incident(2L, Scale.parse("0.25x")).withCorpus(CORPUS));

    JsonNode report = scopedAsOnOneMachine(dir, incident, IngestOptions.defaults());

    assertThat(report.get("findings")).as("an incident with findings").hasSizeGreaterThan(5);
  }

  /**
   * The generator writes each format in one shape: SGLang's time stats in the upstream
   * {@code Req Time Stats(... input len=N, output len=N ...)} header, and both OpenTelemetry
   * instrumentations (OpenLLMetry's older flattened names, the current GenAI conventions). Here
   * every time-stats line is rewritten to the later {@code ReqTimeStats(... input_len=N,
   * output_len=N ...)} shape, the logs are plain rather than rotated, and the job is given node
   * aliases: a rename of a decode node and an alias no file mentions. The same aliases given to
   * {@code kvscope ingest} give the same report, which names the node as the user did.
   */
  @Test
  void theFormatsOtherShapesAndUserAliasesGiveTheSingleMachineReport(@TempDir Path dir) throws IOException {
    Path incident = dir.resolve("incident");
    new IncidentGenerator().generate(incident,
        GeneratorOptions.incident(3L, Scale.parse("0.1x")).withCompression(OutputCompression.PLAIN));
    int rewritten = laterTimeStatsShape(incident.resolve("engine"));
    Map<String, String> aliases = UserAliases.parse(List.of("sglang-decode-a0=gpu-host-17", "10.9.9.9:30000=sglang-prefill-b1"));
    IngestOptions options = IngestOptions.defaults().withNodeAliases(aliases);

    JsonNode report = scopedAsOnOneMachine(dir, incident, options);

    assertThat(rewritten).as("time-stats lines rewritten").isPositive();
    assertThat(report.get("findings")).as("an incident with findings").isNotEmpty();
    assertThat(report.toString()).as("the report names the node as the user did").contains("gpu-host-17");
    List<Object> userAliases = SharedSpark.session().read().schema(IngestOutput.NODE_ALIASES.schema())
        .parquet(dir.resolve("out").resolve(IngestOutput.NODE_ALIASES.folder()).toString()).collectAsList().stream()
        .map(IngestOutput.NODE_ALIASES::fromRow).filter(a -> ((NodeAlias) a).sourceFile().equals(UserAliases.SOURCE))
        .toList();
    assertThat(userAliases).containsExactlyInAnyOrderElementsOf(UserAliases.records(aliases));
  }

  /**
   * A second LiteLLM line for each leaked request, the same {@code id} and a longer harmless reply
   * (a shipper's duplicate or a retry logged under one id): the job's merge keeps every version as
   * one machine's does, so its report names the same copies and still finds the leaks in them.
   */
  @Test
  void disagreeingCopiesOfARequestGiveTheSingleMachineReport(@TempDir Path dir) throws IOException {
    Path incident = dir.resolve("incident");
    new IncidentGenerator().generate(incident,
        GeneratorOptions.incident(1L, Scale.parse("0.05x")).withCompression(OutputCompression.PLAIN));
    GroundTruth truth = GroundTruth.load(incident.resolve("truth.json"));
    int planted = secondLinesWithLongerReplies(incident, truth.leakedRequestIds());

    JsonNode report = scopedAsOnOneMachine(dir, incident, IngestOptions.defaults());

    assertThat(planted).as("leaked requests given a second line").isEqualTo(truth.leakedRequestIds().size()).isPositive();
    assertThat(report.at("/summary/requests_with_disagreeing_copies").asInt()).isEqualTo(planted);
    assertThat(report.get("findings").toString()).contains("copies-disagree").contains("litellm-retry.jsonl:");
  }

  /** Appends to gateway/litellm-retry.jsonl a copy of each line of {@code ids} with a longer harmless reply. */
  private static int secondLinesWithLongerReplies(Path incident, java.util.Set<String> ids) throws IOException {
    ObjectMapper json = new ObjectMapper();
    String harmless = "Thank you for your question; here is a short overview of the topic you raised. ";
    StringBuilder copies = new StringBuilder();
    int planted = 0;
    List<Path> gateway;
    try (Stream<Path> files = Files.list(incident.resolve("gateway"))) {
      gateway = files.sorted().toList();
    }
    for (Path file : gateway) {
      for (String line : Files.readAllLines(file)) {
        JsonNode record = line.isBlank() ? null : json.readTree(line);
        if (record == null || !ids.contains(record.path("id").asText())) {
          continue;
        }
        ObjectNode message = (ObjectNode) record.at("/response/choices/0/message");
        String reply = message.path("content").asText();
        message.put("content", harmless.repeat(reply.length() / harmless.length() + 2));
        copies.append(json.writeValueAsString(record)).append('\n');
        planted++;
      }
    }
    Files.writeString(incident.resolve("gateway").resolve("litellm-retry.jsonl"), copies);
    return planted;
  }

  /**
   * Runs the job on {@code incident} with {@code options} into {@code dir/out}, ingests the same
   * files into {@code dir/index} with the same options, and holds the two reports to each other.
   */
  private static JsonNode scopedAsOnOneMachine(Path dir, Path incident, IngestOptions options) throws IOException {
    ScopeJob.Summary summary = new ScopeJob(SharedSpark.session(), options, LocalRun.SALT_WORK)
        .run(List.of(incident.toString()), dir.resolve("out").toString());
    Path single = SameReport.singleMachineIndex(dir.resolve("index"), options, incident);
    return SameReport.assertSame(single, summary.index(), dir.resolve("reports"));
  }

  /** Rewrites every SGLang time-stats header under {@code engine} to the later shape; returns the lines rewritten. */
  private static int laterTimeStatsShape(Path engine) throws IOException {
    int rewritten = 0;
    List<Path> logs;
    try (Stream<Path> files = Files.list(engine)) {
      logs = files.filter(p -> p.getFileName().toString().endsWith(".log")).toList();
    }
    for (Path log : logs) {
      List<String> lines = Files.readAllLines(log);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.contains("Req Time Stats(")) {
          lines.set(i, line.replace("Req Time Stats(", "ReqTimeStats(").replace(", input len=", ", input_len=")
              .replace(", output len=", ", output_len="));
          rewritten++;
        }
      }
      Files.write(log, lines);
    }
    return rewritten;
  }
}
