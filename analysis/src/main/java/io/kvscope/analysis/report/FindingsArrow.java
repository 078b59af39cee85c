package io.kvscope.analysis.report;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.Report;
import io.kvscope.ingest.KvscopeOutputs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * findings.arrow: the findings as an Arrow IPC file for pandas, polars and DuckDB, in long form:
 * <b>one row per (finding, source)</b>, and one row with null {@code source_*} columns for a
 * finding without sources (over-length, underrun, timing and config findings). Long form needs no
 * list columns, so every tool can group, filter and join it directly:
 *
 * <pre>
 * df = pyarrow.ipc.open_file("findings.arrow").read_pandas()
 * df.drop_duplicates("id")                    # one row per finding
 * df.groupby(["source_tenant", "tenant"]).source_matched_tokens.sum()   # who leaked to whom
 * SELECT kind, count(DISTINCT id) FROM 'findings.arrow' GROUP BY kind;   -- DuckDB (arrow extension)
 * </pre>
 *
 * Finding columns repeat on every row of the finding; {@code source_index} is 0..{@code
 * source_count}-1 (null when there are none); {@code finding_matched_tokens} is the finding's
 * total, {@code source_matched_tokens} this source's part, {@code source_attribution} {@code sole} or
 * {@code candidate} (one of several requests that held the passage); {@code time} is a UTC millisecond
 * timestamp; {@code evidence} is compact JSON. Spans stay in report.json. Rows are written in
 * batches, so memory stays bounded however many findings there are.
 */
public final class FindingsArrow {

  public static final String FILE_NAME = Format.ARROW.fileName();

  static final int BATCH_ROWS = 4096;

