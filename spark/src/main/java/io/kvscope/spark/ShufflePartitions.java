package io.kvscope.spark;

import java.util.List;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;

/**
 * How many partitions the job's shuffles take. Spark's default is a fixed 200 whatever the input,
 * so a small incident paid 200 tasks per shuffle (ten shuffles in the engine facts alone), and its
 * fixed cost was most of the job. The rule: one partition per {@link #INPUT_BYTES_PER_PARTITION} of
 * input files, and never fewer than the session's default parallelism (every core busy). The count
 * thus grows with the input: 2 in {@code local[2]} up to 256 MiB, 8,192 for a terabyte. What a
 * shuffle carries is a fraction of the input (keys, engine lines, fingerprint rows; texts stay where
 * they lie), so a partition's share stays well under what one task handles. A value the user set
 * ({@code --conf spark.sql.shuffle.partitions=N}) is left as it is.
 */
final class ShufflePartitions implements AutoCloseable {

  static final String KEY = "spark.sql.shuffle.partitions";
  static final long INPUT_BYTES_PER_PARTITION = 128L << 20;

  private final RuntimeConfig conf;
  /** Whether the count is this rule's, to take back at the end; false when it is the user's. */
  private final boolean sized;

  private ShufflePartitions(RuntimeConfig conf, boolean sized) {
    this.conf = conf;
    this.sized = sized;
  }

  /** The rule's count for {@code inputBytes} of input on {@code parallelism} cores. */
  static int of(long inputBytes, int parallelism) {
    long bySize = Math.ceilDiv(Math.max(0, inputBytes), INPUT_BYTES_PER_PARTITION);
    return (int) Math.min(Integer.MAX_VALUE, Math.max(Math.max(1, parallelism), bySize));
  }

  /**
   * Sizes the session's shuffles to the planned files, unless the user set the count; closing puts
   * the session's setting back.
   */
  static ShufflePartitions sizeTo(SparkSession spark, List<PlannedFile> planned) {
    RuntimeConfig conf = spark.conf();
    if (conf.contains(KEY)) {
      return new ShufflePartitions(conf, false);
    }
    // Bytes on disk: a compressed file holds more, which the floor of one partition per core covers at small sizes.
    long bytes = planned.stream().filter(f -> f.format() != null).mapToLong(PlannedFile::size).sum();
    conf.set(KEY, of(bytes, spark.sparkContext().defaultParallelism()));
    return new ShufflePartitions(conf, true);
  }

  @Override
  public void close() {
    if (sized) {
      conf.unset(KEY);
    }
  }
}
