package io.kvscope.index;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How sensitive text looks when it is not revealed: its length, a short hash that lets two
 * outputs be matched without the text, and nothing of the content itself.
 */
public final class Redaction {

  private Redaction() {}

  /** {@code [redacted 2,811,392 chars sha256:1f2e3d4c]}, or {@code -} for no text. */
  public static String mask(String text) {
    if (text == null) {
      return "-";
    }
    return String.format("[redacted %,d chars sha256:%s]", text.length(), shortHash(text));
  }

  /** The first 8 hex digits of the text's SHA-256. */
  public static String shortHash(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  }

  /** The text itself when {@code reveal}, else its {@link #mask}. */
  public static String show(String text, boolean reveal) {
    return reveal ? (text == null ? "-" : text) : mask(text);
  }
}
