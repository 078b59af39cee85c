package io.kvscope.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/** How kvscope starts a Spark session of its own. */
final class Sessions {

  private static final String MODE = "spark.scheduler.mode";
  private static final String EXECUTOR_TIMEOUT = "spark.network.executorTimeout";
  /** Longer than any scope: in local mode a missing heartbeat says nothing about the executor. */
  static final String LOCAL_EXECUTOR_TIMEOUT = "30d";

  /**
   * Spark's fair scheduler with the main line's pool ({@code default}) always first: its minimum
   * share is never met, so it takes every core it has tasks for, and the pool of the stages beside
   * ({@link BesideStages#POOL}) gets the rest.
   */
  private static final String POOLS = """
      <?xml version="1.0"?>
      <allocations>
        <pool name="default"><schedulingMode>FIFO</schedulingMode><weight>1</weight><minShare>1000000</minShare></pool>
        <pool name="%s"><schedulingMode>FIFO</schedulingMode><weight>1</weight><minShare>0</minShare></pool>
      </allocations>
      """.formatted(BesideStages.POOL);

  private Sessions() {}

  /**
   * A session on {@code master} without the web UI, and with the pools above unless the scheduler's
   * mode was set (spark-submit's {@code --conf}). In local mode the driver binds to loopback (a host
   * whose name resolves to loopback otherwise makes Spark bind another interface), and the executor
   * is never dropped for missing heartbeats: it runs in the driver's own JVM, so it cannot be gone
   * while the driver asks, but Spark's heartbeat thread can die (an accumulator read while it is
   * still being deserialized throws in {@code isZero}, apache/spark pull request 58785), and 120 s
   * later the driver would drop its only executor with every shuffle output on it, to be computed
   * again. A timeout set by the user ({@code -D}{@value #EXECUTOR_TIMEOUT}) is kept.
   */
  static SparkSession.Builder builder(String master) {
    SparkSession.Builder builder = SparkSession.builder().appName("kvscope").master(master)
        .config("spark.ui.enabled", "false");
    if (System.getProperty(MODE) == null) {
      builder.config(MODE, "FAIR").config("spark.scheduler.allocation.file", pools().toString());
    }
    if (master.startsWith("local")) {
      builder.config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1");
      if (System.getProperty(EXECUTOR_TIMEOUT) == null) {
        builder.config(EXECUTOR_TIMEOUT, LOCAL_EXECUTOR_TIMEOUT);
      }
    }
    return builder;
  }

  /** The pools' file, in a temporary file the JVM deletes when it exits. */
  private static Path pools() {
    try {
      Path file = Files.createTempFile("kvscope-pools-", ".xml");
      file.toFile().deleteOnExit();
      return Files.writeString(file, POOLS, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
