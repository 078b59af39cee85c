package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.udf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Serializable;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/**
 * Where the requests' shards are cut in request order: each shard gets an equal share of the
 * work its task does, not of the requests' count. A shard is one task, and its CPU grows with the
 * text it fingerprints and indexes and with the requests it writes (each a document, its engine
 * facts, its fingerprint rows): so a request weighs its prompt's and response's UTF-8 bytes
 * ({@link MergeStage#TEXT_BYTES}) plus {@link #REQUEST_BYTES}. Shards of equal counts ended
 * seconds apart with a core idle. The driver sees the weights summed over buckets of consecutive
 * ordinals (at most {@link #MAX_BUCKETS}), never one row per request.
 */
final class ShardBounds implements Serializable {

  private static final long serialVersionUID = 1L;
  /** Buckets the driver collects: an exact cut up to this many requests, within a bucket beyond. */
  static final int MAX_BUCKETS = 1 << 16;
  /**
   * What a request costs its shard task beyond its text, in bytes of text that cost as much: at 4x
   * a shard task took about 1.3 ms per request and 0.03 s per million characters (bytes, nearly
   * all), so about 40,000 (bench/README.md, "Spark: the request shards' tail and the merge's skew").
   */
  static final long REQUEST_BYTES = 40_000;

  /** The file the bounds are recorded in, beside the requests' shards: the count of shards, then the starts. */
  static final String FILE = "requests.bounds";
  /** The first ordinal of shards 1 to n-1, ascending (shard 0 starts at 0); equal ones leave a shard empty. */
  private final int[] starts;

  private ShardBounds(int[] starts) {
    this.starts = starts;
  }

  /**
   * Cuts {@code shards} shards from the weights of consecutive buckets of {@code width} ordinals
   * (bucket {@code b} holds ordinals {@code b*width} up to {@code (b+1)*width - 1}): each cut at
   * the bucket boundary whose weight before it is nearest the cut's share of the total.
   */
  static ShardBounds cut(long[] bucketWeights, int width, int shards) {
    if (shards < 1 || width < 1) {
      throw new IllegalArgumentException("shards and bucket width must be positive");
    }
    long total = Arrays.stream(bucketWeights).sum();
    int[] starts = new int[shards - 1];
    int bucket = 0;
    long before = 0; // weight of the buckets before `bucket`
    for (int shard = 1; shard < shards; shard++) {
      double target = (double) total * shard / shards;
      while (bucket < bucketWeights.length
          && Math.abs(before + bucketWeights[bucket] - target) <= Math.abs(before - target)) {
        before += bucketWeights[bucket];
        bucket++;
      }
      starts[shard - 1] = Math.toIntExact((long) bucket * width);
    }
    return new ShardBounds(starts);
  }

  /** The cut of {@code request_order/} (its ordinals and texts' sizes) into {@code shards} shards. */
  static ShardBounds of(SparkSession spark, String out, int shards) {
    Dataset<Row> order = spark.read().schema(FingerprintStage.ORDER_SCHEMA)
        .parquet(out + "/" + FingerprintStage.ORDER_FOLDER);
    long requests = order.count();
    int width = (int) Math.max(1, Math.ceilDiv(requests, MAX_BUCKETS));
    List<Row> buckets = order.groupBy(floor(col("ordinal").divide(lit(width))).cast(DataTypes.IntegerType).as("bucket"))
        .agg(sum(col(MergeStage.TEXT_BYTES).plus(lit(REQUEST_BYTES))).as("weight")).collectAsList();
    long[] weights = new long[Math.toIntExact(Math.ceilDiv(requests, width))];
    for (Row bucket : buckets) {
      weights[bucket.getInt(0)] = bucket.getLong(1);
    }
    return cut(weights, width, shards);
  }

  /** How many shards these bounds cut. */
  int shards() {
    return starts.length + 1;
  }

  /**
   * Records these bounds beside the shards ({@code out/shards/}{@value #FILE}), for a later stage
   * to find the shard that holds a request ({@link #recorded}).
   */
  void record(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(out + "/" + ShardStage.FOLDER + "/" + FILE);
    FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
    try (Writer writer = new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8)) {
      writer.write(shards() + Arrays.stream(starts).mapToObj(start -> " " + start).collect(Collectors.joining()) + "\n");
    }
  }

  /** The bounds the requests' shards of {@code out} were written with ({@link #record}). */
  static ShardBounds recorded(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(out + "/" + ShardStage.FOLDER + "/" + FILE);
    FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
    String line;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      line = reader.readLine();
    }
    int[] numbers = Arrays.stream(line.strip().split(" ")).mapToInt(Integer::parseInt).toArray();
    if (numbers.length != numbers[0]) {
      throw new IOException(file + " does not hold the bounds of " + numbers[0] + " shards");
    }
    return new ShardBounds(Arrays.copyOfRange(numbers, 1, numbers.length));
  }

  /** The shard of a request's ordinal, from 0. */
  int shardOf(int ordinal) {
    int at = Arrays.binarySearch(starts, ordinal);
    if (at < 0) {
      return -at - 1;
    }
    while (at + 1 < starts.length && starts[at + 1] == ordinal) {
      at++; // the last of equal starts: the shards before it are empty
    }
    return at + 1;
  }

  /** {@link #shardOf} as a column of {@code ordinal}'s, for {@code Dataset.repartitionById}. */
  Column shardOf(Column ordinal) {
    return udf((UDF1<Integer, Integer>) this::shardOf, DataTypes.IntegerType).apply(ordinal);
  }

  @Override
  public String toString() {
    return "shards starting at ordinals 0 " + Arrays.toString(starts);
  }
}
