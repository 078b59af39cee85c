package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.function.ForeachFunction;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** The stages beside the main line: their own pool, served only with the cores the main line leaves idle. */
class BesideStagesTest {

  /** Which pool each task started in, in the order they started. */
  private static final class TaskPools extends SparkListener {
    final Map<Integer, String> poolOfStage = new ConcurrentHashMap<>();
    final List<String> started = new ArrayList<>();

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
      String pool = submitted.properties() == null ? null : submitted.properties().getProperty("spark.scheduler.pool");
      poolOfStage.put(submitted.stageInfo().stageId(), pool == null ? "default" : pool);
    }

    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart start) {
      started.add(poolOfStage.get(start.stageId()));
    }

    synchronized int startedCount() {
      return started.size();
    }
  }

  @Test
  void theMainLineTakesEveryCoreItHasTasksForEvenWhenTheStageBesideWasSubmittedFirst() throws Exception {
    SparkSession spark = SharedSpark.session();
    SparkContext context = spark.sparkContext();
    TaskPools pools = new TaskPools();
    context.addSparkListener(pools);
    StageMetrics metrics = StageMetrics.listen(context);
    try (BesideStages beside = BesideStages.start(spark, metrics)) {
      Future<Object> early = beside.submit("beside", () -> sleepingTasks(spark, 24));
      for (long waited = 0; pools.startedCount() < 2 && waited < 60_000; waited += 20) {
        Thread.sleep(20); // until its first tasks hold both cores
      }
      sleepingTasks(spark, 12);
      BesideStages.result(early);
    } finally {
      metrics.close();
      context.listenerBus().waitUntilEmpty(60_000);
      context.removeSparkListener(pools);
    }
    // Once the main line's first task started, no task beside started before its last one had,
    // though the job beside had tasks waiting all along (a FIFO scheduler would have run them first).
    List<String> started = pools.started;
    int firstMain = started.indexOf("default");
    int lastMain = started.lastIndexOf("default");
    assertThat(firstMain).isPositive();
    assertThat(started.subList(0, firstMain)).containsOnly(BesideStages.POOL);
    assertThat(started.subList(firstMain, lastMain + 1)).containsOnly("default").hasSize(12);
    assertThat(started.subList(lastMain + 1, started.size())).containsOnly(BesideStages.POOL).isNotEmpty();
    assertThat(started).filteredOn(BesideStages.POOL::equals).hasSize(24);
  }

  @Test
  void aFailureBesideIsThrownAsTheStageThrewIt() {
    SparkSession spark = SharedSpark.session();
    StageMetrics metrics = StageMetrics.listen(spark.sparkContext());
    IOException full = new IOException("no space left");
    try (BesideStages beside = BesideStages.start(spark, metrics)) {
      Future<Object> failing = beside.submit("failing", () -> {
        throw full;
      });
      assertThatThrownBy(() -> BesideStages.result(failing)).isSameAs(full);
    } finally {
      metrics.close();
    }
  }

  /** A job of {@code tasks} tasks that each sleep a tenth of a second. */
  private static Object sleepingTasks(SparkSession spark, int tasks) {
    spark.range(0, tasks, 1, tasks).foreach((ForeachFunction<Long>) ignored -> Thread.sleep(100));
    return null;
  }
}
