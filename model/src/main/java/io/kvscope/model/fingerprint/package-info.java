/**
 * Text fingerprints for cross-tenant overlap, as pure functions over {@code String}, {@code long[]}
 * and {@code int[]}: finding verbatim runs of one request's prompt or response inside another
 * request's response. The engines (the Lucene index, a Spark job) store and join what these give;
 * they never compute a fingerprint or a span any other way.
 *
 * <ol>
 *   <li>{@link io.kvscope.model.fingerprint.WordTokenizer}: lower-cased, Unicode-aware word tokens
 *       with their char offsets in the original text; identifiers such as emails and keys stay one
 *       token, and each character of a script written without spaces (Han, kana, Thai, ...) is one.
 *       Output: {@link io.kvscope.model.fingerprint.TokenizedText}.
 *   <li>{@link io.kvscope.model.fingerprint.KGramHasher}: a 64-bit hash of every run of k tokens.
 *   <li>{@link io.kvscope.model.fingerprint.Winnower}: robust winnowing (Schleimer et al. 2003)
 *       keeps the minimum of every window of {@code w = T - k + 1} k-grams, with its position.
 *       Guarantee: every run of at least T tokens that two texts share gives both the same
 *       selected fingerprint. {@link io.kvscope.model.fingerprint.Fingerprinter} chains 1-3.
 *   <li>{@link io.kvscope.model.fingerprint.FrequencyHistogram}: how many tenants share each
 *       fingerprint; the boilerplate cut-off is learned from its tail.
 *   <li>{@link io.kvscope.model.fingerprint.SpanVerifier}: exact maximal shared spans of a
 *       candidate pair with offsets in both texts, minus what the recipient's own prompt explains;
 *       {@link io.kvscope.model.fingerprint.ResponseCoverage} adds up several sources without
 *       double counting.
 * </ol>
 *
 * <h2>Defaults: k = 8, T = 16 words (window 9)</h2>
 *
 * <p>T is the shortest shared run the fingerprints promise to find. Leaked fragments start at
 * about 20 model tokens, and a model's tokenizer counts punctuation and word pieces that are not
 * words here, so 20 model tokens can be as few as 16 words: T = 16 catches the short end. Shorter
 * runs are found by other means where the mechanism says to look for them: on a response decoded
 * over foreign KV the overlap analysis verifies runs down to
 * {@link io.kvscope.model.evidence.PassageRules#MIN_WORDS} words (word-for-word lookups of short
 * windows), while on a response with no mechanism evidence a run under 2T is dropped
 * ({@link io.kvscope.model.evidence.PassageRules#minimumWords}). T is configurable upwards at
 * analysis time ({@code --min-span}) and at build time
 * ({@link io.kvscope.model.fingerprint.FingerprintConfig#withThreshold(int)}); the index records the
 * scheme it was built with.
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
 * <p>Fingerprints are written at ingest and compared at analysis time, possibly on another JVM or
 * another machine, so every step is fixed: per-code-point lower-casing that ignores the locale,
 * FNV-1a over code points with the MurmurHash3 finaliser per token, a rolling polynomial with a
 * fixed odd base per k-gram, no seeds and no {@code String.hashCode}. Writer and analysis must use
 * the same {@link io.kvscope.model.fingerprint.FingerprintConfig}; its
 * {@link io.kvscope.model.fingerprint.FingerprintConfig#schemeId()} names the scheme.
 */
package io.kvscope.model.fingerprint;
