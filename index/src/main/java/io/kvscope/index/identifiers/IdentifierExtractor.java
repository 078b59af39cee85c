package io.kvscope.index.identifiers;

import io.kvscope.index.identifiers.Identifier.Category;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
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

  private static final Pattern EMAIL = Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,8}");
  private static final Pattern UUID = Pattern.compile(
      "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");
  private static final Pattern API_KEY = Pattern.compile("\\b(?:sk|pk|rk|ak|key|tok)[-_][A-Za-z0-9_-]{16,128}\\b");
  private static final Pattern IBAN = Pattern.compile("\\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b");
  private static final Pattern ACCOUNT = Pattern.compile(
      "\\b(?:acct|account|acc)(?: (?:number|no\\.?|num))?(?: is)?[ #:._-]{0,3}([0-9]{6,18})\\b", Pattern.CASE_INSENSITIVE);
  /** A long bare digit run: an account number written without its label (as a reply would quote it). */
  private static final Pattern BARE_NUMBER = Pattern.compile("(?<![\\w.,+-])[0-9]{10,18}(?![\\w]|[.,][0-9])");
  /** Phone numbers are written with a + or separators; a bare digit run is a {@link #BARE_NUMBER}. */
  private static final Pattern PHONE = Pattern.compile(
      "(?<![\\w+])(?:\\+[0-9]{1,3}[ .-]?|[0-9]{1,3}[ .-])?\\(?[0-9]{2,4}\\)?[ .-][0-9]{3,4}[ .-]?[0-9]{3,4}(?!\\w)");
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
    Found found = new Found();
    canaries(text, found);
    if (text.indexOf('@') >= 0) { // skip the scan for the many texts without one
      each(EMAIL, text, Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT), found);
    }
    each(UUID, text, Category.UUID, m -> m.group().toLowerCase(Locale.ROOT), found);
    each(API_KEY, text, Category.API_KEY, Matcher::group, found);
    each(IBAN, text, Category.IBAN, m -> m.group().replace(" ", ""), found);
    each(ACCOUNT, text, Category.ACCOUNT_NUMBER, m -> m.group(1), found);
    each(BARE_NUMBER, text, Category.ACCOUNT_NUMBER, Matcher::group, found);
    each(PHONE, text, Category.PHONE, m -> digits(m.group()), found);
    List<Identifier> result = new ArrayList<>(found.byTerm.values());
    result.sort(java.util.Comparator.comparingInt(Identifier::start));
    return result;
  }

  private void canaries(String text, Found found) {
    for (String prefix : canaryPrefixes) {
      for (int at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
        int end = at + prefix.length();
        while (end < text.length() && end - at < CANARY_MAX_LENGTH && isMarkerChar(text.charAt(end))) {
          end++;
        }
        if (end > at + prefix.length()) {
          String value = text.substring(at, end);
          found.add(Category.CANARY.id() + ":" + value, new Identifier(Category.CANARY, value, at, end));
        }
      }
    }
  }

  private static boolean isMarkerChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }

  private static void each(Pattern pattern, String text, Category category,
      java.util.function.Function<Matcher, String> normalise, Found found) {
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      String value = normalise.apply(m);
      if (category == Category.PHONE && (value.length() < 9 || value.length() > 15)) {
        continue;
      }
      if (category == Category.IBAN && value.length() < 15) {
        continue;
      }
      if (found.overlaps(m.start(), m.end())) {
        continue; // the digits of an account number or IBAN are not also a phone number
      }
      found.add(category.id() + ":" + value, new Identifier(category, value, m.start(), m.end()));
    }
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
