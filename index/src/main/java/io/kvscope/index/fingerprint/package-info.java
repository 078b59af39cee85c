/**
 * The fingerprints of {@link io.kvscope.model.fingerprint} stored in and joined through the Lucene
 * index.
 *
 * <ul>
 *   <li>{@link io.kvscope.index.fingerprint.FingerprintFields}: the fingerprints of prompt and
 *       response as 8-byte values of two multi-valued 1-D point fields.
 *   <li>{@link io.kvscope.index.fingerprint.HashStream}: a field's points over every segment in
 *       hash order, with their documents, one BKD leaf a segment held at a time.
 *   <li>{@link io.kvscope.index.fingerprint.FingerprintJoin}: candidate (recipient, source) pairs
 *       from one pass over the response points merged with the prompt points, skipping fingerprints
 *       that too many tenants carry (boilerplate), in bounded memory
 *       ({@link io.kvscope.index.fingerprint.PairCounter} spills to disk); it also fills the
 *       {@link io.kvscope.model.fingerprint.FrequencyHistogram} the cut-off is learned from.
 *   <li>{@link io.kvscope.index.fingerprint.SpanFrequencyProbe} tells whether a verified span is
 *       itself boilerplate (at its edges a shared passage can yield fingerprints that only a few of
 *       the documents containing it selected, so the join's cut-off alone is not enough).
 * </ul>
 *
 * <p>Trap: a {@link io.kvscope.index.fingerprint.Candidate} names Lucene documents of the reader the
 * join ran on; it means nothing in another reader, and nothing outside this index.
 */
package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.FrequencyHistogram;
