package io.kvscope.ingest.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.TestFiles;
import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowIngestorTest {

  /** 2026-08-27T10:00:00.250Z. */
  private static final long T0_MS = 1_787_824_800_250L;

  @TempDir Path dir;

  private final ArrowIngestor ingestor = new ArrowIngestor();

  private CollectingSink parse(Path file) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file), IngestOptions.defaults(), sink);
    return sink;
  }

  private static RequestRecord record(int i) {
    RequestRecord.Builder b = RequestRecord.builder("req-" + i)
        .engineRid("rid-" + i)
        .tenant("org-" + (i % 3))
        .model("qwen3-235b")
        .deployment("long-context")
        .prefillNode("prefill-" + (i % 2))
        .decodeNode("decode-" + (i % 4))
        .bootstrapRoom(1_000_000_007L * i)
        .startTime(T0_MS + i * 1000L)
        .firstTokenTime(T0_MS + i * 1000L + 120)
        .endTime(T0_MS + i * 1000L + 900)
        .statusCode(i % 5 == 0 ? 429 : 200)
        .finishReason("stop")
        .promptTokens(700_000L + i)
        .cachedTokens((long) i)
        .completionTokens(40L + i)
        .engineInputLen(i % 4 == 0 ? 1L : 700_000L + i)
        .promptText("Ledger for account ÅÄÖ-" + i + " ✓")
        .responseText("Balance " + i)
        .sourceFile("gateway.jsonl")
        .sourceLine(100 + i);
    if (i % 3 == 1) { // some facts missing, as in real data
      b.tenant(null).decodeNode(null).firstTokenTime(null).cachedTokens(null).responseText(null);
    }
    return b.build();
  }

  private static void assertSameFacts(RequestRecord read, RequestRecord written) {
    for (CanonicalField field : CanonicalField.values()) {
      if (!field.isProvenance()) {
        assertThat(field.get(read)).as(field.column()).isEqualTo(field.get(written));
      }
    }
  }

  @Test
  void roundTripsTheWritersRecordsAcrossBatches() throws IOException {
    List<RequestRecord> written = new ArrayList<>();
    IntStream.range(0, 10).mapToObj(ArrowIngestorTest::record).forEach(written::add);
    written.add(RequestRecord.builder("huge").promptText("Clause 7. ".repeat(320_000)).build()); // 3.2 MB
    Path file = dir.resolve("records.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(file, 3)) {
      for (RequestRecord r : written) {
        out.write(r);
      }
      assertThat(out.rowsWritten()).isEqualTo(11);
    }

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).hasSize(written.size());
    for (int i = 0; i < written.size(); i++) {
      RequestRecord read = sink.records().get(i);
      assertSameFacts(read, written.get(i));
      assertThat(read.sourceFile()).isEqualTo(file.toString());
      assertThat(read.sourceLine()).isEqualTo(i + 1L);
    }
  }

  @Test
  void writesTheCanonicalColumnsOwnerOnly() throws IOException {
    Path file = dir.resolve("perm.arrow");
    Files.writeString(file, "an older, world-readable file");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(file)) {
      out.write(record(1));
    }

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(CanonicalArrowWriter.schema().getFields()).extracting(f -> f.getName())
        .containsExactly("request_id", "engine_rid", "tenant", "model", "deployment", "prefill_node", "decode_node",
            "bootstrap_room", "start_time", "first_token_time", "end_time", "status_code", "finish_reason",
            "prompt_tokens", "prompt_chars", "cached_tokens", "completion_tokens", "engine_input_len",
            "prompt_text", "response_text", "source_file", "source_line");
    byte[] bytes = Files.readAllBytes(file);
    assertThat(new String(bytes, 0, 6, StandardCharsets.US_ASCII)).isEqualTo("ARROW1");
    assertThat(new String(bytes, bytes.length - 6, 6, StandardCharsets.US_ASCII)).isEqualTo("ARROW1");
  }

  /**
   * A file as another tool might write it: a subset of the columns in other types (large_utf8,
   * a dictionary-encoded tenant, int32 counts, float64 counts with nulls, microsecond timestamps,
   * int64 milliseconds), plus a column kvscope does not know.
   */
  private static void writeForeignFile(Path file, boolean streaming, Packing packing) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector dictionaryValues = new VarCharVector("tenant-dictionary", allocator);
        LargeVarCharVector requestId = new LargeVarCharVector("request_id", allocator);
        VarCharVector tenantPlain = new VarCharVector("tenant", allocator);
        IntVector promptTokens = new IntVector("prompt_tokens", allocator);
        Float8Vector completionTokens = new Float8Vector("completion_tokens", allocator);
        TimeStampMicroVector start = new TimeStampMicroVector("start_time", allocator);
        BigIntVector end = new BigIntVector("END_TIME", allocator);
        BigIntVector status = new BigIntVector("status_code", allocator);
        VarCharVector unknown = new VarCharVector("pandas_index_level_0", allocator)) {
      dictionaryValues.allocateNew();
      dictionaryValues.setSafe(0, "org-a".getBytes(StandardCharsets.UTF_8));
      dictionaryValues.setSafe(1, "org-b".getBytes(StandardCharsets.UTF_8));
      dictionaryValues.setValueCount(2);
      Dictionary dictionary = new Dictionary(dictionaryValues,
          new DictionaryEncoding(7L, false, new ArrowType.Int(32, true)));
      DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
      provider.put(dictionary);

      int rows = 4;
      for (FieldVector v : List.of(requestId, tenantPlain, promptTokens, completionTokens, start, end, status, unknown)) {
        v.allocateNew();
      }
      for (int i = 0; i < rows; i++) {
        requestId.setSafe(i, ("foreign-" + i).getBytes(StandardCharsets.UTF_8));
        if (i == 2) {
          tenantPlain.setNull(i);
          completionTokens.setNull(i);
        } else {
          tenantPlain.setSafe(i, (i % 2 == 0 ? "org-a" : "org-b").getBytes(StandardCharsets.UTF_8));
          completionTokens.setSafe(i, 10.0 * i);
        }
        promptTokens.setSafe(i, 1000 + i);
        start.setSafe(i, (T0_MS + i) * 1000 + 999); // microseconds
        end.setSafe(i, T0_MS + i + 500);
        status.setSafe(i, 200);
        unknown.setSafe(i, Integer.toString(i).getBytes(StandardCharsets.UTF_8));
      }
      for (FieldVector v : List.of(requestId, tenantPlain, promptTokens, completionTokens, start, end, status, unknown)) {
        v.setValueCount(rows);
      }
      try (FieldVector tenant = (FieldVector) DictionaryEncoder.encode(tenantPlain, dictionary);
          VectorSchemaRoot root = VectorSchemaRoot.of(requestId, tenant, promptTokens, completionTokens, start, end,
              status, unknown);
          OutputStream out = TestFiles.pack(Files.newOutputStream(file), packing)) {
        try (ArrowWriter writer = streaming
            ? new ArrowStreamWriter(root, provider, Channels.newChannel(out))
            : new ArrowFileWriter(root, provider, Channels.newChannel(out))) {
          writer.start();
          writer.writeBatch();
          writer.end();
        }
      }
    }
  }

  private void assertForeignRecords(CollectingSink sink) {
    assertThat(sink.bad).isEmpty();
    List<RequestRecord> records = sink.records();
    assertThat(records).extracting(RequestRecord::requestId)
        .containsExactly("foreign-0", "foreign-1", "foreign-2", "foreign-3");
    assertThat(records).extracting(RequestRecord::tenant).containsExactly("org-a", "org-b", null, "org-b");
    assertThat(records).extracting(RequestRecord::promptTokens).containsExactly(1000L, 1001L, 1002L, 1003L);
    assertThat(records).extracting(RequestRecord::completionTokens).containsExactly(0L, 10L, null, 30L);
    assertThat(records).extracting(RequestRecord::startTime).containsExactly(T0_MS, T0_MS + 1, T0_MS + 2, T0_MS + 3);
    assertThat(records).extracting(RequestRecord::endTime)
        .containsExactly(T0_MS + 500, T0_MS + 501, T0_MS + 502, T0_MS + 503);
    assertThat(records).extracting(RequestRecord::statusCode).containsOnly(200);
    // columns the file does not have are null
    assertThat(records).extracting(RequestRecord::engineRid).containsOnlyNulls();
    assertThat(records).extracting(RequestRecord::promptText).containsOnlyNulls();
  }

  @Test
  void readsOtherColumnTypesAndLeavesMissingColumnsNull() throws IOException {
    Path file = dir.resolve("from-pandas.feather");
    writeForeignFile(file, false, Packing.PLAIN);
    assertForeignRecords(parse(file));
  }

  @Test
  void readsTheStreamingFormatPackedWithZstd() throws IOException {
    Path file = dir.resolve("records.arrows.zst");
    writeForeignFile(file, true, Packing.ZSTD);
    InputFile input = new InputFile(file);
    assertThat(ingestor.detect(input.sniff(), IngestOptions.defaults())).isEqualTo(90);
    assertForeignRecords(parse(file));
  }

  @Test
  void readsAGzippedFile() throws IOException {
    Path file = dir.resolve("records.arrow.gz");
    writeForeignFile(file, false, Packing.GZIP);
    assertThat(ingestor.detect(new InputFile(file).sniff(), IngestOptions.defaults())).isEqualTo(95);
    assertForeignRecords(parse(file));
  }

  @Test
  void aFileWithoutRequestIdIsReportedNotGuessed() throws IOException {
    Path file = dir.resolve("findings.arrow");
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector kind = new VarCharVector("kind", allocator)) {
      kind.allocateNew();
      kind.setSafe(0, "canary_leak".getBytes(StandardCharsets.UTF_8));
      kind.setValueCount(1);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(kind);
          ArrowFileWriter writer = new ArrowFileWriter(root, null, Files.newByteChannel(file,
              java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE))) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
    }

    assertThat(ingestor.detect(new InputFile(file).sniff(), IngestOptions.defaults())).isEqualTo(20);
    CollectingSink sink = parse(file);
    assertThat(sink.records()).isEmpty();
    assertThat(sink.bad).singleElement().satisfies(b -> {
      assertThat(b.line()).isZero();
      assertThat(b.reason()).contains("no request_id column");
    });
  }

  @Test
  void reportsBadRowsByOrdinalAndKeepsTheRest() throws IOException {
    Path file = dir.resolve("rows.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(file, 2)) {
      out.write(record(0));
      out.write(record(1));
      out.write(record(2));
    }
    // the same layout with a null request id and a negative count: only another tool writes those
    Path foreign = dir.resolve("foreign-rows.arrow");
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector id = new VarCharVector("request_id", allocator);
        BigIntVector tokens = new BigIntVector("prompt_tokens", allocator)) {
      id.allocateNew();
      tokens.allocateNew();
      String[] ids = {"ok-1", null, "ok-3", "neg-4", "ok-5"};
      for (int i = 0; i < ids.length; i++) {
        if (ids[i] == null) {
          id.setNull(i);
        } else {
          id.setSafe(i, ids[i].getBytes(StandardCharsets.UTF_8));
        }
        tokens.setSafe(i, ids[i] != null && ids[i].startsWith("neg") ? -3 : 10);
      }
      id.setValueCount(ids.length);
      tokens.setValueCount(ids.length);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(id, tokens);
          ArrowFileWriter writer = new ArrowFileWriter(root, null, Files.newByteChannel(foreign,
              java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE))) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
    }

    assertThat(parse(file).records()).hasSize(3);
    CollectingSink sink = parse(foreign);
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("ok-1", "ok-3", "ok-5");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(1L, 3L, 5L);
    assertThat(sink.badLines()).containsExactly(2L, 4L);
    assertThat(sink.bad.get(0).reason()).contains("request_id is required");
    assertThat(sink.bad.get(1).reason()).contains("prompt_tokens must not be negative");
  }

  @Test
  void aTruncatedFileKeepsTheCompleteBatches() throws IOException {
    Path file = dir.resolve("cut.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(file, 10)) {
      for (int i = 0; i < 100; i++) {
        out.write(record(i));
      }
    }
    TestFiles.truncate(file, 0.55);

    CollectingSink sink = parse(file);

    int kept = sink.records().size();
    assertThat(kept).isBetween(10, 90).matches(n -> n % 10 == 0, "whole batches");
    for (int i = 0; i < kept; i++) {
      assertSameFacts(sink.records().get(i), record(i));
    }
    assertThat(sink.bad).singleElement().satisfies(b -> {
      assertThat(b.line()).isEqualTo(kept + 1L);
      assertThat(b.reason()).contains("ends early or is damaged");
    });
  }

  @Test
  void aDamagedMessageLengthIsReportedWithoutAllocatingIt() throws IOException {
    Path file = dir.resolve("damaged.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(file, 5)) {
      for (int i = 0; i < 20; i++) {
        out.write(record(i));
      }
    }
    long secondBatch;
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader reader = new ArrowFileReader(FileChannel.open(file), allocator)) {
      secondBatch = reader.getRecordBlocks().get(1).getOffset();
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      // the length after the continuation marker now claims ~2 GB of metadata
      channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0x7FFF_FFF0), secondBatch + 4);
    }

    CollectingSink sink = parse(file);

    assertThat(sink.records()).hasSize(5);
    assertThat(sink.bad).singleElement().satisfies(b -> {
      assertThat(b.line()).isEqualTo(6);
      assertThat(b.reason()).contains("claims 2147483632 bytes");
    });
  }

  @Test
  void aTruncatedGzippedFileKeepsTheCompleteBatches() throws IOException {
    Path plain = dir.resolve("plain.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(plain, 10)) {
      for (int i = 0; i < 200; i++) {
        out.write(record(i));
      }
    }
    Path file = TestFiles.write(dir.resolve("cut.arrow.gz"), Files.readAllBytes(plain), Packing.GZIP);
    TestFiles.truncate(file, 0.5);

    CollectingSink sink = parse(file);

    int kept = sink.records().size();
    assertThat(kept).isBetween(10, 190).matches(n -> n % 10 == 0, "whole batches");
    assertSameFacts(sink.records().get(kept - 1), record(kept - 1));
    assertThat(sink.bad).singleElement().satisfies(b -> assertThat(b.line()).isEqualTo(kept + 1L));
  }
}
