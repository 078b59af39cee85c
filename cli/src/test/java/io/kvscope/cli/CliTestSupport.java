package io.kvscope.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the real command line in-process and captures what it prints. */
final class CliTestSupport {

  record Run(int exitCode, String out, String err) {}

  /** A generated incident, ingested and analysed: its folders and what ingest and analyze printed. */
  record Analyzed(java.nio.file.Path incident, java.nio.file.Path index, java.nio.file.Path reports, Run ingest, Run analyze) {}

  /**
   * Generates an incident at {@code scale} with {@code seed} under {@code dir}, ingests it and
   * analyses it into {@code dir/reports}; fails the test if any step does.
   */
  static Analyzed analyzedIncident(java.nio.file.Path dir, String scale, String seed) {
    java.nio.file.Path incident = dir.resolve("incident");
    java.nio.file.Path index = dir.resolve("index");
    java.nio.file.Path reports = dir.resolve("reports");
    Run generate = run("generate", "--out", incident.toString(), "--scale", scale, "--seed", seed);
    org.assertj.core.api.Assertions.assertThat(generate.exitCode()).as(generate.err()).isZero();
    Run ingest = run("ingest", incident.toString(), "--index", index.toString());
    org.assertj.core.api.Assertions.assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    Run analyze = run("analyze", "--index", index.toString(), "--out", reports.toString(), "-q");
    org.assertj.core.api.Assertions.assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    return new Analyzed(incident, index, reports, ingest, analyze);
  }

  /**
   * Runs {@code generate --out incident} with {@code options}, failing the test if it fails, and
   * returns the incident's ground truth.
   */
  static io.kvscope.samples.truth.GroundTruth generated(java.nio.file.Path incident, String... options)
      throws java.io.IOException {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("generate", "--out", incident.toString()));
    args.addAll(java.util.List.of(options));
    Run generate = run(args.toArray(String[]::new));
    org.assertj.core.api.Assertions.assertThat(generate.exitCode()).as(generate.err()).isZero();
    return io.kvscope.samples.truth.GroundTruth.load(incident.resolve("truth.json"));
  }

  private CliTestSupport() {}

  static synchronized Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      var cli = KvScope.commandLine(args); // as main builds it
      cli.setOut(new java.io.PrintWriter(System.out, true));
      cli.setErr(new java.io.PrintWriter(System.err, true));
      int code = cli.execute(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
