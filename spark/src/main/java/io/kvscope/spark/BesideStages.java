package io.kvscope.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Stages that run on a second driver thread, beside the job's main line, because nothing on that
 * line needs them until later. The requests' shards end on their longest shard (one task a shard,
 * a shard a core), and the main line's stages leave cores idle while the driver plans and collects;
 * a stage submitted beside them takes those cores. Its jobs go to Spark's pool {@value #POOL}, which
 * under the session's fair scheduler ({@link Sessions}) gets only the cores the main line's pool
 * leaves idle, so the main line is never slowed for it. Under a FIFO scheduler the stages still run
 * beside it, in the order Spark submitted their jobs.
 */
final class BesideStages implements AutoCloseable {

  /** The fair scheduler's pool of the stages beside; the main line's jobs stay in Spark's default pool. */
  static final String POOL = "beside";

  private final SparkContext context;
  private final StageMetrics metrics;
  private final ExecutorService thread;
  private final String group = "kvscope-beside-" + System.nanoTime();
  private final List<Future<?>> submitted = new ArrayList<>();

  private BesideStages(SparkContext context, StageMetrics metrics) {
    this.context = context;
    this.metrics = metrics;
    this.thread = Executors.newSingleThreadExecutor(run -> {
      Thread t = new Thread(run, "kvscope-beside");
      t.setDaemon(true);
      return t;
    });
  }

  static BesideStages start(SparkSession spark, StageMetrics metrics) {
    return new BesideStages(spark.sparkContext(), metrics);
  }

  /** Runs {@code stage} on the thread beside, its tasks counted under {@code name}, after those submitted before it. */
  <T> Future<T> submit(String name, Callable<T> stage) {
    Future<T> future = thread.submit(() -> {
      context.setLocalProperty("spark.scheduler.pool", POOL);
      context.setJobGroup(group, "kvscope: " + name, true);
      metrics.begin(name);
      return stage.call();
    });
    submitted.add(future);
    return future;
  }

  /** The stage's result, once it has ended; its failure as the stage would have thrown it. */
  static <T> T result(Future<T> stage) throws IOException {
    try {
      return stage.get();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while a stage beside ran", interrupted);
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    }
  }

  /** Cancels what still runs beside (the main line failed, or ended without waiting for it) and waits for it to end. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (submitted.stream().anyMatch(stage -> !stage.isDone())) {
        context.cancelJobGroup(group);
      }
      thread.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
