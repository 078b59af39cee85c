package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class SessionsTest {

  @Test
  void aLocalSessionNeverDropsItsExecutorForMissedHeartbeats() {
    SparkConf conf = SharedSpark.session().sparkContext().getConf();

    assertThat(conf.get("spark.network.executorTimeout")).isEqualTo(Sessions.LOCAL_EXECUTOR_TIMEOUT);
    // Longer than any job by far, and longer than the heartbeat interval Spark checks it against.
    assertThat(conf.getTimeAsSeconds("spark.network.executorTimeout")).isGreaterThanOrEqualTo(7L * 24 * 3600);
    assertThat(conf.getTimeAsSeconds("spark.network.executorTimeout"))
        .isGreaterThan(conf.getTimeAsSeconds("spark.executor.heartbeatInterval", "10s"));
  }

  @Test
  void theStagesBesideGetAPoolOfTheirOwnUnderTheFairScheduler() {
    SparkConf conf = SharedSpark.session().sparkContext().getConf();

    assertThat(conf.get("spark.scheduler.mode")).isEqualTo("FAIR");
    assertThat(SharedSpark.session().sparkContext().getPoolForName(BesideStages.POOL).isDefined()).isTrue();
  }
}
