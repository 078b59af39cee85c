package io.kvscope.ingest;

import java.nio.charset.StandardCharsets;

/**
 * The start of a file, already decompressed, for content-based format detection. Detectors look
 * at {@link #text()}; the file name is a hint only (engine logs take their node name from it).
 */
public final class Sniff {

  /** At most this many decompressed bytes are read for detection. */
  public static final int HEAD_BYTES = 256 * 1024;

  private final String fileName;
  private final byte[] head;
  private final Compression compression;
  /**
   * The head decoded once, on first use: every format detector reads the text, and decoding it
   * anew for each (a dozen detectors, twice per file) was most of the detection's CPU.
   */
  private String text;

  public Sniff(String fileName, byte[] head, Compression compression) {
    this.fileName = fileName;
    this.head = head.clone();
    this.compression = compression;
  }

  public String fileName() {
    return fileName;
  }

  public byte[] head() {
    return head;
  }

  public Compression compression() {
    return compression;
  }

  /** The head as UTF-8 text; a multi-byte character cut at the end is replaced. */
  public String text() {
    String decoded = text;
    if (decoded == null) {
      decoded = new String(head, StandardCharsets.UTF_8);
      text = decoded;
    }
    return decoded;
  }

  /** The first line of the head (without its terminator), possibly cut at {@link #HEAD_BYTES}. */
  public String firstLine() {
    String text = text();
    int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).strip();
  }

  /** True when the head starts (after whitespace and a BOM) with {@code c}. */
  public boolean startsWith(char c) {
    for (byte b : head) {
      if (b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == (byte) 0xEF || b == (byte) 0xBB || b == (byte) 0xBF) {
        continue;
      }
      return b == c;
    }
    return false;
  }

  public boolean isEmpty() {
    return head.length == 0;
  }
}
