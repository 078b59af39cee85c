package io.kvscope.model.identifiers;

import io.kvscope.model.identifiers.Identifier.Category;
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
  public static final List<String> DEFAULT_CANARY_PREFIXES = List.of(CanaryMarker.PREFIX);

  /** "account number is" and three separators: the number's first digit is at most this far on. */
  private static final int ACCOUNT_DIGITS_WITHIN = 7 + 7 + 3 + 3;
  /** "+123-" "(" 4 digits ")" " " 4 digits "-" 4 digits. */
  private static final int PHONE_MAX_LENGTH = 5 + 1 + 4 + 1 + 1 + 4 + 1 + 4;
  /** Digits every phone match has (2 + 3 + 3). */
  private static final int PHONE_MIN_DIGITS = 8;

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
  private static final AnchoredPattern ACCOUNT = new AnchoredPattern(Pattern.compile(
      "\\b(?:acct|account|acc)(?: (?:number|no\\.?|num))?(?: is)?[ #:._-]{0,3}([0-9]{6,18})\\b", Pattern.CASE_INSENSITIVE),
      IdentifierExtractor::nextAcc, 0, ACCOUNT_DIGITS_WITHIN + 18);
  /** A long bare digit run: an account number written without its label (as a reply would quote it). */
  private static final AnchoredPattern BARE_NUMBER = new AnchoredPattern(
      Pattern.compile("(?<![\\w.,+-])[0-9]{10,18}(?![\\w]|[.,][0-9])"),
      IdentifierExtractor::nextDigitRun, 0, 18);
  /** Phone numbers are written with a + or separators; a bare digit run is a {@link #BARE_NUMBER}. */
  private static final AnchoredPattern PHONE = new AnchoredPattern(Pattern.compile(
      "(?<![\\w+])(?:\\+[0-9]{1,3}[ .-]?|[0-9]{1,3}[ .-])?\\(?[0-9]{2,4}\\)?[ .-][0-9]{3,4}[ .-]?[0-9]{3,4}(?!\\w)"),
      IdentifierExtractor::nextPhoneStart, 0, PHONE_MAX_LENGTH);

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
    Found found = new Found();
    canaries(text, found);
    each(EMAIL, text, Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(UUID, text, Category.UUID, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(API_KEY, text, Category.API_KEY, MatchResult::group, found);
    each(IBAN, text, Category.IBAN, m -> m.group().replace(" ", ""), found);
    each(ACCOUNT, text, Category.ACCOUNT_NUMBER, m -> m.group(1), found);
    each(BARE_NUMBER, text, Category.ACCOUNT_NUMBER, MatchResult::group, found);
    each(PHONE, text, Category.PHONE, m -> digits(m.group()), found);
    List<Identifier> result = new ArrayList<>(found.byTerm.values());
    result.sort(java.util.Comparator.comparingInt(Identifier::start));
    return result;
  }

  private void canaries(String text, Found found) {
    for (String prefix : canaryPrefixes) {
      for (int at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
        int body = at + prefix.length();
        int end = body;
        while (end < text.length() && end - body < CanaryMarker.MAX_BODY && CanaryMarker.isBodyChar(text.charAt(end))) {
          end++;
        }
        if (end > body) {
          String value = text.substring(at, end);
          found.add(Category.CANARY.id() + ":" + value, new Identifier(Category.CANARY, value, at, end));
        }
      }
    }
  }

  private static void each(AnchoredPattern pattern, String text, Category category,
      java.util.function.Function<MatchResult, String> normalise, Found found) {
    pattern.forEachMatch(text, m -> {
      String value = normalise.apply(m);
      if (category == Category.PHONE && (value.length() < 9 || value.length() > 15)) {
        return;
      }
      if (category == Category.IBAN && value.length() < 15) {
        return;
      }
      if (found.overlaps(m.start(), m.end())) {
        return; // the digits of an account number or IBAN are not also a phone number
      }
      found.add(category.id() + ":" + value, new Identifier(category, value, m.start(), m.end()));
    });
  }

  /** The patterns, for tests that compare the anchored scan with a plain one. */
  static List<AnchoredPattern> patterns() {
    return List.of(EMAIL, UUID, API_KEY, IBAN, ACCOUNT, BARE_NUMBER, PHONE);
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
   * {@code acc} in any ASCII case, as every account label starts, with a digit close enough to
   * start the number: most {@code acc}s are words such as "access".
   */
  private static int nextAcc(String t, int from) {
    for (int i = from, last = t.length() - 2; i < last; i++) {
      char c = t.charAt(i);
      if ((c == 'a' || c == 'A') && (t.charAt(i + 1) | 0x20) == 'c' && (t.charAt(i + 2) | 0x20) == 'c'
          && digits(t, i + 3, i + ACCOUNT_DIGITS_WITHIN + 1) > 0) {
        return i;
      }
    }
    return -1;
  }

  /** A digit not preceded by a word char, {@code . , + -}, starting ten digits in a row. */
  private static int nextDigitRun(String t, int from) {
    for (int i = from, last = t.length() - 9; i < last; i++) {
      if (isDigit(t.charAt(i)) && (i == 0 || !isBareNumberBoundary(t.charAt(i - 1))) && digits(t, i, i + 10) == 10) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A {@code +}, {@code (} or digit not preceded by a word char or {@code +}, where a phone
   * number can start, followed by the eight digits every phone match has within its longest
   * form: most numbers in text are short.
   */
  private static int nextPhoneStart(String t, int from) {
    for (int i = from, n = t.length(); i < n; i++) {
      char c = t.charAt(i);
      if ((c == '+' || c == '(' || isDigit(c)) && (i == 0 || !isWordOrPlus(t.charAt(i - 1)))
          && digits(t, i, i + PHONE_MAX_LENGTH) >= PHONE_MIN_DIGITS) {
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

  /**
   * The distinct identifiers found so far (first occurrence of each) and the text they cover, as
   * merged disjoint ranges: asking whether a match overlaps an earlier find costs a tree lookup,
   * not a scan of every find, so a text of many identifiers stays linear.
   */
  private static final class Found {
    final Map<String, Identifier> byTerm = new LinkedHashMap<>();
    private final java.util.TreeMap<Integer, Integer> covered = new java.util.TreeMap<>();

    void add(String term, Identifier identifier) {
      if (byTerm.putIfAbsent(term, identifier) == null) {
        cover(identifier.start(), identifier.end());
      }
    }

    boolean overlaps(int start, int end) {
      var before = covered.lowerEntry(end); // the last range starting before this one ends
      return before != null && before.getValue() > start;
    }

    private void cover(int start, int end) {
      var first = covered.floorEntry(start);
      if (first != null && first.getValue() >= start) {
        start = first.getKey();
        end = Math.max(end, first.getValue());
      }
      for (var next = covered.ceilingEntry(start); next != null && next.getKey() <= end; next = covered.ceilingEntry(start)) {
        end = Math.max(end, next.getValue());
        covered.remove(next.getKey());
      }
      covered.put(start, end);
    }
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
