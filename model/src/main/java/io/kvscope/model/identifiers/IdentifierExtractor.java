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
  static final int ACCOUNT_DIGITS_WITHIN = 7 + 7 + 3 + 3;
  /** "+123-" "(" 4 digits ")" " " 4 digits "-" 4 digits. */
  static final int PHONE_MAX_LENGTH = 5 + 1 + 4 + 1 + 1 + 4 + 1 + 4;
  /** Digits every phone match has (2 + 3 + 3). */
  static final int PHONE_MIN_DIGITS = 8;

  // Each pattern is tried only near its anchors (see AnchoredPattern; AnchorScan finds them): lead is
  // the most chars from a match's start to its anchor, maxLength the longest possible match.
  private static final AnchoredPattern EMAIL = new AnchoredPattern(
      Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,8}"),
      64, 64 + 1 + 63 + 8 * 64);
  private static final AnchoredPattern UUID = new AnchoredPattern(Pattern.compile(
      "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"),
      8, 36);
  private static final AnchoredPattern API_KEY = new AnchoredPattern(
      Pattern.compile("\\b(?:sk|pk|rk|ak|key|tok)[-_][A-Za-z0-9_-]{16,128}\\b"),
      3, 3 + 1 + 128);
  private static final AnchoredPattern IBAN = new AnchoredPattern(
      Pattern.compile("\\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b"),
      0, 4 + 7 * 5 + 4);
  private static final AnchoredPattern ACCOUNT = new AnchoredPattern(Pattern.compile(
      "\\b(?:acct|account|acc)(?: (?:number|no\\.?|num))?(?: is)?[ #:._-]{0,3}([0-9]{6,18})\\b", Pattern.CASE_INSENSITIVE),
      0, ACCOUNT_DIGITS_WITHIN + 18);
  /** A long bare digit run: an account number written without its label (as a reply would quote it). */
  private static final AnchoredPattern BARE_NUMBER = new AnchoredPattern(
      Pattern.compile("(?<![\\w.,+-])[0-9]{10,18}(?![\\w]|[.,][0-9])"),
      0, 18);
  /** Phone numbers are written with a + or separators; a bare digit run is a {@link #BARE_NUMBER}. */
  private static final AnchoredPattern PHONE = new AnchoredPattern(Pattern.compile(
      "(?<![\\w+])(?:\\+[0-9]{1,3}[ .-]?|[0-9]{1,3}[ .-])?\\(?[0-9]{2,4}\\)?[ .-][0-9]{3,4}[ .-]?[0-9]{3,4}(?!\\w)"),
      0, PHONE_MAX_LENGTH);

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
    AnchorScan anchors = AnchorScan.of(text);
    each(EMAIL, anchors.of(AnchorScan.EMAIL), text, Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(UUID, anchors.of(AnchorScan.UUID), text, Category.UUID, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(API_KEY, anchors.of(AnchorScan.API_KEY), text, Category.API_KEY, MatchResult::group, found);
    each(IBAN, anchors.of(AnchorScan.IBAN), text, Category.IBAN, m -> m.group().replace(" ", ""), found);
    each(ACCOUNT, anchors.of(AnchorScan.ACCOUNT), text, Category.ACCOUNT_NUMBER, m -> m.group(1), found);
    each(BARE_NUMBER, anchors.of(AnchorScan.BARE_NUMBER), text, Category.ACCOUNT_NUMBER, MatchResult::group, found);
    each(PHONE, anchors.of(AnchorScan.PHONE), text, Category.PHONE, m -> digits(m.group()), found);
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

  private static void each(AnchoredPattern pattern, AnchorScan.Positions anchors, String text, Category category,
      java.util.function.Function<MatchResult, String> normalise, Found found) {
    pattern.forEachMatch(text, anchors, m -> {
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

  /**
   * Every pattern's anchored matches in {@code text}, in the order the patterns are applied, with
   * the pattern: for tests that compare them with a plain scan.
   */
  static java.util.Map<AnchoredPattern, List<MatchResult>> anchoredMatches(String text) {
    AnchorScan anchors = AnchorScan.of(text);
    List<AnchoredPattern> patterns = List.of(EMAIL, UUID, API_KEY, IBAN, ACCOUNT, BARE_NUMBER, PHONE);
    java.util.Map<AnchoredPattern, List<MatchResult>> matches = new LinkedHashMap<>();
    for (int p = 0; p < patterns.size(); p++) {
      List<MatchResult> found = new ArrayList<>();
      patterns.get(p).forEachMatch(text, anchors.of(p), found::add);
      matches.put(patterns.get(p), found);
    }
    return matches;
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
