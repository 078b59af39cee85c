package io.kvscope.spark;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Spark's own task metrics, summed per kvscope stage, for the bench: executor CPU, input and shuffle
 * bytes, and the skew of the stage's tasks. The job names the kvscope stage it is in with a local
 * property ({@link #begin}); Spark hands that property to every Spark stage the stage's jobs submit,
 * broadcasts and subqueries included, so each task is counted under the kvscope stage that caused it.
 *
 * <p>{@link #write} puts one CSV row per kvscope stage in {@code OUT/metrics/stages.csv}:
 * numbers only, no input text.
 */
final class StageMetrics extends SparkListener {

  static final String FOLDER = "metrics";
  static final String FILE = "stages.csv";
  static final String HEADER = "stage,wall_s,jvm_cpu_s,spark_stages,tasks,executor_cpu_s,executor_run_s,input_bytes,"
      + "shuffle_read_bytes,shuffle_write_bytes,shuffle_write_records,largest_task_s,median_task_s,pair_tests,pair_updates,"
      + "spilled_bytes";

  private static final String PROPERTY = "kvscope.stage";

  /** The tasks of one Spark stage: their run times (for the skew) and summed figures. */
  private static final class SparkStage {
    final String kvscopeStage;
    final List<Long> runMillis = new ArrayList<>();
    long cpuNanos;
    long inputBytes;
    long shuffleRead;
    long shuffleWritten;
    long shuffleRecords;
    long spilled;

    SparkStage(String kvscopeStage) {
      this.kvscopeStage = kvscopeStage;
    }
  }

  private final SparkContext context;
  private final Map<Integer, SparkStage> stages = new ConcurrentHashMap<>();

  private StageMetrics(SparkContext context) {
    this.context = context;
  }

  /** A listener on {@code context}'s bus, until {@link #close}. */
  static StageMetrics listen(SparkContext context) {
    StageMetrics metrics = new StageMetrics(context);
    context.addSparkListener(metrics);
    return metrics;
  }

  /** Tasks of jobs this thread submits from now on count under {@code stage}. */
  void begin(String stage) {
    context.setLocalProperty(PROPERTY, stage);
  }

  void close() {
    context.setLocalProperty(PROPERTY, null);
    context.removeSparkListener(this);
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    String stage = submitted.properties() == null ? null : submitted.properties().getProperty(PROPERTY);
    stages.putIfAbsent(submitted.stageInfo().stageId(), new SparkStage(stage == null ? "other" : stage));
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    SparkStage stage = stages.get(end.stageId());
    TaskMetrics metrics = end.taskMetrics();
    if (stage == null || metrics == null) {
      return; // a task of a stage submitted before the listener, or one that failed before it ran
    }
    synchronized (stage) {
      stage.runMillis.add(metrics.executorRunTime());
      stage.cpuNanos += metrics.executorCpuTime();
      stage.inputBytes += metrics.inputMetrics().bytesRead();
      stage.shuffleRead += metrics.shuffleReadMetrics().totalBytesRead();
      stage.shuffleWritten += metrics.shuffleWriteMetrics().bytesWritten();
      stage.shuffleRecords += metrics.shuffleWriteMetrics().recordsWritten();
      stage.spilled += metrics.diskBytesSpilled();
    }
  }

  /** One kvscope stage: its wall and whole-JVM CPU from the job's clock, the rest from its tasks. */
  record Row(String stage, double wallSeconds, double jvmCpuSeconds, int sparkStages, long tasks, double executorCpuSeconds,
      double executorRunSeconds, long inputBytes, long shuffleReadBytes, long shuffleWriteBytes, long shuffleWriteRecords,
      double largestTaskSeconds, double medianTaskSeconds, long pairTests, long pairUpdates, long spilledBytes) {

    String csv() {
      return String.format(Locale.ROOT, "%s,%.3f,%.3f,%d,%d,%.3f,%.3f,%d,%d,%d,%d,%.3f,%.3f,%d,%d,%d", stage, wallSeconds,
          jvmCpuSeconds, sparkStages, tasks, executorCpuSeconds, executorRunSeconds, inputBytes, shuffleReadBytes,
          shuffleWriteBytes, shuffleWriteRecords, largestTaskSeconds, medianTaskSeconds, pairTests, pairUpdates,
          spilledBytes);
    }
  }

  /**
   * The rows, one per timed stage in order. The skew figures are those of the stage's Spark stage
   * with the longest task: that task's run time and its stage's median.
   */
  List<Row> rows(Map<String, ScopeJob.StageTime> times, PairStage.Result join) throws IOException {
    try {
      // Task ends reach the listener on the bus's thread; wait until every one posted so far has.
      context.listenerBus().waitUntilEmpty(60_000);
    } catch (TimeoutException slow) {
      throw new IOException("Spark's listener bus did not drain within a minute", slow);
    }
    Map<String, List<SparkStage>> byStage = new LinkedHashMap<>();
    stages.values().forEach(s -> byStage.computeIfAbsent(s.kvscopeStage, k -> new ArrayList<>()).add(s));
    List<Row> rows = new ArrayList<>();
    times.forEach((name, time) -> {
      List<SparkStage> own = byStage.getOrDefault(name, List.of());
      long tasks = 0;
      long cpu = 0;
      long run = 0;
      long input = 0;
      long read = 0;
      long written = 0;
      long records = 0;
      long spilled = 0;
      long largest = 0;
      long median = 0;
      for (SparkStage s : own) {
        synchronized (s) {
          tasks += s.runMillis.size();
          cpu += s.cpuNanos;
          run += s.runMillis.stream().mapToLong(Long::longValue).sum();
          input += s.inputBytes;
          read += s.shuffleRead;
          written += s.shuffleWritten;
          records += s.shuffleRecords;
          spilled += s.spilled;
          List<Long> sorted = s.runMillis.stream().sorted().toList();
          if (!sorted.isEmpty() && sorted.getLast() >= largest) {
            largest = sorted.getLast();
            median = sorted.get((sorted.size() - 1) / 2);
          }
        }
      }
      boolean pairs = name.equals("pairs") && join != null;
      rows.add(new Row(name, time.wallSeconds(), time.cpuSeconds(), own.size(), tasks, cpu / 1e9, run / 1e3, input, read,
          written, records, largest / 1e3, median / 1e3, pairs ? join.tests() : 0, pairs ? join.updates() : 0, spilled));
    });
    return rows;
  }

  /** Writes {@code rows} to {@code out/metrics/stages.csv} (any Hadoop file system). */
  void write(List<Row> rows, String out) throws IOException {
    Path file = new Path(out + "/" + FOLDER + "/" + FILE);
    FileSystem fs = file.getFileSystem(context.hadoopConfiguration());
    try (PrintWriter writer = new PrintWriter(new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8))) {
      writer.println(HEADER);
      rows.forEach(row -> writer.println(row.csv()));
    }
  }
}
