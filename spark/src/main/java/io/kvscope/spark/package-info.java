/**
 * kvscope's stages as an Apache Spark job (Java Dataset API): the same ingestors and the same merge
 * rule as the single-machine path, run inside Spark tasks. Objects of kvscope are built inside each
 * task and data moves between tasks as rows; every stage writes its output as Parquet under the
 * output folder, so each step can be checked (or opened in DuckDB or pandas) on its own.
 *
 * <p>{@link io.kvscope.spark.ScopeJob} runs the stages in order, from {@link io.kvscope.spark.InputPlan}
 * (a task per file, format by content) to {@link io.kvscope.spark.ShardStage} (Lucene shards written
 * with kvscope's document code), and {@link io.kvscope.spark.ShardIndex} makes one index of the
 * shards on the driver.
 */
package io.kvscope.spark;
