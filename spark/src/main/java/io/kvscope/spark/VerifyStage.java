package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;

import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.TaskCompletionListener;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Stage 10, span verification → {@code runs/}: every pair of {@code pairs/} verified where its
 * texts lie, the requests' shards of stage 9. The pairs go first to their recipient's shard, which
 * reads the recipient's response and own prompt and finds the runs the two share (down to
 * {@link PassageRules#MIN_WORDS}); then each response travels to its sources' shards (a response is
 * kilobytes, a prompt can be megabytes: the prompts never move), where each source text is read
 * and tokenized once and the response verified against it at the general join's minimum, 2T
 * ({@link RunsFile#minWords}). Every recipient of the general join has that minimum (the focused
 * pass takes the others), so the mechanisms are not needed here; the driver's pair filter still
 * decides which pairs count. A copy of a prompt only a trace gives ({@code PassageGatherer.mayHold})
 * is a document of its own, which the shards hold only where the index has text copies, and then
 * the analysis verifies on the index: that refusal stays with the driver.
 */
final class VerifyStage {

  static final String FOLDER = "runs";
  /**
   * A part of a run, in request ordinals: {@code side} is a {@link RunsFile.Side}'s ordinal,
   * {@code part} its place among the pair's parts on that side, in the verifier's order; the
   * source's range is null for the own prompt.
   */
  static final StructType SCHEMA = withRange(withRange(new StructType()
      .add("recipient", DataTypes.IntegerType, false)
      .add("source", DataTypes.IntegerType, false)
      .add("side", DataTypes.ByteType, false)
      .add("part", DataTypes.IntegerType, false), "recipient", false), "source", true);

  /** A range of a recipient's response its own prompt holds. */
  private static final StructType RANGE = withRange(new StructType(), "recipient", false);
  /** A pair on its way from the recipient's shard to the source's, with the response it verifies. */
  private static final StructType TRAVELLING = new StructType()
      .add("recipient", DataTypes.IntegerType, false)
      .add("source", DataTypes.IntegerType, false)
      .add("source_key", DataTypes.StringType, false)
      .add("in_prompt", DataTypes.BooleanType, false)
      .add("in_response", DataTypes.BooleanType, false)
      .add("response", DataTypes.StringType, false)
      .add("own_prompt", DataTypes.createArrayType(RANGE, false), true);

  private VerifyStage() {}

  private static StructType withRange(StructType schema, String prefix, boolean nullable) {
    return schema.add(prefix + "_token_start", DataTypes.IntegerType, nullable)
        .add(prefix + "_token_end", DataTypes.IntegerType, nullable)
        .add(prefix + "_char_start", DataTypes.IntegerType, nullable)
        .add(prefix + "_char_end", DataTypes.IntegerType, nullable);
  }

  /**
   * Verifies {@code out}'s {@code pairs/} under {@code --min-span} {@code minSpan} on its requests'
   * shards and writes {@code runs/}; returns the parts written.
   */
  static long run(SparkSession spark, String out, int minSpan) throws IOException {
    ShardBounds bounds = ShardBounds.recorded(spark, out);
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    Dataset<Row> keys = spark.read().schema(FingerprintStage.ORDER_SCHEMA)
        .parquet(out + "/" + FingerprintStage.ORDER_FOLDER).select(col("ordinal"), col(MergeStage.KEY));
    Dataset<Row> pairs = spark.read().schema(PairStage.SCHEMA).parquet(out + "/" + PairStage.FOLDER)
        .join(keys.select(col("ordinal").as("recipient"), col(MergeStage.KEY).as("recipient_key")), "recipient")
        .join(keys.select(col("ordinal").as("source"), col(MergeStage.KEY).as("source_key")), "source");
    Dataset<Row> travelling = pairs.repartitionById(bounds.shards(), bounds.shardOf(col("recipient")))
        .sortWithinPartitions(col("recipient"), col("source"))
        .mapPartitions((MapPartitionsFunction<Row, Row>) rows -> new Recipients(out, bounds, hadoop, minSpan).rows(rows),
            Encoders.row(TRAVELLING));
    Dataset<Row> runs = travelling.repartitionById(bounds.shards(), bounds.shardOf(col("source")))
        .sortWithinPartitions(col("source"), col("recipient"))
        .mapPartitions((MapPartitionsFunction<Row, Row>) rows -> new Sources(out, bounds, hadoop, minSpan).rows(rows),
            Encoders.row(SCHEMA));
    Stages.write(runs, out, FOLDER);
    return spark.read().parquet(out + "/" + FOLDER).count();
  }

  /** The verifier under the index's fingerprint scheme at {@code minSpan}, as the analysis makes it. */
  static SpanVerifier verifier(int minSpan) {
    return new SpanVerifier(Documents.FINGERPRINTS.withThreshold(minSpan));
  }

  /**
   * A task's rows, each turned into the rows it gives, with the requests' shards opened as the
   * (sorted) ordinals reach them: one shard open at a time, closed when the task ends.
   */
  private abstract static class OnShards {
    private final String out;
    private final ShardBounds bounds;
    private final HadoopFiles.Settings hadoop;
    private ShardTexts open;
    private int openShard = -1;

    OnShards(String out, ShardBounds bounds, HadoopFiles.Settings hadoop) {
      this.out = out;
      this.bounds = bounds;
      this.hadoop = hadoop;
    }

    /** The shard holding request {@code ordinal}. */
    ShardTexts shardOf(int ordinal) throws IOException {
      int shard = bounds.shardOf(ordinal);
      if (shard != openShard) {
        close();
        open = ShardTexts.open(out, shard, hadoop);
        openShard = shard;
      }
      return open;
    }

    void close() throws IOException {
      if (open != null) {
        open.close();
        open = null;
        openShard = -1;
      }
    }

    abstract List<Row> of(Row row) throws IOException;

    Iterator<Row> rows(Iterator<Row> rows) {
      TaskContext.get().addTaskCompletionListener((TaskCompletionListener) context -> {
        try {
          close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      return new Iterator<>() {
        private Iterator<Row> current = Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          try {
            while (!current.hasNext() && rows.hasNext()) {
              current = of(rows.next()).iterator();
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return current.hasNext();
        }

        @Override
        public Row next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return current.next();
        }
      };
    }
  }

  /**
   * In a recipient's shard: its response read once and verified against its own prompt, then sent
   * on with each of its pairs (the own prompt's ranges with the first).
   */
  private static final class Recipients extends OnShards {
    private final SpanVerifier verifier;
    private int recipient = -1;
    private String response;
    private List<Row> ownPrompt;

    Recipients(String out, ShardBounds bounds, HadoopFiles.Settings hadoop, int minSpan) {
      super(out, bounds, hadoop);
      this.verifier = verifier(minSpan);
    }

    @Override
    List<Row> of(Row pair) throws IOException {
      int ordinal = pair.getAs("recipient");
      boolean first = ordinal != recipient;
      if (first) {
        recipient = ordinal;
        ShardTexts shard = shardOf(ordinal);
        String key = pair.getAs("recipient_key");
        response = shard.text(key, Schema.RESPONSE_TEXT);
        String prompt = response == null ? null : shard.text(key, Schema.PROMPT_TEXT);
        ownPrompt = new ArrayList<>();
        if (prompt != null) {
          for (TextRange r : PassageRules.ownPromptRanges(verifier, WordTokenizer.tokenize(response),
              WordTokenizer.tokenize(prompt))) {
            ownPrompt.add(RowFactory.create(r.tokenStart(), r.tokenEnd(), r.charStart(), r.charEnd()));
          }
        }
      }
      if (response == null) {
        return List.of(); // nothing to verify: no runs
      }
      return List.of(RowFactory.create(ordinal, pair.getAs("source"), pair.getAs("source_key"),
          pair.<Long>getAs("shared_prompt") > 0, pair.<Long>getAs("shared_response") > 0, response,
          first ? CollectionConverters.asScala(ownPrompt).toSeq() : null));
    }
  }

  /** In a source's shard: its prompt and response read and tokenized once, each travelling response verified against them. */
  private static final class Sources extends OnShards {
    private final SpanVerifier verifier;
    private final int minWords;
    private int source = -1;
    private TokenizedText[] texts; // prompt, response; read when first asked for
    private boolean[] read;

    Sources(String out, ShardBounds bounds, HadoopFiles.Settings hadoop, int minSpan) {
      super(out, bounds, hadoop);
      this.verifier = verifier(minSpan);
      this.minWords = RunsFile.minWords(minSpan);
    }

    @Override
    List<Row> of(Row pair) throws IOException {
      int ordinal = pair.getAs("source");
      if (ordinal != source) {
        source = ordinal;
        texts = new TokenizedText[2];
        read = new boolean[2];
      }
      int recipient = pair.getAs("recipient");
      List<Row> runs = new ArrayList<>();
      List<Row> own = pair.getList(pair.fieldIndex("own_prompt"));
      if (own != null) {
        for (int part = 0; part < own.size(); part++) {
          Row r = own.get(part);
          runs.add(RowFactory.create(recipient, recipient, (byte) RunsFile.Side.OWN_PROMPT.ordinal(), part, r.get(0),
              r.get(1), r.get(2), r.get(3), null, null, null, null));
        }
      }
      TokenizedText response = WordTokenizer.tokenize(pair.getAs("response"));
      if (pair.<Boolean>getAs("in_response")) {
        verify(pair, response, RunsFile.Side.SOURCE_RESPONSE, runs);
      }
      if (pair.<Boolean>getAs("in_prompt")) {
        verify(pair, response, RunsFile.Side.SOURCE_PROMPT, runs);
      }
      return runs;
    }

    private void verify(Row pair, TokenizedText response, RunsFile.Side side, List<Row> runs) throws IOException {
      boolean reply = side == RunsFile.Side.SOURCE_RESPONSE;
      int at = reply ? 1 : 0;
      if (!read[at]) {
        String text = shardOf(source).text(pair.getAs("source_key"), reply ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT);
        texts[at] = text == null ? null : WordTokenizer.tokenize(text);
        read[at] = true;
      }
      if (texts[at] == null) {
        return;
      }
      int part = 0;
      for (SharedSpan span : verifier.verify(response, texts[at], minWords)) {
        for (SpanMatch match : span.parts()) {
          TextRange r = match.recipient();
          TextRange s = match.source();
          runs.add(RowFactory.create(pair.getAs("recipient"), source, (byte) side.ordinal(), part++, r.tokenStart(),
              r.tokenEnd(), r.charStart(), r.charEnd(), s.tokenStart(), s.tokenEnd(), s.charStart(), s.charEnd()));
        }
      }
    }
  }
}
