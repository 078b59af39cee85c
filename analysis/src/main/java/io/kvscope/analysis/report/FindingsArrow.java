package io.kvscope.analysis.report;

import io.kvscope.model.finding.Span;
import io.kvscope.analysis.impact.Report;
import io.kvscope.ingest.KvscopeOutputs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * findings.arrow: the findings table ({@link FindingColumn}, documented in docs/findings-table.md)
 * as an Arrow IPC file for pandas ({@code read_feather}), polars ({@code read_ipc}) and pyarrow.
 * Every integer column is an Arrow integer with a validity bit where it may be null, so readers
 * that keep nullable integers (pandas with {@code dtype_backend="pyarrow"}, polars) never see
 * floats; {@code spans} is a list of structs. DuckDB reads the same rows from findings.ndjson
 * without any extension ({@link FindingsNdjson}). Rows are written in batches, so memory stays
 * bounded however many findings there are.
 */
public final class FindingsArrow {

  public static final String FILE_NAME = Format.ARROW.fileName();

  static final int BATCH_ROWS = 4096;

  /** The columns, in order. */
  public static final Schema SCHEMA = new Schema(FindingColumn.arrowFields(),
      // The mark that keeps an ingest from reading this file back as evidence.
      java.util.Map.of(KvscopeOutputs.ARROW_MARK, "findings"));

  private FindingsArrow() {}

  public static Path write(Report report, Path target) throws IOException {
    return write(report, target, new RenderedEvidence());
  }

  /** As {@link #write(Report, Path)}, with the evidence cells other files of the run rendered too. */
  static Path write(Report report, Path target, RenderedEvidence evidence) throws IOException {
    return AtomicFile.write(target, out -> write(report, out, evidence));
  }

  private static void write(Report report, OutputStream out, RenderedEvidence evidence) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
         VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
         ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
      List<Cells> columns = new ArrayList<>();
      for (FindingColumn column : FindingColumn.values()) {
        columns.add(cells(column, root.getVector(column.columnName)));
      }
      writer.start();
      root.allocateNew();
      int[] row = {0};
      FindingRow.forEach(report, evidence, r -> {
        for (int c = 0; c < columns.size(); c++) {
          columns.get(c).set(row[0], FindingColumn.values()[c].valueOf(r));
        }
        if (++row[0] == BATCH_ROWS) {
          root.setRowCount(row[0]);
          writer.writeBatch();
          root.allocateNew();
          row[0] = 0;
        }
      });
      if (row[0] > 0) {
        root.setRowCount(row[0]);
        writer.writeBatch();
      }
      writer.end();
    }
  }

  /** Sets one column's value in a row of the current batch; null clears the validity bit. */
  @FunctionalInterface
  private interface Cells {
    void set(int row, Object value);
  }

  private static Cells cells(FindingColumn column, FieldVector vector) {
    return switch (column.type) {
      case SPANS -> spans((ListVector) vector);
      default -> scalar(column.type, vector);
    };
  }

  private static Cells scalar(FindingColumn.Type type, FieldVector vector) {
    return switch (type) {
      case TEXT -> (row, v) -> {
        if (v == null) {
          ((VarCharVector) vector).setNull(row);
        } else {
          ((VarCharVector) vector).setSafe(row, ((String) v).getBytes(StandardCharsets.UTF_8));
        }
      };
      case BOOL -> (row, v) -> {
        if (v == null) {
          ((BitVector) vector).setNull(row);
        } else {
          ((BitVector) vector).setSafe(row, (Boolean) v ? 1 : 0);
        }
      };
      case INT32 -> (row, v) -> {
        if (v == null) {
          ((IntVector) vector).setNull(row);
        } else {
          ((IntVector) vector).setSafe(row, ((Number) v).intValue());
        }
      };
      case INT64 -> (row, v) -> {
        if (v == null) {
          ((BigIntVector) vector).setNull(row);
        } else {
          ((BigIntVector) vector).setSafe(row, ((Number) v).longValue());
        }
      };
      case TIME -> (row, v) -> {
        if (v == null) {
          ((TimeStampMilliTZVector) vector).setNull(row);
        } else {
          ((TimeStampMilliTZVector) vector).setSafe(row, ((Instant) v).toEpochMilli());
        }
      };
      case SPANS -> throw new IllegalArgumentException("spans are not a scalar column");
    };
  }

  /** A list of span structs; each struct field is a plain child vector of the struct. */
  private static Cells spans(ListVector list) {
    StructVector struct = (StructVector) list.getDataVector();
    FindingColumn.SpanField[] fields = FindingColumn.SpanField.values();
    Cells[] children = new Cells[fields.length];
    for (int i = 0; i < fields.length; i++) {
      children[i] = scalar(fields[i].type, (FieldVector) struct.getChild(fields[i].columnName));
    }
    return (row, v) -> {
      if (v == null) {
        list.setNull(row);
        return;
      }
      @SuppressWarnings("unchecked")
      List<Span> spans = (List<Span>) v;
      int first = list.startNewValue(row);
      for (int s = 0; s < spans.size(); s++) {
        struct.setIndexDefined(first + s);
        for (int i = 0; i < fields.length; i++) {
          children[i].set(first + s, fields[i].value.apply(spans.get(s)));
        }
      }
      list.endValue(row, spans.size());
    };
  }
}
