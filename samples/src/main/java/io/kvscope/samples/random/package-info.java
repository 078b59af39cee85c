/**
 * Seeded randomness for the generator. Every random choice in a generated incident comes from an
 * {@link io.kvscope.samples.random.Rng} derived from the user's seed and a stable key (a stream
 * name, a request index), never from wall clock, hash iteration order or a shared global, so the
 * same seed yields byte-identical files on every run and platform.
 */
package io.kvscope.samples.random;
