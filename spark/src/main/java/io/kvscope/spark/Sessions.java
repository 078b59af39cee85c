package io.kvscope.spark;

import org.apache.spark.sql.SparkSession;

/** How kvscope starts a Spark session of its own. */
final class Sessions {

  private Sessions() {}

  /**
   * A session on {@code master} without the web UI. The driver binds to loopback in local mode: a
   * host whose name resolves to loopback otherwise makes Spark bind another interface.
   */
  static SparkSession.Builder builder(String master) {
    SparkSession.Builder builder = SparkSession.builder().appName("kvscope").master(master)
        .config("spark.ui.enabled", "false");
    if (master.startsWith("local")) {
      builder.config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1");
    }
    return builder;
  }
}
