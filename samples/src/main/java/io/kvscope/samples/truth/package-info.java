/**
 * The ground truth of a generated incident ({@code truth.json}) as plain records, with a reader
 * and a writer. It says what really happened: every leaked response and exactly which earlier
 * request's text it carries (char offsets in both), the vulnerable windows per node, the
 * over-length requests that were accepted, the prefill underruns, coverage gaps and duplicates,
 * and the expected {@code report.json} summary counts. Analyzers in other modules are scored
 * against it.
 */
package io.kvscope.samples.truth;
