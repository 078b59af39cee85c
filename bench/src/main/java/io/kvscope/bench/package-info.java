/**
 * Benchmarks: JMH micro-benchmarks of the hot paths and timed end-to-end runs of ingest and
 * analysis on generated incidents, with throughput and peak heap.
 */
package io.kvscope.bench;
