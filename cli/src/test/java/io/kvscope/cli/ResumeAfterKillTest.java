package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills a real ingest process (SIGKILL) mid-file, re-runs it, and compares with an uninterrupted run. */
class ResumeAfterKillTest {

  @TempDir Path tmp;

  @Test
  void aKilledIngestResumesToExactlyTheRecordsOfAnUninterruptedRun() throws Exception {
    Path gateway = tmp.resolve("in/gateway.jsonl");
    StringBuilder lines = new StringBuilder();
    int records = 160_000;
    for (int i = 0; i < records; i++) {
      lines.append(FleetFiles.litellm(i, "org-" + (i % 13), 100 + i % 50, "question " + i)).append('\n');
    }
    FleetFiles.write(gateway, lines.toString(), false);
    Path killed = tmp.resolve("killed");
    Path clean = tmp.resolve("clean");

    Process child = new ProcessBuilder(javaBin(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        KvScope.class.getName(), "ingest", gateway.toString(), "--index", killed.toString(), "--quiet")
        .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
    long committedBeforeKill = waitForFirstCommit(killed, child);
    child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

    CliTestSupport.Run resumed = CliTestSupport.run("ingest", gateway.toString(), "--index", killed.toString(), "--quiet");
    CliTestSupport.run("ingest", gateway.toString(), "--index", clean.toString(), "--quiet");

    assertThat(committedBeforeKill).as("killed after a checkpoint, before the end").isBetween(1L, records - 1L);
    assertThat(resumed.exitCode()).isZero();
    assertThat(requests(killed)).isEqualTo(requests(clean)).isEqualTo(records);
    try (FSDirectory dir = FSDirectory.open(killed); CheckIndex check = new CheckIndex(dir)) {
      assertThat(check.checkIndex().clean).isTrue();
    }
  }

  private static long waitForFirstCommit(Path index, Process child) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline && child.isAlive()) {
      if (Files.isDirectory(index) && io.kvscope.index.store.IndexStore.exists(index)) {
        long count = requests(index);
        if (count > 0) {
          return count;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the child ingest made no commit before it " + (child.isAlive() ? "timed out" : "ended"));
  }

  private static long requests(Path index) throws Exception {
    try (IndexSearch search = IndexSearch.open(index)) {
      return search.count(Schema.TYPE_REQUEST);
    }
  }

  private static String javaBin() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }
}
