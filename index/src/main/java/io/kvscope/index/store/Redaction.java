package io.kvscope.index.store;

/**
 * How sensitive text looks when it is not revealed: its length, a short keyed hash that lets two
 * outputs of the same case be matched without the text, and nothing of the content itself. The
 * hash is the case's ({@link CaseKey}): it cannot be reversed by guessing without the index.
 */
public final class Redaction {

  private final CaseKey key;

  public Redaction(CaseKey key) {
    this.key = key;
  }

  /** For text that comes from no index (see {@link CaseKey#ephemeral()}). */
  public static Redaction ephemeral() {
    return new Redaction(CaseKey.ephemeral());
  }

  /** {@code [redacted 2,811,392 chars hmac:1f2e3d4c]}, or {@code -} for no text. */
  public String mask(String text) {
    if (text == null) {
      return "-";
    }
    return String.format("[redacted %,d chars hmac:%s]", text.length(), hash(text));
  }

  /** The case's 8-hex-digit keyed hash of {@code text}. */
  public String hash(String text) {
    return key.hash(text);
  }

  /** The text itself when {@code reveal}, else its {@link #mask}. */
  public String show(String text, boolean reveal) {
    return reveal ? (text == null ? "-" : text) : mask(text);
  }
}
