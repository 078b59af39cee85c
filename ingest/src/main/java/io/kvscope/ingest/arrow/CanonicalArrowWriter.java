package io.kvscope.ingest.arrow;

import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes {@link RequestRecord}s to an Arrow IPC file with one column per {@link CanonicalField},
 * named by its snake_case column: strings as UTF-8, counts as int64, {@code status_code} as int32,
 * times as {@code timestamp[ms, UTC]}. Records are buffered into batches of at most
 * {@link #BATCH_ROWS} rows or about {@link #BATCH_TEXT_BYTES} of text, so memory stays bounded
 * however many records are written. The file is created owner-only: it may hold prompts.
 *
 * <pre>{@code
 * try (CanonicalArrowWriter out = new CanonicalArrowWriter(path)) {
 *   for (RequestRecord r : records) out.write(r);
 * }
 * }</pre>
 */
public final class CanonicalArrowWriter implements AutoCloseable {

  public static final int BATCH_ROWS = 4096;
  public static final long BATCH_TEXT_BYTES = 32L * 1024 * 1024;

  private final int batchRows;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot root;
  private final FileChannel channel;
  private final ArrowFileWriter writer;
  private final List<FieldVector> vectors = new ArrayList<>();
  private int rows;
  private long textBytes;
  private long written;
  private boolean closed;

  public CanonicalArrowWriter(Path file) throws IOException {
    this(file, BATCH_ROWS);
  }

  /** @param batchRows rows per record batch (tests use small batches to cover batch boundaries) */
  public CanonicalArrowWriter(Path file, int batchRows) throws IOException {
    if (batchRows < 1) {
      throw new IllegalArgumentException("batchRows must be positive, was " + batchRows);
    }
    this.batchRows = batchRows;
    this.channel = openOwnerOnly(file);
    this.allocator = new RootAllocator();
    try {
      this.root = VectorSchemaRoot.create(schema(), allocator);
      root.allocateNew();
      for (CanonicalField field : CanonicalField.values()) {
        vectors.add(root.getVector(field.column()));
      }
      this.writer = new ArrowFileWriter(root, null, channel);
      writer.start();
    } catch (IOException | RuntimeException e) {
      allocator.close();
      channel.close();
      throw e;
    }
  }

  /** The canonical schema: every {@link CanonicalField} in declaration order, all nullable. */
  public static Schema schema() {
    List<Field> fields = new ArrayList<>();
    for (CanonicalField field : CanonicalField.values()) {
      fields.add(new Field(field.column(), FieldType.nullable(arrowType(field.type())), null));
    }
    return new Schema(fields);
  }

  static ArrowType arrowType(CanonicalField.Type type) {
    return switch (type) {
      case STRING, TEXT -> ArrowType.Utf8.INSTANCE;
      case LONG -> new ArrowType.Int(64, true);
      case INT -> new ArrowType.Int(32, true);
      case TIME -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC");
    };
  }

  public void write(RequestRecord record) throws IOException {
    if (closed) {
      throw new IllegalStateException("writer is closed");
    }
    CanonicalField[] fields = CanonicalField.values();
    for (int i = 0; i < fields.length; i++) {
      set(vectors.get(i), fields[i].get(record));
    }
    rows++;
    written++;
    if (rows >= batchRows || textBytes >= BATCH_TEXT_BYTES) {
      flush();
    }
  }

  private void set(FieldVector vector, Object value) {
    if (value == null) {
      vector.setNull(rows);
      return;
    }
    switch (vector) {
      case VarCharVector strings -> {
        byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
        strings.setSafe(rows, utf8);
        textBytes += utf8.length;
      }
      case BigIntVector longs -> longs.setSafe(rows, (Long) value);
      case IntVector ints -> ints.setSafe(rows, (Integer) value);
      case TimeStampMilliTZVector times -> times.setSafe(rows, (Long) value);
      default -> throw new IllegalStateException("no writer for " + vector.getClass().getSimpleName());
    }
  }

  /** Records written so far (flushed or buffered). */
  public long rowsWritten() {
    return written;
  }

  private void flush() throws IOException {
    if (rows == 0) {
      return;
    }
    root.setRowCount(rows);
    writer.writeBatch();
    for (FieldVector vector : vectors) {
      vector.reset();
    }
    rows = 0;
    textBytes = 0;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flush();
      writer.end();
    } finally {
      try {
        writer.close();
      } finally {
        root.close();
        allocator.close();
        channel.close();
      }
    }
  }

  private static FileChannel openOwnerOnly(Path file) throws IOException {
    Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
    if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return FileChannel.open(file, options);
    }
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
    FileChannel channel = FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(ownerOnly));
    Files.setPosixFilePermissions(file, ownerOnly); // an existing file keeps its old mode otherwise
    return channel;
  }
}
