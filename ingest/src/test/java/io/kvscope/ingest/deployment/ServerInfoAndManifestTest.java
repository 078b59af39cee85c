package io.kvscope.ingest.deployment;

import static io.kvscope.ingest.engine.LogFiles.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.engine.LogFiles;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerInfoAndManifestTest {

  @TempDir Path dir;

  @Test
  void aSavedServerInfoTellsTheReleaseRunningWhenItWasSavedNotTheWeightVersion() throws IOException {
    Path file = Fixtures.copy("sglang-prefill-0.server_info.json", dir);
    LogFiles.touch(file, "2026-09-01T08:00:00Z");
    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .hasValueSatisfying(i -> assertThat(i.name()).isEqualTo("sglang-server-info"));
    CollectingSink sink = new CollectingSink();
    new ServerInfoIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);

    assertThat(sink.versions()).extracting(VersionRecord::node, VersionRecord::version, VersionRecord::origin,
            VersionRecord::from)
        .containsExactly(tuple("sglang-prefill-0", "0.5.19", VersionOrigin.SERVER_INFO, utc("2026-09-01T08:00:00Z")));
    assertThat(sink.aliases()).extracting(NodeAlias::node, NodeAlias::alias, NodeAlias::origin)
        .containsExactly(tuple("sglang-prefill-0", "10.20.1.10:30000", AliasOrigin.SERVER_INFO));
  }

  @Test
  void theSaveTimeInTheFileNameWinsOverItsModificationTimeAndIsNoPartOfTheNodeName() throws IOException {
    Path file = dir.resolve("prefill-2-20260903T101500Z.json"); // as docs/formats.md suggests
    Files.copy(Fixtures.copy("sglang-prefill-0.server_info.json", dir), file);
    CollectingSink sink = new CollectingSink();
    new ServerInfoIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);

    assertThat(sink.versions()).singleElement().satisfies(v -> {
      assertThat(v.node()).isEqualTo("prefill-2");
      assertThat(v.from()).isEqualTo(utc("2026-09-03T10:15:00Z"));
    });
    assertThat(SnapshotTime.withoutTime("decode-1_2026-09-03T10-15-00Z")).isEqualTo("decode-1");
    assertThat(SnapshotTime.withoutTime("20260903T101500Z-decode-1")).isEqualTo("decode-1");
    assertThat(SnapshotTime.withoutTime("20260903T101500Z")).as("nothing else to name it").isEqualTo("20260903T101500Z");
  }

  @Test
  void manifestRowsGiveRangesAndAliasesAndBadRowsAreReportedWithTheirLines() throws IOException {
    Path file = Fixtures.copy("engine-versions.csv", dir);
    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .hasValueSatisfying(i -> assertThat(i.name()).isEqualTo("deployment-manifest"));
    CollectingSink sink = new CollectingSink();
    new DeploymentManifestIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);

    assertThat(sink.versions()).extracting(VersionRecord::node, VersionRecord::version, VersionRecord::from,
            VersionRecord::to, VersionRecord::origin, VersionRecord::sourceLine)
        .containsExactly(
            tuple("sglang-prefill-0", "0.5.19", utc("2026-08-20T00:00:00Z"), utc("2026-09-09T15:10:00Z"),
                VersionOrigin.MANIFEST, 3L),
            tuple("sglang-prefill-0", "0.5.22", utc("2026-09-09T15:10:00Z"), null, VersionOrigin.MANIFEST, 4L),
            tuple("vllm-chat-7d9f8c6b5d-x2k4p", "0.10.1.1", utc("2026-08-01T00:00:00Z"),
                utc("2026-08-01T00:00:00Z"), VersionOrigin.MANIFEST, 8L));
    assertThat(sink.aliases()).extracting(NodeAlias::node, NodeAlias::alias, NodeAlias::origin)
        .containsExactly(
            tuple("sglang-prefill-0", "10.20.1.10:30000", AliasOrigin.USER),
            tuple("sglang-prefill-0", "sglang-prefill-0.sglang-prefill.inference.svc", AliasOrigin.USER),
            tuple("sglang-decode-0", "10.20.1.20:30001", AliasOrigin.USER));
    assertThat(sink.bad).extracting(b -> b.line(), b -> b.reason())
        .containsExactly(
            tuple(6L, "manifest row with a from/to that is not an ISO-8601 time or date"),
            tuple(7L, "manifest row without a node"));
  }

  @Test
  void aQuotedCellOverALineBreakIsCalledThatAndAVersionPast64BitsIsKept() throws IOException {
    Path file = dir.resolve("versions.csv");
    java.nio.file.Files.writeString(file, """
        node,from,to,version,image
        sglang-prefill-0,2026-08-20,,0.5.21,"lmsysorg/sglang:v0.5.21
        -cu126"
        sglang-prefill-1,2026-08-20,,99999999999999999999.1,
        """);
    CollectingSink sink = new CollectingSink();
    new DeploymentManifestIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);

    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(2L, 3L);
    assertThat(sink.bad).allSatisfy(b -> assertThat(b.reason())
        .isEqualTo("manifest row is not CSV: a quoted cell runs over a line break (write each row on one line)"));
    assertThat(sink.versions()).extracting(VersionRecord::node, VersionRecord::version)
        .containsExactly(tuple("sglang-prefill-1", "99999999999999999999.1"));
  }
}
