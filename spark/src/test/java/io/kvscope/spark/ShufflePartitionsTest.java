package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** The shuffles sized to the input: every core busy, and one more partition per 128 MiB beyond. */
class ShufflePartitionsTest {

  private static final long MIB = 1L << 20;

  @Test
  void smallInputsTakeOnePartitionPerCoreAndLargeOnesGrowWithTheirBytes() {
    assertThat(ShufflePartitions.of(0, 2)).isEqualTo(2);
    assertThat(ShufflePartitions.of(56 * MIB, 2)).isEqualTo(2);
    assertThat(ShufflePartitions.of(267 * MIB, 2)).isEqualTo(3);
    assertThat(ShufflePartitions.of(4L * 1024 * MIB, 2)).isEqualTo(32);
    // A terabyte on 8 machines of 32 cores: the input's count, not the cores'.
    assertThat(ShufflePartitions.of(1L << 40, 256)).isEqualTo(8192);
    assertThat(ShufflePartitions.of(1L << 30, 256)).isEqualTo(256);
  }

  @Test
  void theJobSetsTheCountForItsRunOnlyAndKeepsTheUsersOwn() {
    SparkSession spark = SharedSpark.session();
    List<PlannedFile> planned = List.of(PlannedFile.listed("file:/a", "a", 300 * MIB).detected("litellm"),
        PlannedFile.listed("file:/b", "b", 200 * MIB).detected("otlp"),
        PlannedFile.listed("file:/c", "c", 900 * MIB).skipped("no format recognized; skipped"));
    String spark200 = spark.conf().get(ShufflePartitions.KEY);
    try (ShufflePartitions sized = ShufflePartitions.sizeTo(spark, planned)) {
      assertThat(spark.conf().get(ShufflePartitions.KEY)).isEqualTo("4"); // 500 MiB read; the skipped file is not
    }
    assertThat(spark.conf().get(ShufflePartitions.KEY)).isEqualTo(spark200);

    spark.conf().set(ShufflePartitions.KEY, "7");
    try (ShufflePartitions kept = ShufflePartitions.sizeTo(spark, planned)) {
      assertThat(spark.conf().get(ShufflePartitions.KEY)).isEqualTo("7");
    } finally {
      spark.conf().unset(ShufflePartitions.KEY);
    }
  }
}
