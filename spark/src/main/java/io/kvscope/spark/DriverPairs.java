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
   * Writes the pairs of {@code out}'s {@code pairs/} for {@code index}, with {@code fingerprints}'
   * histogram; returns how many.
   */
  static long write(SparkSession spark, String out, Path index, JoinOptions options, long horizonMillis,
      PairStage.Result join, FingerprintStage.Result fingerprints) throws IOException {
    String commit;
    int[] docOf;
    try (FSDirectory directory = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(directory)) {
      commit = PairsFile.indexCommit(reader);
      docOf = documentsOfOrdinals(spark, out, reader, fingerprints.requests());
    }
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
    List<LeafReaderContext> leaves = reader.leaves();
    FixedBitSet requestDocs = new FixedBitSet(Math.max(1, reader.maxDoc()));
    TermsEnum[] keys = new TermsEnum[leaves.size()];
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum typed = leaf.reader().postings(new org.apache.lucene.index.Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST));
      if (typed != null) {
        for (int doc = typed.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = typed.nextDoc()) {
          if (live == null || live.get(doc)) {
            requestDocs.set(leaf.docBase + doc);
          }
        }
      }
      Terms terms = leaf.reader().terms(Schema.REQUEST_KEY);
      keys[i] = terms == null ? null : terms.iterator();
    }
    int[] docOf = new int[Math.toIntExact(requests)];
    Arrays.fill(docOf, -1);
    Iterator<Row> order = spark.read().parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .select("ordinal", MergeStage.KEY).toLocalIterator();
    PostingsEnum postings = null;
    while (order.hasNext()) {
      Row row = order.next();
      int ordinal = row.getInt(0);
      BytesRef key = new BytesRef(row.getString(1));
      for (int i = 0; i < leaves.size(); i++) {
        if (keys[i] == null || !keys[i].seekExact(key)) {
          continue;
        }
        postings = keys[i].postings(postings, PostingsEnum.NONE);
        for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
          int global = leaves.get(i).docBase + doc;
          if (requestDocs.get(global)) {
            if (docOf[ordinal] != -1) {
              throw new IllegalStateException("request ordinal " + ordinal + " has two request documents in the index ("
                  + docOf[ordinal] + " and " + global + ")");
            }
            docOf[ordinal] = global;
          }
        }
      }
      if (docOf[ordinal] == -1) {
        throw new IllegalStateException("request ordinal " + ordinal + " of " + FingerprintStage.ORDER_FOLDER
            + "/ has no request document in the index");
      }
    }
    return docOf;
  }
}
