package io.kvscope.spark;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.samples.GenerationSummary;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.Scale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The job's run in {@code local[2]} on a generated incident (0.25x, seed 1, with damaged gateway
 * lines, a forged engine line and a short restart log), once per test JVM: {@link ScopeJobTest} holds its outputs to the
 * single-machine path, and {@link StandaloneClusterTest} holds a cluster's outputs to these.
 *
 * @param incident the generated files, the damage included; the job was given this path as its input
 * @param out the job's output folder
 */
record LocalRun(GenerationSummary generated, Path incident, String out, ScopeJob.Summary summary) {

  /** A small salting threshold, so that the popular fingerprints of a small incident are salted too. */
  static final long SALT_WORK = 64;

  private static LocalRun shared;

  static synchronized LocalRun shared() throws IOException {
    if (shared == null) {
      Path dir = Files.createTempDirectory("kvscope-spark-run");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
      Path incident = dir.resolve("incident");
      GenerationSummary generated = new IncidentGenerator().generate(incident, 1, Scale.parse("0.25x"));
      damagedGatewayFile(generated, incident);
      forgedEngineLine(generated, incident);
      fragmentLog(generated, incident);
      String out = dir.resolve("out").toString();
      ScopeJob.Summary summary = new ScopeJob(SharedSpark.session(), IngestOptions.defaults(), SALT_WORK)
          .run(List.of(incident.toString()), out);
      shared = new LocalRun(generated, incident, out, summary);
    }
    return shared;
  }

  /** A gateway file with real payloads between a cut line and one that is no payload: bad lines to quarantine. */
  private static void damagedGatewayFile(GenerationSummary generated, Path incident) throws IOException {
    Path gateway = generated.files().stream().map(f -> incident.resolve(f.path()))
        .filter(p -> p.getFileName().toString().matches("litellm-.*\\.jsonl")).findFirst().orElseThrow();
    List<String> payloads = Files.readAllLines(gateway).subList(0, 2);
    Files.createDirectories(incident.resolve("late"));
    Files.write(incident.resolve("late/litellm-damaged.jsonl"), List.of(
        payloads.get(0).substring(0, payloads.get(0).length() / 2), "[\"not\", \"a\", \"payload\"]",
        payloads.get(1).replaceFirst("\"id\": *\"[^\"]*\"", "\"id\": \"damaged-copy\"")));
  }

  /**
   * An engine line that makes a bootstrap room ambiguous, appended to a prefill log: a forged rid on
   * one request's room. The room's own prefill rid still joins, and so does the forged one.
   */
  private static void forgedEngineLine(GenerationSummary generated, Path incident) throws IOException {
    Path prefill = generated.files().stream().map(f -> incident.resolve(f.path()))
        .filter(p -> p.getFileName().toString().matches("sglang-prefill-.*\\.log")).sorted().findFirst().orElseThrow();
    String stats = Files.readAllLines(prefill).stream().filter(l -> l.contains("Req Time Stats(rid=")).findFirst()
        .orElseThrow();
    Files.write(prefill, List.of(stats.replaceFirst("rid=[0-9a-f]+", "rid=f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0")),
        StandardOpenOption.APPEND);
  }

  /**
   * A two-line SGLang restart with a pool above the context length, for a prefill node, in the middle
   * of its own log: a start both paths read as no restart, so no request after it is served by it.
   */
  private static void fragmentLog(GenerationSummary generated, Path incident) throws IOException {
    Path prefill = generated.files().stream().map(f -> incident.resolve(f.path()))
        .filter(p -> p.getFileName().toString().matches("sglang-prefill-.*\\.log")).sorted().findFirst().orElseThrow();
    List<String> lines = Files.readAllLines(prefill);
    String at = lines.subList(lines.size() / 2, lines.size()).stream().filter(l -> l.matches("^\\[\\d{4}-.*"))
        .findFirst().orElseThrow().substring(1, 20);
    String node = prefill.getFileName().toString().replace(".log", "");
    Files.write(incident.resolve("late/" + node + ".fragment.log"), List.of(
        "[" + at + "] server_args=ServerArgs(model_path='/models/m', context_length=262144, disaggregation_mode='prefill')",
        "[" + at + " TP0] max_total_num_tokens=2000000, chunked_prefill_size=8192, max_prefill_tokens=16384,"
            + " max_running_requests=128, context_len=262144, available_gpu_mem=39.64 GB"));
  }

  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
