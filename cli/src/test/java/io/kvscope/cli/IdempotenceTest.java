package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingesting is idempotent: the same folder twice, overlapping folders and links into the folder
 * leave exactly the documents of one clean ingest; files shipped twice leave the same requests,
 * each counted once, with the number of records merged into them reported.
 */
class IdempotenceTest {

  static final int REQUESTS = 600;

  @TempDir Path tmp;
  Path in;
  Map<String, String> reference;

  @BeforeEach
  void writeAndIngestOnce() throws Exception {
    in = CrashSafetyTest.writeFleet(tmp.resolve("in"), REQUESTS);
    Path clean = tmp.resolve("clean");
    assertThat(run("ingest", in.toString(), "--index", clean.toString()).exitCode()).isZero();
    reference = IndexContents.documents(clean);
    assertThat(IndexContents.count(clean, Schema.TYPE_REQUEST)).isEqualTo(REQUESTS + REQUESTS / 10);
  }

  @Test
  void theSameFolderTwiceChangesNothingAndReadsNothingAgain() throws Exception {
    Path index = tmp.resolve("index");
    run("ingest", in.toString(), "--index", index.toString());
    CliTestSupport.Run again = run("ingest", in.toString(), "--index", index.toString());

    assertThat(again.out()).contains("Ingested 0 of 5 files (5 unchanged since last run)")
        .contains("records merged into requests already read: 0 ");
    assertThat(IndexContents.documents(index)).isEqualTo(reference);
  }

  @Test
  void overlappingFoldersAndLinksReadEachFileOnce() throws Exception {
    Path index = tmp.resolve("index");
    Files.createSymbolicLink(in.resolve("gateway-link"), in.resolve("gateway"));           // a folder link: not followed
    Files.createSymbolicLink(in.resolve("engine/same-log.gz"), in.resolve("engine/sglang-decode-0.log.gz")); // a file link
    run("ingest", in.resolve("gateway").toString(), "--index", index.toString());
    CliTestSupport.Run overlapping = run("ingest", in.toString(), in.resolve("gateway").toString(),
        in.resolve("engine").toString(), in.resolve("gateway/litellm.jsonl").toString(), "--index", index.toString());

    assertThat(overlapping.out()).as("each file once, the gateway files already done")
        .contains("Ingested 3 of 5 files (2 unchanged since last run)").contains("records merged into requests already read: 0 ");
    assertThat(IndexContents.documents(index)).isEqualTo(reference);
  }

  @Test
  void recordsShippedTwiceAreCountedOnceAndTheMergedOnesReported() throws Exception {
    Path index = tmp.resolve("index");
    Path shipped = tmp.resolve("shipped");
    copyTree(in, shipped);
    // Log shipping: the whole gateway file again under a rotated name, one file with retried
    // (repeated) lines, and an engine log shipped twice.
    List<String> gateway = Files.readAllLines(in.resolve("gateway/litellm.jsonl"));
    Files.write(shipped.resolve("gateway/litellm.jsonl.1"), gateway);
    List<String> retried = new ArrayList<>();
    int retries = 0;
    for (int i = 0; i < 50; i++) {
      retried.add(gateway.get(i));
      if (i % 5 == 0) {
        retried.add(gateway.get(i)); // the shipper retried this batch line
        retries++;
      }
    }
    Files.write(shipped.resolve("gateway/retried.jsonl"), retried);
    Files.copy(in.resolve("engine/sglang-decode-0.log.gz"), shipped.resolve("engine/sglang-decode-0.log.1.gz"));

    CliTestSupport.Run run = run("ingest", shipped.toString(), "--index", index.toString());

    long expectedMerged = gateway.size() + retried.size();
    assertThat(recordsMerged(run.out())).as(run.out()).isEqualTo(expectedMerged);
    assertThat(IndexContents.count(index, Schema.TYPE_REQUEST)).isEqualTo(REQUESTS + REQUESTS / 10);
    assertThat(IndexContents.count(index, Schema.TYPE_ENGINE_EVENT)).isEqualTo(count(reference, "e:"));
    assertThat(IndexContents.count(index, Schema.TYPE_EPOCH)).isEqualTo(count(reference, "c:"));
    assertThat(retries).isEqualTo(10);
    // A second, overlapping shipment: 100 known requests and 7 new ones.
    List<String> next = new ArrayList<>(gateway.subList(0, 100));
    for (int i = 0; i < 7; i++) {
      next.add(FleetFiles.litellm(90_000 + i, "org-new", 100, "new request " + i));
    }
    Files.write(shipped.resolve("gateway/next-day.jsonl"), next);
    CliTestSupport.Run second = run("ingest", shipped.toString(), "--index", index.toString());
    assertThat(recordsMerged(second.out())).as(second.out()).isEqualTo(100);
    assertThat(IndexContents.count(index, Schema.TYPE_REQUEST)).isEqualTo(REQUESTS + REQUESTS / 10 + 7);
  }

  private static long count(Map<String, String> documents, String idPrefix) {
    return documents.keySet().stream().filter(id -> id.startsWith(idPrefix)).count();
  }

  static long recordsMerged(String out) {
    Matcher m = Pattern.compile("records merged into requests already read: ([0-9,]+)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return Long.parseLong(m.group(1).replace(",", ""));
  }

  private static CliTestSupport.Run run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--quiet");
    CliTestSupport.Run run = CliTestSupport.run(all.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    return run;
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
