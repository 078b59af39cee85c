/**
 * kvscope's stages as an Apache Spark job (Java Dataset API): the same ingestors and the same merge
 * rule as the single-machine path, run inside Spark tasks. Objects of kvscope are built inside each
 * task and data moves between tasks as rows; every stage writes its output as Parquet under the
 * output folder, so each step can be checked (or opened in DuckDB or pandas) on its own.
 *
 * <p>Stages so far: {@link io.kvscope.spark.InputPlan} (a task per file, format by content),
 * {@link io.kvscope.spark.IngestStage} (kvscope's ingestors, bad records quarantined) and
 * {@link io.kvscope.spark.MergeStage} (records of one request merged by kvscope's rule).
 */
package io.kvscope.spark;
