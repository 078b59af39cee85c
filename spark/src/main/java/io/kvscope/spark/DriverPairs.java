package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;

import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.JoinOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The driver's end of the self-join: {@code pairs/} written for the analysis of the index the
 * driver built, as {@link PairsFile} ({@code OUT/pairs.arrow}), so that {@code kvscope scope}'s
 * analysis takes the cluster's candidate pairs instead of joining the index again. The pairs'
 * request ordinals become the index's document ids: each ordinal's merge key is looked up among
 * the index's request documents, the ordinals' documents go to the tasks, and the pairs are sorted
 * by (recipient, source) document there. The driver then streams them into the file a partition at
 * a time; what it holds is one int per request and one partition of pairs. The file also carries
 * stage 5's histogram of tenant frequencies, which the analysis learns its cut-off from.
 */
final class DriverPairs {

  private static final StructType DOC_PAIR = new StructType()
      .add("recipient_doc", DataTypes.IntegerType, false)
      .add("source_doc", DataTypes.IntegerType, false)
      .add("shared_prompt", DataTypes.IntegerType, false)
      .add("shared_response", DataTypes.IntegerType, false);

  private DriverPairs() {}

  /** Where the pairs of the job's output folder {@code out} go: beside its index. */
  static Path fileOf(String out) {
    return ShardIndex.folderOf(out).resolveSibling(PairsFile.FILE_NAME);
  }

  /**
   * An index's commit and each request ordinal's document in it: what the files written for the
   * analysis of that index name their pairs by.
   */
  record IndexDocs(String commit, int[] docOf) {

    /** Those of the index at {@code index}, for the {@code requests} ordinals of {@code out}'s {@code request_order/}. */
    static IndexDocs of(SparkSession spark, String out, Path index, long requests) throws IOException {
      try (FSDirectory directory = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(directory)) {
        return new IndexDocs(PairsFile.indexCommit(reader), documentsOfOrdinals(spark, out, reader, requests));
      }
    }
  }

  /**
   * Writes the pairs of {@code out}'s {@code pairs/} for the index of {@code docs}, with
   * {@code fingerprints}' histogram; returns how many.
   */
  static long write(SparkSession spark, String out, IndexDocs docs, JoinOptions options, long horizonMillis,
      PairStage.Result join, FingerprintStage.Result fingerprints) throws IOException {
    String commit = docs.commit();
    int[] docOf = docs.docOf();
    Broadcast<int[]> documents = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(docOf);
    try {
      Iterator<Row> sorted = spark.read().schema(PairStage.SCHEMA).parquet(out + "/" + PairStage.FOLDER)
          .map((MapFunction<Row, Row>) pair -> RowFactory.create(documents.value()[pair.<Integer>getAs("recipient")],
              documents.value()[pair.<Integer>getAs("source")], Math.toIntExact(pair.<Long>getAs("shared_prompt")),
              Math.toIntExact(pair.<Long>getAs("shared_response"))), Encoders.row(DOC_PAIR))
          .sort(col("recipient_doc"), col("source_doc"))
          .toLocalIterator();
      Iterator<Candidate> pairs = new Iterator<>() {
        @Override
        public boolean hasNext() {
          return sorted.hasNext();
        }

        @Override
        public Candidate next() {
          Row row = sorted.next();
          return new Candidate(row.getInt(0), row.getInt(1), row.getInt(2), row.getInt(3));
        }
      };
      PairsFile.Header header = new PairsFile.Header(spark.sparkContext().applicationId(), commit,
          PairsFile.joinSettings(options), horizonMillis, join.joined(), join.skippedBoilerplate(),
          fingerprints.histogram());
      return PairsFile.write(fileOf(out), header, pairs);
    } finally {
      documents.destroy();
    }
  }

  /**
   * Each request ordinal's document in the index: the live request document under its merge key.
   * The {@code requests} ordinals stream from {@code request_order/}; the keys are looked up segment
   * by segment.
   */
  private static int[] documentsOfOrdinals(SparkSession spark, String out, DirectoryReader reader, long requests)
      throws IOException {
    RequestDocs keys = new RequestDocs(reader);
    int[] docOf = new int[Math.toIntExact(requests)];
    Arrays.fill(docOf, -1);
    Iterator<Row> order = spark.read().parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .select("ordinal", MergeStage.KEY).toLocalIterator();
    while (order.hasNext()) {
      Row row = order.next();
      int ordinal = row.getInt(0);
      int doc = keys.docOf(row.getString(1), "request ordinal " + ordinal);
      if (docOf[ordinal] != -1) {
        throw new IllegalStateException("request ordinal " + ordinal + " has two request documents in the index ("
            + docOf[ordinal] + " and " + doc + ")");
      }
      docOf[ordinal] = doc;
      if (doc == -1) {
        throw new IllegalStateException("request ordinal " + ordinal + " of " + FingerprintStage.ORDER_FOLDER
            + "/ has no request document in the index");
      }
    }
    return docOf;
  }
}