  /** The columns, in order. */
  public static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", ArrowType.Utf8.INSTANCE),
      Field.notNullable("kind", ArrowType.Utf8.INSTANCE),
      Field.notNullable("confidence", ArrowType.Utf8.INSTANCE),
      Field.notNullable("counted", ArrowType.Bool.INSTANCE),
      Field.nullable("request_id", ArrowType.Utf8.INSTANCE),
      Field.nullable("engine_rid", ArrowType.Utf8.INSTANCE),
      Field.nullable("tenant", ArrowType.Utf8.INSTANCE),
      Field.nullable("time", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
      Field.nullable("node", ArrowType.Utf8.INSTANCE),
      Field.nullable("decode_node", ArrowType.Utf8.INSTANCE),
      Field.notNullable("finding_matched_tokens", new ArrowType.Int(64, true)),
      Field.notNullable("source_count", new ArrowType.Int(32, true)),
      Field.nullable("source_index", new ArrowType.Int(32, true)),
      Field.nullable("source_request_id", ArrowType.Utf8.INSTANCE),
      Field.nullable("source_engine_rid", ArrowType.Utf8.INSTANCE),
      Field.nullable("source_tenant", ArrowType.Utf8.INSTANCE),
      Field.nullable("source_matched_tokens", new ArrowType.Int(64, true)),
      Field.nullable("source_attribution", ArrowType.Utf8.INSTANCE),
      Field.nullable("source_spans", new ArrowType.Int(32, true)),
      Field.notNullable("evidence", ArrowType.Utf8.INSTANCE)),
      // The mark that keeps an ingest from reading this file back as evidence.
      java.util.Map.of(KvscopeOutputs.ARROW_MARK, "findings"));

  private FindingsArrow() {}

  public static Path write(Report report, Path target) throws IOException {
    return AtomicFile.write(target, out -> write(report, out));
  }

  static void write(Report report, OutputStream out) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
         VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
         ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
      Rows rows = new Rows(root);
      writer.start();
      root.allocateNew();
      int row = 0;
      for (Finding f : report.findings()) {
        List<Source> sources = f.sources();
        for (int i = 0; i < Math.max(1, sources.size()); i++) {
          rows.set(row++, f, sources.isEmpty() ? null : sources.get(i), i);
          if (row == BATCH_ROWS) {
            root.setRowCount(row);
            writer.writeBatch();
            root.allocateNew();
            row = 0;
          }
        }
      }
      if (row > 0) {
        root.setRowCount(row);
        writer.writeBatch();
      }
      writer.end();
    }
  }

  /** The typed vectors of one batch. */
  private static final class Rows {
    private final VarCharVector id;
    private final VarCharVector kind;
    private final VarCharVector confidence;
    private final BitVector counted;
    private final VarCharVector requestId;
    private final VarCharVector engineRid;
    private final VarCharVector tenant;
    private final TimeStampMilliTZVector time;
    private final VarCharVector node;
    private final VarCharVector decodeNode;
    private final BigIntVector findingTokens;
    private final IntVector sourceCount;
    private final IntVector sourceIndex;
    private final VarCharVector sourceRequestId;
    private final VarCharVector sourceEngineRid;
    private final VarCharVector sourceTenant;
    private final BigIntVector sourceTokens;
    private final VarCharVector sourceAttribution;
    private final IntVector sourceSpans;
    private final VarCharVector evidence;

    Rows(VectorSchemaRoot root) {
      id = (VarCharVector) root.getVector("id");
      kind = (VarCharVector) root.getVector("kind");
      confidence = (VarCharVector) root.getVector("confidence");
      counted = (BitVector) root.getVector("counted");
      requestId = (VarCharVector) root.getVector("request_id");
      engineRid = (VarCharVector) root.getVector("engine_rid");
      tenant = (VarCharVector) root.getVector("tenant");
      time = (TimeStampMilliTZVector) root.getVector("time");
      node = (VarCharVector) root.getVector("node");
      decodeNode = (VarCharVector) root.getVector("decode_node");
      findingTokens = (BigIntVector) root.getVector("finding_matched_tokens");
      sourceCount = (IntVector) root.getVector("source_count");
      sourceIndex = (IntVector) root.getVector("source_index");
      sourceRequestId = (VarCharVector) root.getVector("source_request_id");
      sourceEngineRid = (VarCharVector) root.getVector("source_engine_rid");
      sourceTenant = (VarCharVector) root.getVector("source_tenant");
      sourceTokens = (BigIntVector) root.getVector("source_matched_tokens");
      sourceAttribution = (VarCharVector) root.getVector("source_attribution");
      sourceSpans = (IntVector) root.getVector("source_spans");
      evidence = (VarCharVector) root.getVector("evidence");
    }

    void set(int row, Finding f, Source source, int index) {
      text(id, row, f.id());
      text(kind, row, f.kind().id());
      text(confidence, row, f.confidence().id());
      counted.setSafe(row, f.isCountedLeak() ? 1 : 0);
      text(requestId, row, f.requestId());
      text(engineRid, row, f.engineRid());
      text(tenant, row, f.tenant());
      if (f.time() == null) {
        time.setNull(row);
      } else {
        time.setSafe(row, f.time().toEpochMilli());
      }
      text(node, row, f.node());
      text(decodeNode, row, f.decodeNode());
      findingTokens.setSafe(row, f.matchedTokens());
      sourceCount.setSafe(row, f.sources().size());
      if (source == null) {
        sourceIndex.setNull(row);
        sourceRequestId.setNull(row);
        sourceEngineRid.setNull(row);
        sourceTenant.setNull(row);
        sourceTokens.setNull(row);
        sourceAttribution.setNull(row);
        sourceSpans.setNull(row);
      } else {
        sourceIndex.setSafe(row, index);
        text(sourceRequestId, row, source.requestId());
        text(sourceEngineRid, row, source.engineRid());
        text(sourceTenant, row, source.tenant());
        sourceTokens.setSafe(row, source.matchedTokens());
        text(sourceAttribution, row, source.attribution().id());
        sourceSpans.setSafe(row, source.spans().size());
      }
      text(evidence, row, JsonValues.compact(f.evidence()));
    }

    private static void text(VarCharVector vector, int row, String value) {
      if (value == null) {
        vector.setNull(row);
      } else {
        vector.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
