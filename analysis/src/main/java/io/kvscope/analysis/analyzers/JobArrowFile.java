package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.report.AtomicFile;
import io.kvscope.ingest.Printable;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What the Spark job's files for the analysis ({@link PairsFile}, {@link RunsFile}) have in
 * common: Arrow IPC of int columns, what they belong to in the schema's metadata, written a batch
 * at a time, owner-only, and in place only once whole; opened with their format and columns
 * checked, so that a missing, foreign or damaged file is refused in words.
 */
final class JobArrowFile {

  private static final int BATCH_ROWS = 1 << 16;

  private JobArrowFile() {}

  /** Sets the values of {@code item} in row {@code row} of {@code columns}. */
  interface RowWriter<T> {
    void set(List<IntVector> columns, int row, T item);
  }

  /** Writes {@code items} to {@code file} under {@code schema}, a row each; returns how many. */
  static <T> long write(Path file, Schema schema, Iterator<T> items, RowWriter<T> rows) throws IOException {
    long[] written = {0};
    AtomicFile.write(file, out -> {
      try (BufferAllocator allocator = new RootAllocator();
           VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
           ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
        writer.start();
        List<IntVector> columns = columns(root, schema.getFields().stream().map(Field::getName).toList());
        int row = 0;
        root.allocateNew();
        while (items.hasNext()) {
          rows.set(columns, row, items.next());
          written[0]++;
          if (++row == BATCH_ROWS) {
            root.setRowCount(row);
            writer.writeBatch();
            root.allocateNew();
            row = 0;
          }
        }
        root.setRowCount(row);
        writer.writeBatch();
        writer.end();
      }
    });
    return written[0];
  }

  /** The int vectors of {@code root} named {@code names}, in that order. */
  static List<IntVector> columns(VectorSchemaRoot root, List<String> names) {
    return names.stream().map(name -> (IntVector) root.getVector(name)).toList();
  }

  /**
   * What an open file is: its name for messages, the format and columns it must have, what a
   * missing one means, and how its header is read from the schema's metadata.
   */
  record Kind<H>(String what, String formatKey, String format, List<String> columns, String missing,
      Function<Map<String, String>, H> header) {}

  /** An open file: its reader and its header, its format and columns checked. */
  static final class Opened<H> implements AutoCloseable {
    final ArrowFileReader reader;
    final H header;

    /** Opens {@code file} as a {@code kind}; refuses a missing, foreign or unreadable file in words. */
    Opened(Path file, Kind<H> kind, BufferAllocator allocator) throws IOException {
      String name = Printable.text(file);
      FileChannel channel;
      try {
        channel = FileChannel.open(file, StandardOpenOption.READ);
      } catch (NoSuchFileException missing) {
        throw new IllegalStateException("no " + kind.what() + " file at " + name + "; " + kind.missing());
      }
      reader = new ArrowFileReader(channel, allocator);
      try {
        Schema schema = reader.getVectorSchemaRoot().getSchema();
        Map<String, String> metadata = schema.getCustomMetadata() == null ? Map.of() : schema.getCustomMetadata();
        List<String> names = schema.getFields().stream().map(Field::getName).toList();
        if (!kind.format().equals(metadata.get(kind.formatKey())) || !names.equals(kind.columns())) {
          throw new IllegalStateException(name + " is no " + kind.what() + " file of this kvscope (format "
              + Printable.text(String.valueOf(metadata.get(kind.formatKey()))) + ", columns "
              + Printable.text(names.toString()) + "); run kvscope scope again.");
        }
        header = kind.header().apply(metadata);
      } catch (IOException | RuntimeException e) {
        reader.close();
        if (e instanceof IllegalStateException refused) {
          throw refused;
        }
        throw new IOException(name + " cannot be read as a " + kind.what() + " file: " + Printable.text(
            String.valueOf(e.getMessage())), e);
      }
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }
}
