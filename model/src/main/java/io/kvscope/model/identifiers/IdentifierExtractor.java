package io.kvscope.model.identifiers;

import io.kvscope.model.identifiers.Identifier.Category;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
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

  /** A pattern, the anchors {@link AnchorScan} finds for it, and what a match of it is. */
  private record Rule(AnchoredPattern pattern, int anchors, Category category, Function<MatchResult, String> normalise) {}

  /** In the order they are applied: an earlier find keeps its text from a later pattern's overlapping match. */
  private static final List<Rule> RULES = List.of(
      new Rule(EMAIL, AnchorScan.EMAIL, Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT)),
      new Rule(UUID, AnchorScan.UUID, Category.UUID, m -> m.group().toLowerCase(Locale.ROOT)),
      new Rule(API_KEY, AnchorScan.API_KEY, Category.API_KEY, MatchResult::group),
      new Rule(IBAN, AnchorScan.IBAN, Category.IBAN, m -> m.group().replace(" ", "")),
      new Rule(ACCOUNT, AnchorScan.ACCOUNT, Category.ACCOUNT_NUMBER, m -> m.group(1)),
      new Rule(BARE_NUMBER, AnchorScan.BARE_NUMBER, Category.ACCOUNT_NUMBER, MatchResult::group),
      new Rule(PHONE, AnchorScan.PHONE, Category.PHONE, m -> digits(m.group())));

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
    for (Rule rule : RULES) {
      each(rule, anchors.of(rule.anchors()), text, found);
    }
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

  private static void each(Rule rule, AnchorScan.Positions anchors, String text, Found found) {
    Category category = rule.category();
    rule.pattern().forEachMatch(text, anchors, m -> {
      String value = rule.normalise().apply(m);
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
  static Map<AnchoredPattern, List<MatchResult>> anchoredMatches(String text) {
    AnchorScan anchors = AnchorScan.of(text);
    Map<AnchoredPattern, List<MatchResult>> matches = new LinkedHashMap<>();
    for (Rule rule : RULES) {
      List<MatchResult> found = new ArrayList<>();
      rule.pattern().forEachMatch(text, anchors.of(rule.anchors()), found::add);
      matches.put(rule.pattern(), found);
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
