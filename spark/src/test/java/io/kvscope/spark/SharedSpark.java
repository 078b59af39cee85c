package io.kvscope.spark;

import org.apache.spark.sql.SparkSession;

/**
 * One Spark session per test JVM: starting one costs seconds of CPU. {@code local[2]}, as on a
 * laptop; the job sizes its shuffles to the input ({@link ShufflePartitions}), so nothing is set for them here.
 */
final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      session = Sessions.builder("local[2]").getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }
}
