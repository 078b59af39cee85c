package io.kvscope.cli;

import static io.kvscope.cli.FleetFiles.BASE;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestSearchCliTest {

  @TempDir Path tmp;
  Path incident;
  Path index;

  /**
   * 40 LiteLLM requests (plain), 20 OTLP traces (gzipped), a prefill and a decode node log that
   * cover the LiteLLM rids; request 7 is an over-length prompt whose prefill was a one-token stub.
   */
  @BeforeEach
  void writeIncidentFolder() throws Exception {
    incident = tmp.resolve("incident");
    index = tmp.resolve("index");
    StringBuilder gateway = new StringBuilder();
    StringBuilder prefill = new StringBuilder(FleetFiles.sglangStartup(BASE - 3_600_000, "prefill", 681_280, 1_048_576));
    StringBuilder decode = new StringBuilder(FleetFiles.sglangStartup(BASE - 3_600_000, "decode", 681_280, 1_048_576));
    for (int i = 0; i < 40; i++) {
      long tokens = i == 7 ? 700_000 : 1_000 + i;
      gateway.append(FleetFiles.litellm(i, "org-" + (i % 4), tokens, "prompt of request " + i)).append('\n');
      long at = BASE + i * 1000L;
      prefill.append(FleetFiles.sglangTimeStats(at + 40_000, i, "prefill", i == 7 ? 1 : tokens)); // prefill clock 40 s fast
      decode.append(FleetFiles.sglangTimeStats(at - 30_000, i, "decode", tokens)); // decode clock 30 s slow
    }
    StringBuilder traces = new StringBuilder();
    for (int i = 100; i < 120; i++) {
      traces.append(FleetFiles.otlp(i, "org-trace", 5_000 + i)).append('\n');
    }
    FleetFiles.write(incident.resolve("gateway/litellm-2026-08-28.jsonl"), gateway.toString(), false);
    FleetFiles.write(incident.resolve("gateway/traces.json.gz"), traces.toString(), true);
    FleetFiles.write(incident.resolve("engine/sglang-prefill-0.log"), prefill.toString(), false);
    FleetFiles.write(incident.resolve("engine/sglang-decode-0.log.gz"), decode.toString(), true);
  }

  @Test
  void ingestsAMixedFolderAndSearchFindsByTenantTimeAndTokens() {
    CliTestSupport.Run ingest = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString());

    assertThat(ingest.exitCode()).isZero();
    assertThat(ingest.out()).contains("Ingested 4 of 4 files")
        .containsPattern("litellm\\s+40 records").containsPattern("otlp\\s+20 records")
        .contains("Join gateway <-> engine: 40 of 60 requests");

    CliTestSupport.Run byTenant = CliTestSupport.run("search", "--index", index.toString(), "tenant:org-1");
    assertThat(byTenant.out()).contains("10 matches");

    CliTestSupport.Run longOnes = CliTestSupport.run("search", "--index", index.toString(),
        "status_code:200 AND prompt_tokens:[681280 TO *]");
    assertThat(longOnes.out()).contains("1 match").contains("gw-7").contains("sglang-prefill-0")
        .contains("sglang-decode-0").contains("681280").contains("1048576");
    assertThat(longOnes.out().lines().filter(l -> l.contains("gw-7")).findFirst().orElseThrow())
        .as("engine_input_len is the prefill stub").containsPattern("700000\\s+1\\s+");

    CliTestSupport.Run inTime = CliTestSupport.run("search", "--index", index.toString(),
        "start_time:[2026-08-28T10:00:10Z TO 2026-08-28T10:00:19Z] AND tenant:org-2", "--limit", "50");
    assertThat(inTime.out()).contains("3 matches").contains("gw-10").contains("gw-18");
    CliTestSupport.Run inLocalTime = CliTestSupport.run("search", "--index", index.toString(),
        "start_time:[\"2026-08-28 10:00:10\" TO 2026-08-28T10:00:19] AND tenant:org-2", "--limit", "50");
    assertThat(inLocalTime.out()).as(inLocalTime.err()).contains("3 matches");

    // A pasted request id finds its request; a tenant's name as a bare word says what it searched.
    CliTestSupport.Run pasted = CliTestSupport.run("search", "--index", index.toString(), "gw-7");
    assertThat(pasted.out()).contains("1 match").contains("gw-7");
    CliTestSupport.Run tenantWord = CliTestSupport.run("search", "--index", index.toString(), "org-1");
    assertThat(tenantWord.exitCode()).isZero();
    assertThat(tenantWord.err()).contains("'org-1' is also a tenant").contains("search tenant:org-1");
  }

  @Test
  void reingestingAddsNothingAndTextIsRedactedUnlessRevealed() {
    CliTestSupport.run("ingest", incident.toString(), "--index", index.toString());
    CliTestSupport.Run again = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString());
    assertThat(again.out()).contains("(4 unchanged since last run)");
    assertThat(CliTestSupport.run("search", "--index", index.toString(), "tenant:org-1").out()).contains("10 matches");

    CliTestSupport.Run hidden = CliTestSupport.run("search", "--index", index.toString(), "request_id:gw-3");
    assertThat(hidden.out()).doesNotContain("prompt of request 3").contains("[redacted");
    CliTestSupport.Run shown = CliTestSupport.run("search", "--index", index.toString(), "request_id:gw-3", "--reveal");
    assertThat(shown.out()).contains("prompt of request 3");
  }

  @Test
  void badLinesAreReportedWithFileAndLineAndFailOnlyWithStrict() throws Exception {
    Path file = incident.resolve("gateway/litellm-2026-08-28.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.add(3, "{\"id\": \"broken\", \"call_type\": ");
    Files.write(file, lines);

    CliTestSupport.Run lenient = CliTestSupport.run("ingest", file.toString(), "--index", index.toString());
    assertThat(lenient.exitCode()).isZero();
    assertThat(lenient.err()).contains(file + ":4: ");
    assertThat(lenient.out()).contains("bad records: 1").containsPattern("litellm\\s+40 records");

    CliTestSupport.Run strict = CliTestSupport.run("ingest", file.toString(), "--index", tmp.resolve("i2").toString(), "--strict");
    assertThat(strict.exitCode()).isEqualTo(1);
  }
}
