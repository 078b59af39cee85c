package io.kvscope.index;

import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexIngestTest {

  @TempDir Path tmp;

  private Path writeTsv(String name, int rows, int firstId) throws IOException {
    return writeTsv(name, rows, firstId, "");
  }

  private Path writeTsv(String name, int rows, int firstId, String promptSuffix) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("#tsv");
    for (int i = 0; i < rows; i++) {
      int id = firstId + i;
      lines.add("req-" + id + "\ttenant-" + (id % 7) + "\t" + (100 + id) + "\tsecret prompt number " + id + promptSuffix);
    }
    Path file = tmp.resolve("in").resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, lines);
    return file;
  }

  private IngestSummary ingest(Path index, Ingestor ingestor, Path... inputs) throws IOException {
    return ingest(index, ingestor, 0, inputs);
  }

  private IngestSummary ingest(Path index, Ingestor ingestor, int writerThreads, Path... inputs) throws IOException {
    try (IndexStore store = IndexStore.open(index)) {
      return new IndexIngest(store, new Ingestors(List.of(ingestor)), IngestOptions.defaults(),
          IngestProgress.NONE, Clock.systemUTC(), writerThreads).run(List.of(inputs));
    }
  }

  /** request_id -> prompt_text of every request document. */
  private static java.util.Map<String, String> prompts(Path index) throws IOException {
    java.util.Map<String, String> prompts = new java.util.TreeMap<>();
    try (FSDirectory dir = FSDirectory.open(index);
        org.apache.lucene.index.DirectoryReader reader = org.apache.lucene.index.DirectoryReader.open(dir)) {
      TypedDocs.forEach(reader, Schema.TYPE_REQUEST, doc -> prompts.put(doc.get(Schema.REQUEST_ID), doc.get(Schema.PROMPT_TEXT)));
    }
    return prompts;
  }

  @Test
  void severalWriterThreadsWriteWhatOneWritesAndRecordsOfOneRequestMergeTheSameWay() throws Exception {
    writeTsv("a.tsv", 3_000, 0, " first");
    writeTsv("b.tsv", 3_000, 1_500, " and second"); // req-1500..req-2999 again, with another prompt
    Path one = tmp.resolve("one");
    Path four = tmp.resolve("four");

    IngestSummary single = ingest(one, new TabSeparatedIngestor(), 0, tmp.resolve("in"));
    IngestSummary parallel = ingest(four, new TabSeparatedIngestor(), 4, tmp.resolve("in"));

    assertThat(parallel.records()).isEqualTo(single.records()).isEqualTo(6_000);
    assertThat(parallel.merge()).isEqualTo(single.merge());
    assertThat(single.merge().recordsMerged()).isEqualTo(1_500);
    assertThat(single.merge().requestsWithConflicts()).as("the two prompts of each overlap disagree").isEqualTo(1_500);
    java.util.Map<String, String> prompts = prompts(four);
    assertThat(prompts).isEqualTo(prompts(one)).hasSize(4_500);
    assertThat(prompts.get("req-1499")).endsWith(" first");
    // Neither file replaces the other: the longer text is kept, the other is kept as a conflict.
    assertThat(prompts.get("req-1500")).endsWith(" and second");
    assertThat(prompts.get("req-2999")).endsWith(" and second");
    assertThat(prompts.get("req-3000")).endsWith(" and second");
  }

  private long requests(Path index) throws IOException {
    try (IndexSearch search = IndexSearch.open(index)) {
      return search.count(Schema.TYPE_REQUEST);
    }
  }

  @Test
  void reingestingTheSameFolderAddsNothingAndSkipsUnchangedFiles() throws Exception {
    writeTsv("a.tsv", 300, 0);
    writeTsv("b.tsv", 200, 1000);
    Path index = tmp.resolve("index");

    IngestSummary first = ingest(index, new TabSeparatedIngestor(), tmp.resolve("in"));
    IngestSummary second = ingest(index, new TabSeparatedIngestor(), tmp.resolve("in"));

    assertThat(first.records()).isEqualTo(500);
    assertThat(first.merge().recordsMerged()).isZero();
    assertThat(second.filesUnchanged()).isEqualTo(2);
    assertThat(second.records()).isZero();
    assertThat(requests(index)).isEqualTo(500);
  }

  @Test
  void repeatedRecordsInAnotherFileAreCountedOnceAndReportedAsCopies() throws Exception {
    writeTsv("a.tsv", 100, 0);
    writeTsv("shipped-again.tsv", 40, 60); // overlaps a.tsv on req-60..req-99
    Path index = tmp.resolve("index");

    IngestSummary summary = ingest(index, new TabSeparatedIngestor(), tmp.resolve("in"));

    assertThat(requests(index)).isEqualTo(100);
    assertThat(summary.merge().recordsMerged()).isEqualTo(40);
    assertThat(summary.merge().requestsWithConflicts()).isZero();
  }

  @Test
  void badLinesAreQuarantinedWithTheirLineAndTheGoodOnesAroundThemKept() throws Exception {
    Path file = tmp.resolve("in/mixed.tsv");
    Files.createDirectories(file.getParent());
    Files.write(file, List.of("#tsv", "req-1\tacme\t10\tok", "garbage line", "req-2\tacme\t-5\tnegative",
        "req-3\tacme\t12\tok"));
    Path index = tmp.resolve("index");

    IngestSummary summary = ingest(index, new TabSeparatedIngestor(), file);

    assertThat(requests(index)).isEqualTo(2);
    assertThat(summary.badRecords()).isEqualTo(2);
    assertThat(summary.badSamples()).extracting(b -> b.line()).containsExactly(3L, 4L);
    assertThat(summary.badSamples().get(0).toString()).startsWith(file + ":3: ");
    List<String> quarantined = Files.readAllLines(summary.quarantine());
    assertThat(quarantined).hasSize(2);
    assertThat(quarantined.get(0)).contains("\"line\":3").contains("garbage line");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(summary.quarantine()))).isEqualTo("rw-------");
  }

  @Test
  void anIngestKilledMidFileResumesToExactlyTheRecordsOfAnUninterruptedRun() throws Exception {
    Path big = writeTsv("big.tsv", 120_000, 0); // more than one commit interval
    Path crashed = tmp.resolve("crashed");
    Path clean = tmp.resolve("clean");

    assertThatThrownBy(() -> ingest(crashed, new TabSeparatedIngestor(90_000), 3, big))
        .isInstanceOf(TabSeparatedIngestor.SimulatedCrash.class);
    long afterCrash = requests(crashed);
    IngestSummary resumed = ingest(crashed, new TabSeparatedIngestor(), big);
    ingest(clean, new TabSeparatedIngestor(), big);

    assertThat(afterCrash).as("the first commit interval survived the crash").isBetween(1L, 89_999L);
    assertThat(resumed.records()).as("resumed after the checkpoint, not from the start").isLessThan(120_000);
    assertThat(requests(crashed)).isEqualTo(requests(clean)).isEqualTo(120_000);
    try (FSDirectory dir = FSDirectory.open(crashed); CheckIndex check = new CheckIndex(dir)) {
      assertThat(check.checkIndex().clean).isTrue();
    }
  }

  @Test
  void indexDirectoryAndFilesAreOwnerOnly() throws Exception {
    Path index = tmp.resolve("index");
    ingest(index, new TabSeparatedIngestor(), writeTsv("a.tsv", 10, 0));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(index))).isEqualTo("rwx------");
    try (Stream<Path> files = Files.list(index)) {
      assertThat(files.filter(Files::isRegularFile).toList()).isNotEmpty().allSatisfy(f ->
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------"));
    }
  }

  @Test
  void filesNoIngestorClaimsAreListedAsUnrecognized() throws Exception {
    Path other = tmp.resolve("in/notes.txt");
    Files.createDirectories(other.getParent());
    Files.writeString(other, "just some notes\n");

    IngestSummary summary = ingest(tmp.resolve("index"), new TabSeparatedIngestor(), tmp.resolve("in"));

    assertThat(summary.unrecognized()).containsExactly(other.toString());
  }

  /** A TSV of {@code rows} requests whose row {@code badRow} (0-based) is {@code badLine}. */
  private Path writeTsvWith(String name, int rows, int badRow, String badLine) throws IOException {
    Path file = writeTsv(name, rows, 0);
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.set(1 + badRow, badLine);
    Files.write(file, lines);
    return file;
  }

  @Test
  void aParserFailureOnOneLineCostsThatLineAndTheFileIsReadOn() throws Exception {
    Path index = tmp.resolve("index");
    Path file = writeTsvWith("a.tsv", 100, 49, TabSeparatedIngestor.PARSER_BUG + "\tt\t1\tx");

    IngestSummary first = ingest(index, new TabSeparatedIngestor(), file);

    assertThat(first.records()).isEqualTo(99);
    assertThat(first.badRecords()).isEqualTo(1);
    assertThat(first.badSamples().get(0).line()).isEqualTo(51);
    assertThat(first.badSamples().get(0).reason()).contains("reading goes on").doesNotContain("Exception");
    assertThat(prompts(index)).hasSize(99).containsKey("req-99").doesNotContainKey("req-49");
    // Read to its end: the next run may rightly call it unchanged.
    assertThat(ingest(index, new TabSeparatedIngestor(), file).filesUnchanged()).isEqualTo(1);
  }

  @Test
  void aFileWhoseReadingStoppedIsReadAgainNotCalledUnchanged() throws Exception {
    Path index = tmp.resolve("index");
    Path file = writeTsvWith("a.tsv", 100, 49, TabSeparatedIngestor.PARSER_BUG + "\tt\t1\tx");
    TabSeparatedIngestor stateful = new TabSeparatedIngestor(Long.MAX_VALUE, false); // cannot resume mid-file

    IngestSummary first = ingest(index, stateful, file);
    IngestSummary again = ingest(index, stateful, file);

    assertThat(first.records()).isEqualTo(49);
    assertThat(first.badSamples()).singleElement().satisfies(bad -> {
      assertThat(bad.line()).isEqualTo(51);
      assertThat(bad.reason()).startsWith("reading stopped");
    });
    assertThat(again.filesUnchanged()).as("lines were lost, so the file is not unchanged").isZero();
    assertThat(again.filesIngested()).isEqualTo(1);
    assertThat(again.badRecords()).as("and the loss is reported again").isEqualTo(1);
  }

  @Test
  void implausibleValuesAreBadRecordsWithTheirFileAndLine() throws Exception {
    Path index = tmp.resolve("index");
    Path file = writeTsvWith("a.tsv", 10, 4, "req-4\tt\t" + (1L << 50) + "\tx");

    IngestSummary summary = ingest(index, new TabSeparatedIngestor(), file);

    assertThat(summary.records()).isEqualTo(9);
    assertThat(summary.badSamples()).singleElement().satisfies(bad -> {
      assertThat(bad.file()).isEqualTo(file.toString());
      assertThat(bad.line()).isEqualTo(6);
      assertThat(bad.reason()).contains("prompt_tokens").contains("beyond any real count");
    });
    assertThat(prompts(index)).hasSize(9).doesNotContainKey("req-4");
    assertThat(summary.quarantine()).isRegularFile();
  }
}
