/**
 * The sample incident generator: a paged-KV-pool simulator of a disaggregated deployment whose
 * buggy admission path leaks stale pages, writing gateway logs, traces and engine logs as a real
 * fleet would, plus the ground truth that every analyzer is scored against.
 */
package io.kvscope.samples;
