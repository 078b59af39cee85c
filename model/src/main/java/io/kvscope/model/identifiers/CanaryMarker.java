package io.kvscope.model.identifiers;

/**
 * The one home of what a canary marker looks like: the probe writes them, the index extracts them
 * as identifiers, the reports redact them.
 */
public final class CanaryMarker {

  /** Every marker starts with this; the probe's markers and engine KV canaries alike. */
  public static final String PREFIX = "KVCANARY-";

  /** The most characters a marker's body (what follows its prefix) may have: a bound, so a run of text is never one marker. */
  public static final int MAX_BODY = 96;

  private static final int MIN_BODY = 6;

  /**
   * Anything shaped like a marker, whoever issued it, also with an underscore after the name;
   * group 1 is what follows the prefix. Its body characters are those of {@link #isBodyChar}, so
   * whatever the extractor takes as a marker the redactor hides as one.
   */
  public static final String ANY_REGEX = "KVCANARY[-_]([A-Za-z0-9_-]{" + MIN_BODY + "," + MAX_BODY + "})";

  /** A character a marker's body may hold: ASCII letters and digits, underscore and hyphen. */
  public static boolean isBodyChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  private CanaryMarker() {}
}
