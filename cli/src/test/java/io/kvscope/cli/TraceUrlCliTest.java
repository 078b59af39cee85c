package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --trace-url} on a generated incident: the reports link findings to trace ids the
 * generator wrote into its trace and gateway logs, the settings file can give the template, and a
 * template that cannot make a safe link stops the run saying why.
 */
class TraceUrlCliTest {

  private static final Pattern LINK = Pattern.compile("href=\"https://tempo\\.example\\.test/trace/([^\"?]+)\\?x=1\"");

  @Test
  void findingsLinkToTraceIdsTheLogsHold(@TempDir Path tmp) throws Exception {
    CliTestSupport.Analyzed run = CliTestSupport.analyzedIncident(tmp, "0.05x", "4");
    Files.writeString(run.index().resolve(Settings.FILE), "trace-url = https://tempo.example.test/trace/{trace_id}?x=1\n");
    Path linked = tmp.resolve("linked");

    CliTestSupport.Run report = CliTestSupport.run("report", run.reports().resolve("report.json").toString(), "--index",
        run.index().toString(), "-o", linked.toString());

    assertThat(report.exitCode()).as(report.err()).isZero();
    String html = Files.readString(linked.resolve("report.html"));
    List<String> ids = new ArrayList<>();
    Matcher m = LINK.matcher(html);
    while (m.find()) {
      ids.add(m.group(1));
    }
    assertThat(ids).as("links in report.html").isNotEmpty();
    String logs;
    try (Stream<Path> files = Files.walk(run.incident())) {
      StringBuilder all = new StringBuilder();
      for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".gz")).toList()) {
        all.append(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1));
      }
      logs = all.toString();
    }
    for (String id : ids) {
      assertThat(logs).as("trace id %s in the generated logs", id).contains(id);
    }
    assertThat(Files.readString(linked.resolve("report.md"))).contains("([trace](<https://tempo.example.test/trace/"
        + ids.getFirst() + "?x=1>))");
    assertThat(Files.readString(run.reports().resolve("report.html"))).as("without a template").doesNotContain("href=");
  }

  @Test
  void anUnsafeTemplateIsAUsageErrorThatSaysWhy(@TempDir Path tmp) throws Exception {
    Path reportJson = Files.writeString(tmp.resolve("report.json"), "{}");
    CliTestSupport.Run noPlaceholder = CliTestSupport.run("report", reportJson.toString(), "--trace-url",
        "https://jaeger.example.test/trace/");
    assertThat(noPlaceholder.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(noPlaceholder.err()).contains("--trace-url").contains("{trace_id}");

    CliTestSupport.Run script = CliTestSupport.run("report", reportJson.toString(), "--trace-url",
        "javascript:alert({trace_id})");
    assertThat(script.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(script.err()).contains("https://");
  }
}
