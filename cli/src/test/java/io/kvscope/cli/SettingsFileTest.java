package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A case's settings written once: kvscope.properties beside the index gives analyze its fixed
 * release and the notices their signature; --config names another file (its relative paths read
 * from its own folder); the command line still wins; a key a settings file may not set (--reveal)
 * stops the run.
 */
class SettingsFileTest {

  @Test
  void theSettingsBesideTheIndexSignTheNoticesAndTheCommandLineWins(@TempDir Path tmp) throws Exception {
    CliTestSupport.Analyzed run = CliTestSupport.analyzedIncident(tmp, "0.05x", "4");
    Files.writeString(run.index().resolve(Settings.FILE), """
        # case 42
        fixed-version = 0.5.19
        operator = Example Cloud Ltd
        incident-ref = INC-2026-042
        analyze.contact = privacy@example.test
        """);
    Path reports = tmp.resolve("signed");

    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", run.index().toString(), "--out",
        reports.toString(), "-q", "--contact", "dpo@example.test");

    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    assertThat(analyze.err()).contains("settings from " + run.index().resolve(Settings.FILE));
    ObjectMapper json = new ObjectMapper();
    JsonNode report = json.readTree(reports.resolve("report.json").toFile());
    assertThat(report.get("parameters").get("config-audit.fixed_version").asText()).isEqualTo("0.5.19");
    try (Stream<Path> bundles = Files.list(reports.resolve("bundles"))) {
      for (Path bundle : bundles.toList()) {
        assertThat(Files.readString(bundle.resolve("notification.html"))).contains("From Example Cloud Ltd.")
            .contains("Incident reference INC-2026-042.").contains("Questions: dpo@example.test.")
            .doesNotContain("to fill in");
      }
    }
  }

  @Test
  void aNamedFileReadsPathsFromItsFolderAndRefusesWhatItMayNotSet(@TempDir Path tmp) throws Exception {
    Path caseDir = Files.createDirectories(tmp.resolve("case"));
    Files.writeString(caseDir.resolve("gw.json"), "{\"fields\": {\"request_id\": \"/rid\", \"tenant\": \"/org\"}}");
    Files.writeString(caseDir.resolve("case.properties"), "mapping = gw.json\n");
    Path logs = Files.createDirectories(tmp.resolve("logs"));
    Files.writeString(logs.resolve("gw.jsonl"), "{\"rid\": \"r-1\", \"org\": \"acme\"}\n{\"rid\": \"r-2\", \"org\": \"initech\"}\n");

    CliTestSupport.Run ingest = CliTestSupport.run("ingest", logs.toString(), "--index", tmp.resolve("index").toString(),
        "--config", caseDir.resolve("case.properties").toString());

    assertThat(ingest.out()).containsPattern("custom-jsonl\\s+2 records");

    Files.writeString(caseDir.resolve("bad.properties"), "reveal = true\n");
    CliTestSupport.Run refused = CliTestSupport.run("search", "--index", tmp.resolve("index").toString(),
        "--config", caseDir.resolve("bad.properties").toString(), "tenant:acme");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(refused.err()).contains("bad.properties").contains("sets 'reveal', which a settings file cannot set");
    assertThat(refused.out()).doesNotContain("r-1");
  }
}
