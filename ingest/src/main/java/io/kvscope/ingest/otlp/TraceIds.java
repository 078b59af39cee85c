package io.kvscope.ingest.otlp;

import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Trace and span ids as lowercase hex. The file exporter writes hex; the protobuf JSON mapping
 * writes bytes as base64, so a 16-byte trace id may also arrive as 24 base64 characters.
 */
final class TraceIds {

  static final int TRACE_ID_BYTES = 16;
  static final int SPAN_ID_BYTES = 8;

  private TraceIds() {}

  /** {@code id} as lowercase hex, or {@code null} when blank; throws when it is neither hex nor base64. */
  static String normalise(String id, int bytes) {
    if (id == null || id.isBlank()) {
      return null;
    }
    String trimmed = id.strip();
    if (trimmed.length() == 2 * bytes && isHex(trimmed)) {
      return trimmed.toLowerCase(Locale.ROOT);
    }
    try {
      byte[] raw = Base64.getDecoder().decode(trimmed);
      if (raw.length == bytes) {
        return HexFormat.of().formatHex(raw);
      }
    } catch (IllegalArgumentException notBase64) {
      // fall through
    }
    if (isHex(trimmed)) {
      return trimmed.toLowerCase(Locale.ROOT); // unusual length, still an id
    }
    throw new IllegalArgumentException("id of " + trimmed.length() + " characters is neither hex nor base64 of "
        + bytes + " bytes");
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
