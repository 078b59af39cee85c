package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests' shards are cut by text, not by count: on a request order whose first requests are
 * long and the rest short (a chat incident's long pasted documents early, say), each shard gets
 * about half the text, where a cut by count gave the first shard nearly all of them.
 */
class ShardBoundsTest {

  /** 100 requests: the first 20 of 10,000 bytes of text, the other 80 of 100. */
  private static long[] skewed() {
    return IntStream.range(0, 100).mapToLong(i -> i < 20 ? 10_000 : 100).toArray();
  }

  @Test
  void aSkewedOrderIsCutWhereHalfTheTextLies() {
    long[] chars = skewed();
    ShardBounds bounds = ShardBounds.cut(chars, 1, 2);

    long[] perShard = new long[2];
    for (int ordinal = 0; ordinal < chars.length; ordinal++) {
      perShard[bounds.shardOf(ordinal)] += chars[ordinal];
    }
    // 208,000 bytes: the cut falls after the tenth long request (100,000 | 108,000), the
    // nearest a request boundary gets to 104,000; by count (50 | 50) it was 203,000 | 5,000.
    assertThat(perShard).containsExactly(100_000, 108_000);
    assertThat(bounds.shardOf(9)).isZero();
    assertThat(bounds.shardOf(10)).isOne();
  }

  @Test
  void bucketsCutAtTheirBoundaries() {
    // The same requests in buckets of 4 ordinals: the driver sees 25 sums, the cut is at a multiple of 4.
    long[] chars = skewed();
    long[] buckets = new long[25];
    for (int ordinal = 0; ordinal < chars.length; ordinal++) {
      buckets[ordinal / 4] += chars[ordinal];
    }
    ShardBounds bounds = ShardBounds.cut(buckets, 4, 2);

    assertThat(bounds.shardOf(11)).isZero();
    assertThat(bounds.shardOf(12)).isOne();
  }

  @Test
  void oneRequestHeavierThanAShareLeavesAShardEmptyAndTheOrderWhole() {
    // 103 in all, a third is 34: the long request is nearer the second cut (69) than the first.
    ShardBounds bounds = ShardBounds.cut(new long[] {100, 1, 1, 1}, 1, 3);

    assertThat(IntStream.range(0, 4).map(bounds::shardOf).toArray()).containsExactly(1, 2, 2, 2);
  }

  /**
   * The job's path: the order's rows as the order stage writes them (Parquet on disk), the cut the
   * driver makes from them (each request weighing its texts' bytes and {@link
   * ShardBounds#REQUEST_BYTES}), and the shuffle by that cut: each partition holds one range of
   * ordinals, in request order, with the bytes of text the cut promised.
   */
  @Test
  void theShuffleByTheCutPutsEachRangeInItsPartition(@TempDir Path dir) {
    SparkSession spark = SharedSpark.session();
    String out = dir.toString();
    // 20 requests of a million bytes of text, 80 of 100: 24,008,000 in all with the requests' own
    // weight; the cut after the twelfth (12,480,000) is the nearest to half. By count: after the 50th.
    long[] chars = IntStream.range(0, 100).mapToLong(i -> i < 20 ? 1_000_000 : 100).toArray();
    List<Row> order = new ArrayList<>();
    for (int ordinal = 0; ordinal < chars.length; ordinal++) {
      order.add(RowFactory.create(ordinal, "r" + ordinal, new Timestamp(1_000L * ordinal), 0, "k" + ordinal, chars[ordinal]));
    }
    // Written in the reverse order, in several files, as a sort's output need not be.
    Stages.write(spark.createDataFrame(order, FingerprintStage.ORDER_SCHEMA).repartition(3).orderBy(col("ordinal").desc()),
        out, FingerprintStage.ORDER_FOLDER);

    ShardBounds bounds = ShardBounds.of(spark, out, 2);
    List<String> partitions = spark.read().parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .repartitionById(2, bounds.shardOf(col("ordinal"))).sortWithinPartitions("ordinal")
        .mapPartitions((MapPartitionsFunction<Row, String>) rows -> {
          List<Integer> ordinals = new ArrayList<>();
          long text = 0;
          while (rows.hasNext()) {
            Row row = rows.next();
            ordinals.add(row.getInt(row.fieldIndex("ordinal")));
            text += row.getLong(row.fieldIndex(MergeStage.TEXT_BYTES));
          }
          boolean inOrder = IntStream.range(1, ordinals.size()).allMatch(i -> ordinals.get(i) == ordinals.get(i - 1) + 1);
          return List.of(TaskContext.getPartitionId() + ": " + ordinals.get(0) + "-" + ordinals.get(ordinals.size() - 1)
              + (inOrder ? " in order, " : " out of order, ") + text).iterator();
        }, Encoders.STRING()).collectAsList();

    assertThat(ShardBounds.REQUEST_BYTES).isEqualTo(40_000);
    assertThat(partitions).containsExactlyInAnyOrder("0: 0-11 in order, 12000000", "1: 12-99 in order, 8008000");
  }
}
