package io.kvscope.ingest.arrow;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageChannelReader;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow IPC files of canonical request records, in the file format ({@code ARROW1} magic) or the
 * streaming format, plain or gzip/zstd-packed. Both are read as a stream, one record batch at a
 * time: the file format is the streaming format between an 8-byte header and a footer, so no
 * seeking (and no whole-file buffering of a compressed file) is needed.
 *
 * <p>Columns are found by their canonical names (see {@link CanonicalField}); other columns are
 * ignored and missing ones read as null. Each record cites this file and its 1-based row ordinal
 * across all batches. A row that cannot be read is reported with that ordinal; the file-level
 * problems (no {@code request_id} column, a damaged header) are reported as line 0.
 */
public final class ArrowIngestor implements Ingestor {

  private static final byte[] FILE_MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};
  /** The magic is padded to 8 bytes before the first message. */
  private static final int FILE_HEADER_BYTES = 8;
  /** Schemas and batch headers are kilobytes; a larger claim is damage. */
  private static final int MAX_METADATA_BYTES = 16 * 1024 * 1024;
  /**
   * Off-heap memory for one record batch (and its dictionaries). Arrow's buffers live outside the
   * Java heap, so this is the only bound; a batch needing more is reported, not read.
   */
  static final long MAX_BATCH_BYTES = 2L * 1024 * 1024 * 1024;

  @Override
  public String name() {
    return "arrow";
  }

  @Override
  public String description() {
    return "Arrow IPC files or streams of canonical request records (request_id, tenant, ... columns)";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    byte[] head = sniff.head();
    if (isFileFormat(head)) {
      // an Arrow file of other columns is still claimed, weakly, so that its parse says what is missing
      return schemaAt(head, FILE_HEADER_BYTES).map(schema -> hasRequestId(schema) ? 95 : 20).orElse(0);
    }
    if (head.length >= 8 && head[0] == (byte) 0xFF && head[1] == (byte) 0xFF && head[2] == (byte) 0xFF
        && head[3] == (byte) 0xFF) {
      return schemaAt(head, 0).map(ArrowIngestor::hasRequestId).orElse(false) ? 90 : 0;
    }
    return 0;
  }

  /** The schema at the start of an Arrow IPC file or stream held in {@code head}, if it is one. */
  public static Optional<Schema> headSchema(byte[] head) {
    if (isFileFormat(head)) {
      return schemaAt(head, FILE_HEADER_BYTES);
    }
    if (head.length >= 8 && head[0] == (byte) 0xFF && head[1] == (byte) 0xFF && head[2] == (byte) 0xFF
        && head[3] == (byte) 0xFF) {
      return schemaAt(head, 0);
    }
    return Optional.empty();
  }

  private static boolean isFileFormat(byte[] head) {
    if (head.length < FILE_HEADER_BYTES) {
      return false;
    }
    for (int i = 0; i < FILE_MAGIC.length; i++) {
      if (head[i] != FILE_MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /** The schema message at {@code offset} of the head, read without an allocator. */
  private static Optional<Schema> schemaAt(byte[] head, int offset) {
    int available = head.length - offset;
    try (ReadChannel channel = new GuardedReadChannel(Channels.newChannel(
        new ByteArrayInputStream(head, offset, available)), available)) {
      return Optional.ofNullable(MessageSerializer.deserializeSchema(channel));
    } catch (IOException | RuntimeException notArrow) {
      return Optional.empty();
    }
  }

  private static boolean hasRequestId(Schema schema) {
    return schema.getFields().stream().anyMatch(f -> f.getName().equals(CanonicalField.REQUEST_ID.column()));
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    try (InputStream in = file.open();
        BufferAllocator allocator = new RootAllocator(MAX_BATCH_BYTES)) {
      in.mark(FILE_HEADER_BYTES);
      byte[] header = in.readNBytes(FILE_HEADER_BYTES);
      if (!isFileFormat(header)) {
        in.reset(); // the streaming format starts with its schema message
      }
      ReadChannel channel = new GuardedReadChannel(Channels.newChannel(in), MAX_METADATA_BYTES);
      try (ArrowStreamReader reader = new ArrowStreamReader(new MessageChannelReader(channel, allocator), allocator)) {
        read(file, reader, sink);
      }
    }
  }

  private void read(InputFile file, ArrowStreamReader reader, RecordSink sink) {
    VectorSchemaRoot root;
    try {
      root = reader.getVectorSchemaRoot();
    } catch (IOException | RuntimeException e) {
      sink.malformed(new BadInput(file.name(), 0, "not a readable Arrow IPC file: " + describe(e)), null);
      return;
    }
    Map<CanonicalField, FieldVector> columns = columns(root);
    if (!columns.containsKey(CanonicalField.REQUEST_ID)) {
      sink.malformed(new BadInput(file.name(), 0, "Arrow file has no request_id column; expected the canonical "
          + "columns (request_id, engine_rid, tenant, ...)"), null);
      return;
    }
    long ordinal = 0;
    while (true) {
      try {
        if (!reader.loadNextBatch()) {
          return;
        }
      } catch (IOException | RuntimeException e) {
        String problem = e instanceof OutOfMemoryException ? describe(e)
            : "Arrow data ends early or is damaged (" + describe(e) + ")";
        sink.malformed(new BadInput(file.name(), ordinal + 1, problem + "; the rows before this one were kept"), null);
        file.markEndedEarly();
        return;
      }
      Map<CanonicalField, ColumnReader> readers;
      try {
        readers = bind(columns, reader);
      } catch (IllegalArgumentException e) {
        sink.malformed(new BadInput(file.name(), ordinal + 1, e.getMessage()), null);
        return;
      }
      int rows = root.getRowCount();
      for (int row = 0; row < rows; row++) {
        ordinal++;
        try {
          sink.accept(record(readers, row).sourceFile(file.name()).sourceLine(ordinal).build());
        } catch (RuntimeException e) {
          // a value that does not fit its field (or the record's own checks): this row only
          String reason = e instanceof IllegalArgumentException && e.getMessage() != null ? e.getMessage() : describe(e);
          sink.malformed(new BadInput(file.name(), ordinal, reason), null);
        }
      }
    }
  }

  /** The canonical columns present, by exact name, else by name ignoring case. */
  private static Map<CanonicalField, FieldVector> columns(VectorSchemaRoot root) {
    Map<CanonicalField, FieldVector> columns = new EnumMap<>(CanonicalField.class);
    for (CanonicalField field : CanonicalField.values()) {
      if (field.isProvenance()) {
        continue; // provenance is this file and row
      }
      FieldVector exact = root.getVector(field.column());
      if (exact != null) {
        columns.put(field, exact);
        continue;
      }
      for (FieldVector vector : root.getFieldVectors()) {
        Field f = vector.getField();
        if (f.getName().equalsIgnoreCase(field.column())) {
          columns.put(field, vector);
          break;
        }
      }
    }
    return columns;
  }

  private static Map<CanonicalField, ColumnReader> bind(Map<CanonicalField, FieldVector> columns,
      ArrowStreamReader dictionaries) {
    Map<CanonicalField, ColumnReader> readers = new EnumMap<>(CanonicalField.class);
    columns.forEach((field, vector) -> readers.put(field, ColumnReader.bind(field, vector, dictionaries)));
    return readers;
  }

  private static RequestRecord.Builder record(Map<CanonicalField, ColumnReader> readers, int row) {
    RequestRecord.Builder builder = new RequestRecord.Builder().origin(RecordOrigin.GATEWAY);
    for (Map.Entry<CanonicalField, ColumnReader> entry : readers.entrySet()) {
      Object value = entry.getValue().read(row);
      if (value != null) {
        entry.getKey().set(builder, value);
      }
    }
    return builder;
  }

  /** An Arrow exception in words that say what broke; Arrow's messages carry no cell values. */
  private static String describe(Exception e) {
    if (e instanceof OutOfMemoryException) {
      return "a record batch needs more than the " + (MAX_BATCH_BYTES >> 20)
          + " MiB kvscope allows for one batch; write the file with smaller batches";
    }
    String message = e.getMessage();
    // The message says what broke (Arrow's carry no cell values); without one, words, never a class name.
    return message != null && !message.isBlank() ? message : io.kvscope.ingest.FailureWords.of(e);
  }
}
