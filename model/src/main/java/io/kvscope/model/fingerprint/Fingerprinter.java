package io.kvscope.model.fingerprint;

/**
 * The whole pipeline for one text: {@link WordTokenizer} → {@link KGramHasher} →
 * {@link Winnower}, under one {@link FingerprintConfig}. Immutable and thread-safe.
 */
public final class Fingerprinter {

  private final FingerprintConfig config;

  public Fingerprinter(FingerprintConfig config) {
    this.config = java.util.Objects.requireNonNull(config, "config");
  }

  public FingerprintConfig config() {
    return config;
  }

  /** Fingerprints of {@code text} ({@code null} counts as empty). */
  public Fingerprints fingerprint(String text) {
    return fingerprint(WordTokenizer.tokenize(text));
  }

  /**
   * The distinct fingerprint hashes of {@code text}, exactly {@code fingerprint(text).distinctHashes()}
   * (the terms the index gets), without the tokens' offsets or copies of their hashes: every
   * request's texts go through this at ingest.
   */
  public long[] distinctHashes(String text) {
    WordTokenizer.Tokens tokens = WordTokenizer.hashes(text);
    int kgrams = KGramHasher.hashInPlace(tokens.hashes, tokens.count, config.k());
    return Winnower.winnow(tokens.hashes, kgrams, config.window()).distinctHashes();
  }

  /** Fingerprints of an already tokenized text; positions are token indexes into it. */
  public Fingerprints fingerprint(TokenizedText tokens) {
    return Winnower.winnow(KGramHasher.hash(tokens.hashArray(), config.k()), config.window());
  }
}
