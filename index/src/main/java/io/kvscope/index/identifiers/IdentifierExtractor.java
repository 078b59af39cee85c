package io.kvscope.index.identifiers;

import io.kvscope.index.identifiers.Identifier.Category;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * Finds identifiers in text. Patterns are fixed by this class and written without nested or
 * overlapping quantifiers, so matching stays linear in the text; canary markers are literal
 * prefixes found with {@link String#indexOf}, so user-supplied markers cannot make the work
 * super-linear either.
 */
public final class IdentifierExtractor {

  /** The canary prefix used when none is configured. */
  public static final List<String> DEFAULT_CANARY_PREFIXES = List.of("KVCANARY-");

  // Each pattern is tried only near its anchor (see AnchoredPattern): lead is the most chars from a
  // match's start to its anchor, maxLength the longest possible match.
  private static final AnchoredPattern EMAIL = new AnchoredPattern(
      Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,8}"),
      AnchoredPattern.at('@'), 64, 64 + 1 + 63 + 8 * 64);
  private static final AnchoredPattern UUID = new AnchoredPattern(Pattern.compile(
      "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"),
      IdentifierExtractor::nextUuidDash, 8, 36);
  private static final AnchoredPattern API_KEY = new AnchoredPattern(
      Pattern.compile("\\b(?:sk|pk|rk|ak|key|tok)[-_][A-Za-z0-9_-]{16,128}\\b"),
      IdentifierExtractor::nextKeySeparator, 3, 3 + 1 + 128);
  private static final AnchoredPattern IBAN = new AnchoredPattern(
      Pattern.compile("\\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b"),
      IdentifierExtractor::nextIbanHead, 0, 4 + 7 * 5 + 4);
  private static final AnchoredPattern ACCOUNT = new AnchoredPattern(
      Pattern.compile("\\b(?:acct|account|acc)[ #:._-]{0,3}([0-9]{6,18})\\b", Pattern.CASE_INSENSITIVE),
      IdentifierExtractor::nextAcc, 0, 7 + 3 + 18);
  private static final AnchoredPattern PHONE = new AnchoredPattern(
      Pattern.compile("(?<![\\w+])\\+?[0-9]{1,3}[ .-]?\\(?[0-9]{2,4}\\)?[ .-]?[0-9]{3,4}[ .-]?[0-9]{3,4}(?!\\w)"),
      IdentifierExtractor::nextNumberStart, 0, 1 + 3 + 1 + 1 + 4 + 1 + 1 + 4 + 1 + 4);
  private static final int CANARY_MAX_LENGTH = 96;

  private final List<String> canaryPrefixes;

  public IdentifierExtractor(List<String> canaryPrefixes) {
    this.canaryPrefixes = canaryPrefixes == null || canaryPrefixes.isEmpty()
        ? DEFAULT_CANARY_PREFIXES : List.copyOf(canaryPrefixes);
  }

  public IdentifierExtractor() {
    this(DEFAULT_CANARY_PREFIXES);
  }

  /** Distinct identifiers of {@code text} (first occurrence of each), in text order. */
  public List<Identifier> extract(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    Map<String, Identifier> found = new LinkedHashMap<>();
    canaries(text, found);
    each(EMAIL, text, Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(UUID, text, Category.UUID, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(API_KEY, text, Category.API_KEY, MatchResult::group, found);
    each(IBAN, text, Category.IBAN, m -> m.group().replace(" ", ""), found);
    each(ACCOUNT, text, Category.ACCOUNT_NUMBER, m -> m.group(1), found);
    each(PHONE, text, Category.PHONE, m -> digits(m.group()), found);
    List<Identifier> result = new ArrayList<>(found.values());
    result.sort(java.util.Comparator.comparingInt(Identifier::start));
    return result;
  }

  private void canaries(String text, Map<String, Identifier> found) {
    for (String prefix : canaryPrefixes) {
      for (int at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
        int end = at + prefix.length();
        while (end < text.length() && end - at < CANARY_MAX_LENGTH && isMarkerChar(text.charAt(end))) {
          end++;
        }
        if (end > at + prefix.length()) {
          String value = text.substring(at, end);
          found.putIfAbsent(Category.CANARY.id() + ":" + value, new Identifier(Category.CANARY, value, at, end));
        }
      }
    }
  }

  private static boolean isMarkerChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }

  private static void each(AnchoredPattern pattern, String text, Category category,
      java.util.function.Function<MatchResult, String> normalise, Map<String, Identifier> found) {
    pattern.forEachMatch(text, m -> {
      String value = normalise.apply(m);
      if (category == Category.PHONE && (value.length() < 9 || value.length() > 15)) {
        return;
      }
      if (category == Category.IBAN && value.length() < 15) {
        return;
      }
      if (overlapsEarlierFind(found, m.start(), m.end())) {
        return; // the digits of an account number or IBAN are not also a phone number
      }
      found.putIfAbsent(category.id() + ":" + value, new Identifier(category, value, m.start(), m.end()));
    });
  }

  /** The patterns, for tests that compare the anchored scan with a plain one. */
  static List<AnchoredPattern> patterns() {
    return List.of(EMAIL, UUID, API_KEY, IBAN, ACCOUNT, PHONE);
  }

  // ---- anchors: the next index at or after `from` that passes a cheap test every match passes
  // at a known distance from its start. One loop per test, so each is compiled on its own.

  /** The first {@code -} of a UUID: another {@code -} five chars on. */
  private static int nextUuidDash(String t, int from) {
    for (int i = t.indexOf('-', from); i >= 0; i = t.indexOf('-', i + 1)) {
      if (i + 5 < t.length() && t.charAt(i + 5) == '-') {
        return i;
      }
    }
    return -1;
  }

  /** The {@code -} or {@code _} after {@code sk pk rk ak key tok}. */
  private static int nextKeySeparator(String t, int from) {
    for (int i = Math.max(from, 1), n = t.length(); i < n; i++) {
      char c = t.charAt(i);
      if (c == '-' || c == '_') {
        char before = t.charAt(i - 1);
        if (before == 'k' || before == 'y') {
          return i;
        }
      }
    }
    return -1;
  }

  /** Two capital letters and two digits, as an IBAN starts. */
  private static int nextIbanHead(String t, int from) {
    for (int i = from, last = t.length() - 3; i < last; i++) {
      if (isUpper(t.charAt(i)) && isUpper(t.charAt(i + 1)) && isDigit(t.charAt(i + 2)) && isDigit(t.charAt(i + 3))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * {@code acc} in any ASCII case, as every account prefix starts, with a digit close enough to
   * start the number ({@code account} and three separators end 10 chars on): most {@code acc}s
   * are words such as "access".
   */
  private static int nextAcc(String t, int from) {
    for (int i = from, last = t.length() - 2; i < last; i++) {
      char c = t.charAt(i);
      if ((c == 'a' || c == 'A') && (t.charAt(i + 1) | 0x20) == 'c' && (t.charAt(i + 2) | 0x20) == 'c'
          && digits(t, i + 3, i + 11) > 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A {@code +} or digit not preceded by a word char or {@code +}, where a phone number can start,
   * followed by the nine digits every phone match has (1 + 2 + 3 + 3) within its longest form (21
   * chars): most numbers in text are short.
   */
  private static int nextNumberStart(String t, int from) {
    for (int i = from, n = t.length(); i < n; i++) {
      char c = t.charAt(i);
      if ((c == '+' || isDigit(c)) && (i == 0 || !isWordOrPlus(t.charAt(i - 1))) && digits(t, i, i + 21) >= 9) {
        return i;
      }
    }
    return -1;
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

  private static boolean isWordOrPlus(char c) {
    return isDigit(c) || isUpper(c) || (c >= 'a' && c <= 'z') || c == '_' || c == '+';
  }

  private static boolean isUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean overlapsEarlierFind(Map<String, Identifier> found, int start, int end) {
    for (Identifier earlier : found.values()) {
      if (start < earlier.end() && earlier.start() < end) {
        return true;
      }
    }
    return false;
  }

  private static String digits(String text) {
    StringBuilder digits = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      if (Character.isDigit(text.charAt(i))) {
        digits.append(text.charAt(i));
      }
    }
    return digits.toString();
  }
}
