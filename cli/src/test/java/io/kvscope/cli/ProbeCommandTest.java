package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.probe.enginedouble.DoubleConfig;
import io.kvscope.probe.enginedouble.EngineDouble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kvscope probe} from the command line, against the loopback engine double. */
class ProbeCommandTest {

  @TempDir
  Path out;

  @Test
  void helpExplainsEveryOption() {
    CliTestSupport.Run help = CliTestSupport.run("probe", "--help");
    assertThat(help.exitCode()).isZero();
    CommandLine.Model.CommandSpec spec = new CommandLine(new ProbeCommand()).getCommandSpec();
    for (CommandLine.Model.OptionSpec option : spec.options()) {
      assertThat(help.out()).contains(option.longestName());
      assertThat(String.join(" ", option.description())).as(option.longestName()).hasSizeGreaterThan(10);
    }
    assertThat(help.out()).contains("Exit codes: 0 pass").contains("--dry-run").contains("Examples:");
  }

  @Test
  void theCommandLinesDefaultsAreTheOptionsOwn() {
    ProbeCommand command = new ProbeCommand();
    new CommandLine(command).parseArgs("--target", "http://127.0.0.1:9");

    assertThat(command.options(null))
        .isEqualTo(io.kvscope.probe.ProbeOptions.builder(java.net.URI.create("http://127.0.0.1:9")).build());
  }

  @Test
  void failsTheBuggyDeploymentWithTheLeakedMarkersOnScreenAndPassesTheFixedOne() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      CliTestSupport.Run run = CliTestSupport.run(args(d, "-o", out.toString()));
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.out()).startsWith("kvscope probe: FAIL");
      Matcher leak = Pattern.compile("(KVCANARY-[A-Z0-9]{20}) given to ((fill|normal)-\\d+), came back in (over-pool-\\d) \\(HTTP 200\\)")
          .matcher(run.out());
      assertThat(leak.find()).as(run.out()).isTrue();
      // The double confirms the marker was in the prompt of the request it is attributed to.
      String tag = "kvscope-probe-" + run.out().substring(run.out().indexOf("(run ") + 5, run.out().indexOf("(run ") + 13) + "-";
      assertThat(d.codesSentBy(tag + leak.group(2))).contains(leak.group(1));
      assertThat(reports()).hasSize(1);
    }
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      CliTestSupport.Run run = CliTestSupport.run(args(d, "-o", out.toString()));
      assertThat(run.exitCode()).as(run.out()).isZero();
      assertThat(run.out()).startsWith("kvscope probe: PASS").contains("leaked markers: 0");
      assertThat(reports()).hasSize(2); // a second run never replaces the first's evidence
    }
  }

  @Test
  void theApiKeyIsSentButNeverPrintedOrWritten() throws Exception {
    String key = System.getenv("HOME"); // any variable the test JVM has
    assertThat(key).isNotBlank();
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      CliTestSupport.Run run = CliTestSupport.run(args(d, "-o", out.toString(), "--api-key-env", "HOME", "--max-requests", "6"));
      assertThat(d.authorizations()).isNotEmpty().allMatch(a -> a.equals("Bearer " + key));
      assertThat(run.out() + run.err()).doesNotContain("Bearer");
      for (Path f : reports()) {
        for (String name : List.of("probe.json", "probe.md", "probe.html")) {
          assertThat(Files.readString(f.resolve(name))).doesNotContain("Bearer " + key);
        }
      }
    }
  }

  @Test
  void exitCodesForADryRunAnUnreachableTargetAndBadUsage() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      CliTestSupport.Run dry = CliTestSupport.run(args(d, "-o", out.toString(), "--dry-run"));
      assertThat(dry.exitCode()).isZero();
      assertThat(dry.out()).startsWith("kvscope probe: PLANNED").contains("would send");
      assertThat(d.generationRequests()).isZero();
    }
    CliTestSupport.Run unreachable = CliTestSupport.run("probe", "--target", "http://127.0.0.1:9", "--pool-tokens", "1000",
        "--context-length", "2000", "--connect-timeout", "1s", "--max-requests", "4", "--rate", "50", "-o", out.toString());
    assertThat(unreachable.exitCode()).isEqualTo(2);
    assertThat(unreachable.out()).startsWith("kvscope probe: COULD NOT RUN");

    CliTestSupport.Run bad = CliTestSupport.run("probe", "--target", "http://127.0.0.1:9", "--concurrency", "1000");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("--concurrency must lie between 1 and 64");
  }

  private static String[] args(EngineDouble d, String... more) {
    List<String> a = new java.util.ArrayList<>(List.of("probe", "--target", d.routerUri().toString(),
        "--server", "prefill-0=" + d.prefillUri(), "--server", "decode-0=" + d.decodeUri(),
        "--fill", "8", "--rate", "50", "--timeout", "20s", "-q"));
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  private List<Path> reports() throws java.io.IOException {
    try (Stream<Path> s = Files.list(out)) {
      return s.filter(p -> p.getFileName().toString().startsWith("probe-")).toList();
    }
  }
}
