/**
 * Text fingerprints for cross-tenant overlap: finding verbatim runs of one request's prompt or
 * response inside another request's response, at index scale.
 *
 * <p>The pipeline has one job per type, like a Lucene analysis chain, and its cores are pure
 * functions over {@code String}, {@code long[]} and {@code int[]} (no Lucene), so they can be
 * tested and benchmarked directly:
 *
 * <ol>
 *   <li>{@link io.kvscope.index.fingerprint.WordTokenizer}: lower-cased, Unicode-aware word
 *       tokens with their char offsets in the original text; identifiers such as emails and keys
 *       stay one token. Output: {@link io.kvscope.index.fingerprint.TokenizedText}.
 *   <li>{@link io.kvscope.index.fingerprint.KGramHasher}: a 64-bit hash of every run of k tokens.
 *   <li>{@link io.kvscope.index.fingerprint.Winnower}: robust winnowing (Schleimer et al. 2003)
 *       keeps the minimum of every window of {@code w = T - k + 1} k-grams, with its position.
 *       Guarantee: every run of at least T tokens that two texts share gives both the same
 *       selected fingerprint. {@link io.kvscope.index.fingerprint.Fingerprinter} chains 1-3.
 *   <li>{@link io.kvscope.index.fingerprint.FingerprintFields}: the fingerprints of prompt and
 *       response as 8-byte terms of two docs-only fields.
 *   <li>{@link io.kvscope.index.fingerprint.FingerprintJoin}: candidate (recipient, source) pairs
 *       from one pass over the response terms merged with the prompt terms, skipping
 *       fingerprints that too many tenants carry (boilerplate), in bounded memory.
 *       {@link io.kvscope.index.fingerprint.FrequencyHistogram} shows where that cut-off lies.
 *   <li>{@link io.kvscope.index.fingerprint.SpanVerifier}: exact maximal shared spans of a
 *       candidate pair with offsets in both texts, minus what the recipient's own prompt explains;
 *       {@link io.kvscope.index.fingerprint.SpanFrequencyProbe} tells whether a verified span is
 *       itself boilerplate (at its edges a shared passage can yield fingerprints that only a few of
 *       the documents containing it selected, so the join's cut-off alone is not enough);
 *       {@link io.kvscope.index.fingerprint.ResponseCoverage} adds up several sources without
 *       double counting.
 * </ol>
 *
 * <h2>Defaults: k = 8, T = 16 words (window 9)</h2>
 *
 * <p>T is the shortest shared run the system promises to find; it is also the shortest span
 * verification reports. Leaked fragments start at about 20 model tokens, and a model's tokenizer
 * counts punctuation and word pieces that are not words here, so 20 model tokens can be as few
 * as 16 words: T = 16 catches the short end. A run of 16 identical words between two tenants'
 * texts is rare by chance once boilerplate (high tenant frequency), the recipient's own prompt and
 * the same question are set aside; what remains of chance is a model's stock sentences placed
 * side by side, which the overlap analyzer checks for on short reply-to-reply spans, and a span
 * under 2T on a request the engine served normally is reported only as suspect. Measured on
 * generated incidents (see the README): every leaked response and source found, none extra. T is
 * configurable upwards at analysis time ({@code --min-span}) and at build time
 * ({@link io.kvscope.index.fingerprint.FingerprintConfig#withThreshold(int)}); the index records
 * the scheme it was built with.
 *
 * <p>k trades noise for index size. Every k-gram shared by two unrelated texts is a fingerprint
 * hit that costs a candidate pair; common phrases of 3 to 5 words ("at the end of the", "let me
 * know if you") are everywhere, especially in LLM output, while 8-word runs are mostly specific
 * to a text or are true boilerplate, which the tenant-frequency cut-off removes. For a given T a
 * larger k shrinks the window and raises the density (about {@code 2 / (w + 1)} of the k-grams
 * are selected): k = 8 gives w = 9 and about one fingerprint per 5 tokens, a fair index cost. k
 * must stay well below T so a window spans several k-grams; k = 8 with T = 16 does.
 *
 * <h2>Stability</h2>
 *
 * <p>Fingerprints are written at ingest and compared at analysis time, possibly on another JVM,
 * so every step is fixed: per-code-point lower-casing that ignores the locale, FNV-1a over code
 * points with the MurmurHash3 finaliser per token, a rolling polynomial with a fixed odd base per
 * k-gram, no seeds and no {@code String.hashCode}. Index and analysis must use the same
 * {@link io.kvscope.index.fingerprint.FingerprintConfig}; its
 * {@link io.kvscope.index.fingerprint.FingerprintConfig#schemeId()} names the scheme for the
 * index to record.
 */
package io.kvscope.index.fingerprint;
