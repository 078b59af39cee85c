package io.kvscope.model.identifiers;

import java.util.Arrays;

/**
 * The anchors of every identifier pattern (see {@link AnchoredPattern}), found in one pass over
 * the text. Each anchor is a char that passes a cheap test every match of its pattern passes at a
 * known distance from its start. All anchor chars are ASCII, so one table look-up per char passes
 * over the rest of the text (most lower-case letters, spaces, punctuation, any non-ASCII char); only
 * the chars that can be an anchor are tested further. One scan instead of one per pattern: each
 * of those walked the whole text.
 */
final class AnchorScan {

  /** The patterns whose anchors are found, each named by one of these. */
  static final int EMAIL = 0;
  static final int UUID = 1;
  static final int API_KEY = 2;
  static final int IBAN = 3;
  static final int ACCOUNT = 4;
  static final int BARE_NUMBER = 5;
  static final int PHONE = 6;
  private static final int PATTERNS = 7;

  // The kinds of char an anchor can be.
  private static final byte OTHER = 0;
  private static final byte AT = 1;
  private static final byte HYPHEN = 2;
  private static final byte UNDERSCORE = 3;
  private static final byte UPPER = 4;
  private static final byte LOWER_A = 5;
  private static final byte DIGIT = 6;
  private static final byte PLUS_OR_PAREN = 7;
  private static final byte[] KIND_OF_ASCII = kinds();

  private final Positions[] byPattern = new Positions[PATTERNS];

  private AnchorScan() {
    for (int p = 0; p < PATTERNS; p++) {
      byPattern[p] = new Positions();
    }
  }

  /** The anchors of {@code pattern} (one of the constants above), in text order. */
  Positions of(int pattern) {
    return byPattern[pattern];
  }

  static AnchorScan of(String t) {
    AnchorScan scan = new AnchorScan();
    Positions[] out = scan.byPattern;
    for (int i = 0, n = t.length(); i < n; i++) {
      char c = t.charAt(i);
      if (c >= KIND_OF_ASCII.length) {
        continue;
      }
      switch (KIND_OF_ASCII[c]) {
        case OTHER -> { }
        case AT -> out[EMAIL].add(i);
        case HYPHEN -> {
          if (isUuidDash(t, i)) {
            out[UUID].add(i);
          }
          if (isKeySeparator(t, i)) {
            out[API_KEY].add(i);
          }
        }
        case UNDERSCORE -> {
          if (isKeySeparator(t, i)) {
            out[API_KEY].add(i);
          }
        }
        case UPPER -> {
          if (isIbanHead(t, i)) {
            out[IBAN].add(i);
          }
          if (c == 'A' && isAccountLabel(t, i)) {
            out[ACCOUNT].add(i);
          }
        }
        case LOWER_A -> {
          if (isAccountLabel(t, i)) {
            out[ACCOUNT].add(i);
          }
        }
        case DIGIT -> {
          if (isDigitRun(t, i)) {
            out[BARE_NUMBER].add(i);
          }
          if (isPhoneStart(t, i)) {
            out[PHONE].add(i);
          }
        }
        case PLUS_OR_PAREN -> {
          if (isPhoneStart(t, i)) {
            out[PHONE].add(i);
          }
        }
        default -> throw new AssertionError(KIND_OF_ASCII[c]);
      }
    }
    return scan;
  }

  private static byte[] kinds() {
    byte[] kinds = new byte[128];
    kinds['@'] = AT;
    kinds['-'] = HYPHEN;
    kinds['_'] = UNDERSCORE;
    for (char c = 'A'; c <= 'Z'; c++) {
      kinds[c] = UPPER;
    }
    kinds['a'] = LOWER_A;
    for (char c = '0'; c <= '9'; c++) {
      kinds[c] = DIGIT;
    }
    kinds['+'] = PLUS_OR_PAREN;
    kinds['('] = PLUS_OR_PAREN;
    return kinds;
  }

  // ---- the tests at a char of the right kind

  /** The first {@code -} of a UUID: another {@code -} five chars on. */
  private static boolean isUuidDash(String t, int i) {
    return i + 5 < t.length() && t.charAt(i + 5) == '-';
  }

  /** The {@code -} or {@code _} after {@code sk pk rk ak key tok}. */
  private static boolean isKeySeparator(String t, int i) {
    if (i == 0) {
      return false;
    }
    char before = t.charAt(i - 1);
    return before == 'k' || before == 'y';
  }

  /** Two capital letters and two digits, as an IBAN starts (the first capital is {@code t[i]}). */
  private static boolean isIbanHead(String t, int i) {
    return i + 3 < t.length() && isUpper(t.charAt(i + 1)) && isDigit(t.charAt(i + 2)) && isDigit(t.charAt(i + 3));
  }

  /**
   * {@code acc} in any ASCII case (the {@code a} is {@code t[i]}), as every account label starts,
   * with a digit close enough to start the number: most {@code acc}s are words such as "access".
   */
  private static boolean isAccountLabel(String t, int i) {
    return i + 2 < t.length() && (t.charAt(i + 1) | 0x20) == 'c' && (t.charAt(i + 2) | 0x20) == 'c'
        && digits(t, i + 3, i + IdentifierExtractor.ACCOUNT_DIGITS_WITHIN + 1) > 0;
  }

  /** A digit not preceded by a word char, {@code . , + -}, starting ten digits in a row. */
  private static boolean isDigitRun(String t, int i) {
    return i + 9 < t.length() && (i == 0 || !isBareNumberBoundary(t.charAt(i - 1))) && digits(t, i, i + 10) == 10;
  }

  /**
   * A {@code +}, {@code (} or digit not preceded by a word char or {@code +}, where a phone
   * number can start, followed by the eight digits every phone match has within its longest
   * form: most numbers in text are short.
   */
  private static boolean isPhoneStart(String t, int i) {
    return (i == 0 || !isWordOrPlus(t.charAt(i - 1)))
        && digits(t, i, i + IdentifierExtractor.PHONE_MAX_LENGTH) >= IdentifierExtractor.PHONE_MIN_DIGITS;
  }

  /** ASCII digits in {@code t[from, to)} (clipped to the text). */
  private static int digits(String t, int from, int to) {
    int count = 0;
    for (int i = from, end = Math.min(to, t.length()); i < end; i++) {
      if (isDigit(t.charAt(i))) {
        count++;
      }
    }
    return count;
  }

  private static boolean isBareNumberBoundary(char c) {
    return isWordChar(c) || c == '.' || c == ',' || c == '+' || c == '-';
  }

  private static boolean isWordOrPlus(char c) {
    return isWordChar(c) || c == '+';
  }

  /** {@code \w} without UNICODE_CHARACTER_CLASS: ASCII letters, digits and underscore. */
  private static boolean isWordChar(char c) {
    return isDigit(c) || isUpper(c) || (c >= 'a' && c <= 'z') || c == '_';
  }

  private static boolean isUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Positions in a text, in increasing order. */
  static final class Positions {
    private int[] at = new int[8];
    private int size;

    void add(int position) {
      if (size == at.length) {
        at = Arrays.copyOf(at, size * 2);
      }
      at[size++] = position;
    }

    int size() {
      return size;
    }

    int get(int index) {
      return at[index];
    }
  }
}
