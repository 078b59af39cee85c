/**
 * JMH micro-benchmarks of the hot paths, on text and indexes made by the sample generator:
 * fingerprinting and identifier extraction ({@link io.kvscope.bench.jmh.FingerprintingBench}, MB/s),
 * the fingerprint self-join ({@link io.kvscope.bench.jmh.JoinBench}, postings/s) and span
 * verification ({@link io.kvscope.bench.jmh.VerifyBench}, pairs/s and tokens/s). Run them with
 * {@code bench/jmh.sh}; defaults are short because the reference machine has two cores.
 */
package io.kvscope.bench.jmh;
