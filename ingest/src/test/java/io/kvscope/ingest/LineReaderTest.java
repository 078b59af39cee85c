package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.TestFiles.Packing;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LineReaderTest {

  @TempDir Path dir;

  private static List<String> readAll(LineReader reader) {
    List<String> lines = new ArrayList<>();
    String line;
    while ((line = reader.next()) != null) {
      lines.add(line);
    }
    return lines;
  }

  private static List<String> numbered(int count, String prefix) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> prefix + i + " {\"payload\":\"" + "x".repeat(i % 97) + "\"}")
        .toList();
  }

  @Test
  void stripsCrlfAndKeepsEmptyLinesAndAnUnterminatedLastLine() throws IOException {
    Path file = dir.resolve("crlf.log");
    Files.write(file, "first\r\nsecond\r\n\r\nlast without newline".getBytes(StandardCharsets.UTF_8));
    CollectingSink sink = new CollectingSink();
    try (LineReader reader = new InputFile(file).lines(sink)) {
      assertThat(reader.next()).isEqualTo("first");
      assertThat(reader.lineNumber()).isEqualTo(1);
      assertThat(reader.next()).isEqualTo("second");
      assertThat(reader.next()).isEmpty();
      assertThat(reader.next()).isEqualTo("last without newline");
      assertThat(reader.lineNumber()).isEqualTo(4);
      assertThat(reader.next()).isNull();
    }
    assertThat(sink.bad).isEmpty();
  }

  @Test
  void replacesInvalidUtf8WithoutDisturbingTheNextLine() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes("caf".getBytes(StandardCharsets.UTF_8));
    bytes.write(0xC3); // a lead byte whose continuation is missing
    bytes.writeBytes("\n".getBytes(StandardCharsets.UTF_8));
    bytes.write(0xFF); // never valid in UTF-8
    bytes.writeBytes("ok\nnaïve – ✓ 😀\n".getBytes(StandardCharsets.UTF_8));
    Path file = dir.resolve("bad-utf8.txt");
    Files.write(file, bytes.toByteArray());

    CollectingSink sink = new CollectingSink();
    try (LineReader reader = new InputFile(file).lines(sink)) {
      assertThat(readAll(reader)).containsExactly("caf\uFFFD", "\uFFFDok", "naïve – ✓ 😀");
    }
    assertThat(sink.bad).isEmpty();
  }

  @Test
  void dropsAByteOrderMarkOnTheFirstLineOnly() throws IOException {
    Path file = dir.resolve("bom.jsonl");
    Files.write(file, "\uFEFF{\"a\":1}\n\uFEFFsecond\n".getBytes(StandardCharsets.UTF_8));
    try (LineReader reader = new InputFile(file).lines(new CollectingSink())) {
      assertThat(readAll(reader)).containsExactly("{\"a\":1}", "\uFEFFsecond");
    }
  }

  @Test
  void skipsAndReportsAnOverLongLineThenCarriesOn() throws IOException {
    Path file = dir.resolve("long.log");
    String longLine = "y".repeat(250_000); // spans several read buffers
    Files.writeString(file, "short one\n" + longLine + "\nexactly ten\n" + "z".repeat(101) + "\nend\n");
    InputFile input = new InputFile(file);
    CollectingSink sink = new CollectingSink();
    try (LineReader reader = new LineReader(input, input.open(), sink, 0, 100)) {
      assertThat(reader.next()).isEqualTo("short one");
      assertThat(reader.next()).isEqualTo("exactly ten");
      assertThat(reader.lineNumber()).isEqualTo(3);
      assertThat(reader.next()).isEqualTo("end");
      assertThat(reader.lineNumber()).isEqualTo(5);
      assertThat(reader.next()).isNull();
    }
    assertThat(sink.badLines()).containsExactly(2L, 4L);
    assertThat(sink.bad.get(0).reason()).contains("250000 bytes", "100 byte limit");
    assertThat(sink.badRaw).containsOnlyNulls();
  }

  @Test
  void advancePassesTheLinesNextGivesAndTheirBytesDecodeToThem() throws IOException {
    Path file = dir.resolve("spans.log");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    bytes.write("first\r\n\n".getBytes(StandardCharsets.UTF_8));
    bytes.write("z".repeat(250_000).getBytes(StandardCharsets.UTF_8)); // too long, over several read buffers
    bytes.write("\nbad \u00e9 byte ".getBytes(StandardCharsets.UTF_8));
    bytes.write(new byte[] {(byte) 0xFF, '\n'});
    bytes.write("last without newline".getBytes(StandardCharsets.UTF_8));
    byte[] content = bytes.toByteArray();
    Files.write(file, content);

    InputFile decoded = new InputFile(file);
    CollectingSink decodedSink = new CollectingSink();
    List<String> expected;
    try (LineReader reader = new LineReader(decoded, decoded.open(), decodedSink, 0, 100)) {
      expected = readAll(reader);
    }
    InputFile passed = new InputFile(file);
    CollectingSink passedSink = new CollectingSink();
    List<String> fromBytes = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    try (LineReader reader = new LineReader(passed, passed.open(), passedSink, 0, 100)) {
      while (reader.advance()) {
        numbers.add(reader.lineNumber());
        int to = (int) reader.lineEnd();
        if (to > reader.lineStart() && content[to - 1] == '\n') {
          to--;
        }
        fromBytes.add(LineReader.decode(content, (int) reader.lineStart(), to, reader.lineNumber()));
      }
      assertThat(reader.lineEnd()).isEqualTo(content.length);
    }
    assertThat(expected).containsExactly("first", "", "bad \u00e9 byte \uFFFD", "last without newline");
    assertThat(fromBytes).isEqualTo(expected);
    assertThat(numbers).containsExactly(1L, 2L, 4L, 5L);
    assertThat(passedSink.badLines()).isEqualTo(decodedSink.badLines()).containsExactly(3L);
    assertThat(passed.sha256()).isNotNull().isEqualTo(decoded.sha256());
  }

  @Test
  void aLineExactlyAtTheLimitIsKept() throws IOException {
    Path file = dir.resolve("edge.log");
    Files.writeString(file, "a".repeat(100) + "\r\n");
    InputFile input = new InputFile(file);
    CollectingSink sink = new CollectingSink();
    // the \r counts towards the limit: 101 bytes on the line
    try (LineReader reader = new LineReader(input, input.open(), sink, 0, 101)) {
      assertThat(reader.next()).hasSize(100);
    }
    assertThat(sink.bad).isEmpty();
  }

  @Test
  void resumeSkipsCommittedLinesAndKeepsTheirNumbers() throws IOException {
    List<String> lines = numbered(50, "line ");
    Path file = TestFiles.writeLines(dir.resolve("resume.gz"), lines, Packing.GZIP);
    CollectingSink sink = new CollectingSink();
    try (LineReader reader = new InputFile(file, "resume.gz", 20).lines(sink)) {
      assertThat(reader.lineNumber()).isEqualTo(20);
      assertThat(reader.next()).isEqualTo(lines.get(20));
      assertThat(reader.lineNumber()).isEqualTo(21);
      List<String> rest = readAll(reader);
      assertThat(rest).hasSize(29).last().isEqualTo(lines.get(49));
      assertThat(reader.lineNumber()).isEqualTo(50);
    }
  }

  @Test
  void resumePastTheEndYieldsNothing() throws IOException {
    Path file = TestFiles.writeLines(dir.resolve("short.log"), List.of("a", "b"), Packing.PLAIN);
    try (LineReader reader = new InputFile(file, "short.log", 10).lines(new CollectingSink())) {
      assertThat(reader.next()).isNull();
      assertThat(reader.lineNumber()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @EnumSource(Packing.class)
  void readsEveryPackingByMagicNotByExtension(Packing packing) throws IOException {
    List<String> lines = numbered(3000, "row ");
    // the extension says nothing true about the packing
    Path file = TestFiles.writeLines(dir.resolve("data.txt"), lines, packing);
    InputFile input = new InputFile(file);
    assertThat(input.compression().name()).isEqualTo(switch (packing) {
      case PLAIN -> "NONE";
      case GZIP -> "GZIP";
      case ZSTD -> "ZSTD";
    });
    CollectingSink sink = new CollectingSink();
    try (LineReader reader = input.lines(sink)) {
      assertThat(readAll(reader)).isEqualTo(lines);
    }
    assertThat(sink.bad).isEmpty();
    assertThat(input.rawBytesRead()).isEqualTo(Files.size(file));
  }

  @Test
  void readsConcatenatedGzipMembers() throws IOException {
    Path file = dir.resolve("rotated.gz");
    try (var out = Files.newOutputStream(file)) {
      for (String part : List.of("one\ntwo\n", "three\n")) {
        var bytes = new ByteArrayOutputStream();
        try (var gz = TestFiles.pack(bytes, Packing.GZIP)) {
          gz.write(part.getBytes(StandardCharsets.UTF_8));
        }
        out.write(bytes.toByteArray());
      }
    }
    try (LineReader reader = new InputFile(file).lines(new CollectingSink())) {
      assertThat(readAll(reader)).containsExactly("one", "two", "three");
    }
  }

  @Test
  void truncatedGzipKeepsEveryCompleteLineBeforeTheDamageAndReportsItOnce() throws IOException {
    List<String> lines = numbered(20_000, "event ");
    Path file = TestFiles.writeLines(dir.resolve("cut.jsonl.gz"), lines, Packing.GZIP);
    TestFiles.truncate(file, 0.6);
    int recoverable = TestFiles.completeLines(TestFiles.recoverableGzipPrefix(file));
    assertThat(recoverable).isBetween(1000, 19_999);

    CollectingSink sink = new CollectingSink();
    List<String> read;
    try (LineReader reader = new InputFile(file).lines(sink)) {
      read = readAll(reader);
    }
    // every line the decoder could give back is returned, whole, and nothing partial after it
    assertThat(read).isEqualTo(lines.subList(0, recoverable));
    assertThat(sink.bad).hasSize(1);
    assertThat(sink.bad.get(0).line()).isEqualTo(recoverable + 1L);
    assertThat(sink.bad.get(0).reason()).contains("ends early");
  }

  @Test
  void truncatedZstdKeepsTheLinesBeforeTheDamage() throws IOException {
    List<String> lines = numbered(20_000, "event ");
    Path file = TestFiles.writeLines(dir.resolve("cut.zst"), lines, Packing.ZSTD);
    TestFiles.truncate(file, 0.5);

    CollectingSink sink = new CollectingSink();
    List<String> read;
    try (LineReader reader = new InputFile(file).lines(sink)) {
      read = readAll(reader);
    }
    assertThat(read).isNotEmpty().isEqualTo(lines.subList(0, read.size()));
    assertThat(read.size()).isLessThan(lines.size());
    assertThat(sink.bad).hasSize(1);
    assertThat(sink.bad.get(0).line()).isEqualTo(read.size() + 1L);
  }

  @Test
  void sniffOfATruncatedArchiveKeepsWhatDecompressed() throws IOException {
    List<String> lines = numbered(20_000, "event ");
    Path file = TestFiles.writeLines(dir.resolve("cut.gz"), lines, Packing.GZIP);
    TestFiles.truncate(file, 0.01);
    byte[] recoverable = TestFiles.recoverableGzipPrefix(file);
    Sniff sniff = new InputFile(file).sniff();
    assertThat(sniff.head()).isEqualTo(java.util.Arrays.copyOf(recoverable, Math.min(recoverable.length, Sniff.HEAD_BYTES)));
    assertThat(sniff.firstLine()).isEqualTo(lines.get(0));
  }
}
