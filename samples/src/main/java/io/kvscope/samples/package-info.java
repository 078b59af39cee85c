/**
 * The sample incident generator: a paged-KV-pool simulator of a disaggregated deployment whose
 * buggy admission path leaks stale pages, writing gateway logs, traces and engine logs as a real
 * fleet would, plus the ground truth that every analyzer is scored against.
 *
 * <p>Entry points: {@link io.kvscope.samples.IncidentGenerator#generate(java.nio.file.Path, long,
 * io.kvscope.samples.Scale)} (or with {@link io.kvscope.samples.GeneratorOptions} for a clean
 * fleet or another compression), {@link io.kvscope.samples.truth.GroundTruth#load} to read the
 * truth back, and {@link io.kvscope.samples.SampleDataset} for the incident shipped on the
 * classpath. The data path inside reads top to bottom: {@code fleet} (nodes and their config
 * epochs) and {@code text} (synthetic language) feed {@code sim} (the event simulation with the
 * {@code kv} page pools), which reports to {@code out} (the log writers) and yields the
 * {@code truth}.
 */
package io.kvscope.samples;
