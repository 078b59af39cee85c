package io.kvscope.spark;

import org.apache.spark.sql.SparkSession;

/**
 * One Spark session per test JVM: starting one costs seconds of CPU. {@code local[2]}, as on a
 * laptop; few shuffle partitions, since the test data is small.
 */
final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      session = Sessions.builder("local[2]").config("spark.sql.shuffle.partitions", "4").getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }
}
