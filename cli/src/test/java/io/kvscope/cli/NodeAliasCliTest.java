package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --node-alias}: the user names a scrape target as the node its logs call it. */
class NodeAliasCliTest {

  @TempDir Path tmp;

  @Test
  void aUserAliasMakesTheScrapeTargetAndTheLogOneNodeAndUnknownVersionsAreSaid() throws Exception {
    Path in = tmp.resolve("in");
    FleetFiles.write(in.resolve("prefill-0.log"), FleetFiles.sglangStartup(FleetFiles.BASE, "prefill", 681_280, 1_048_576),
        false);
    FleetFiles.write(in.resolve("federate.txt"), "# TYPE sglang:max_total_num_tokens untyped\n"
        + "sglang:max_total_num_tokens{engine_type=\"prefill\",instance=\"10.9.9.9:30000\",job=\"sglang\"} 681280 "
        + (FleetFiles.BASE + 60_000) + "\n"
        + "# TYPE sglang:context_len untyped\n"
        + "sglang:context_len{engine_type=\"prefill\",instance=\"10.9.9.9:30000\",job=\"sglang\"} 1048576 "
        + (FleetFiles.BASE + 60_000) + "\n", false);
    FleetFiles.write(in.resolve("litellm.jsonl"), FleetFiles.litellm(1, "org-1", 1_200, "hello") + "\n", false);
    Path index = tmp.resolve("index");

    CliTestSupport.Run usage = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(),
        "--node-alias", "10.9.9.9:30000=");
    assertThat(usage.exitCode()).isEqualTo(2);
    assertThat(usage.err()).contains("--node-alias needs ALIAS=NODE");

    CliTestSupport.Run ingest = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(),
        "--node-alias", "10.9.9.9:30000=prefill-0", "-q");
    assertThat(ingest.exitCode()).isZero();
    assertThat(ingest.out()).contains("prefill-0 = 10.9.9.9:30000")
        .contains("Engine versions: 0 of 1 config epochs known; unknown on prefill-0 (1)");

    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out",
        tmp.resolve("reports").toString(), "-q");
    assertThat(analyze.out()).contains("prefill-0").doesNotContain("10.9.9.9:30000")
        .contains("engine version unknown");
  }
}
