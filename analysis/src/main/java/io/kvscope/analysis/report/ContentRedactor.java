package io.kvscope.analysis.report;

import io.kvscope.index.store.Redaction;
import io.kvscope.model.identifiers.CanaryMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a leaked span looks in a human report. Redacted (the default): its keyed hash, its length, the
 * data categories found in it and a short masked excerpt that shows the shape of the text (which
 * identifiers, how long the words) without its content:
 * {@code "P****** J*** S****, [email], ####-##-##"}. Revealed: the text itself, capped.
 *
 * <p>Masking keeps the first letter of words of three or more letters, turns every other letter
 * into {@code *} and every digit into {@code #}, and replaces recognised identifiers by their
 * category in brackets, so no identifier survives even partly.
 */
public final class ContentRedactor {

  /** What a report shows of one span. */
  public record Shown(String hash, int length, List<String> categories, String excerpt, boolean revealed) {}

  /**
   * A data category and how to recognise it; order matters (more specific first). Every pattern
   * bounds its repetitions, and the email pattern may only start where a run of address characters
   * starts: a span of megabytes (or one built to make patterns backtrack) costs linear time.
   */
  private record Category(String name, Pattern pattern) {}

  private static final List<Category> CATEGORIES = List.of(
      new Category("canary", Pattern.compile("\\b" + CanaryMarker.ANY_REGEX + "\\b")),
      new Category("email", Pattern.compile(
          "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-])")),
      new Category("uuid", Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b")),
      new Category("api_key", Pattern.compile(
          "\\b(?:sk-[A-Za-z0-9_-]{16,256}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,256}|xox[abpr]-[A-Za-z0-9-]{10,256})")),
      new Category("iban", Pattern.compile("\\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\\b")),
      new Category("card_number", Pattern.compile("\\b(?:[0-9][ -]?){12,18}[0-9]\\b")),
      new Category("ip_address", Pattern.compile("\\b(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\b")),
      // Phone numbers need separators or a country code: a bare digit run is an account number.
      new Category("phone", Pattern.compile(
          "(?<![\\w+])(?:\\+[0-9]{1,3}[ .-]?)?\\(?[0-9]{2,4}\\)?[ .-][0-9]{3,4}[ .-][0-9]{3,4}\\b")),
      new Category("account_number", Pattern.compile("\\b[0-9]{8,17}\\b")));

  private static final int EXCERPT_CHARS = 60;
  private static final int REVEAL_CHARS = 4000;

  private final boolean reveal;
  private final Redaction redaction;

  /** @param redaction the case's keyed hash, for the hash shown of each span */
  public ContentRedactor(boolean reveal, Redaction redaction) {
    this.reveal = reveal;
    this.redaction = redaction;
  }

  public boolean reveals() {
    return reveal;
  }

  /** What to show of {@code text}, or null when the text is not known. */
  public Shown show(String text) {
    if (text == null) {
      return null;
    }
    List<String> categories = categories(text);
    String excerpt = reveal ? cap(text, REVEAL_CHARS) : mask(text, EXCERPT_CHARS);
    return new Shown(redaction.hash(text), text.length(), categories, excerpt, reveal);
  }

  /** The data categories found in {@code text}, in a fixed order, each once. */
  public static List<String> categories(String text) {
    List<String> found = new ArrayList<>();
    String rest = text;
    for (Category category : CATEGORIES) {
      Matcher m = category.pattern().matcher(rest);
      if (m.find()) {
        found.add(category.name());
        // So that an email's digits are not also an account number.
        rest = m.reset().replaceAll(" ");
      }
    }
    return List.copyOf(found);
  }

  /**
   * The masked shape of at most {@code maxChars} characters of {@code text}: identifiers become
   * {@code [category]}, words keep their first letter only, digits become {@code #}, whitespace
   * runs become one space.
   */
  public static String mask(String text, int maxChars) {
    // Only the head can show; the markers below must not occur in the text itself.
    String head = text.length() > maxChars * 4 ? text.substring(0, maxChars * 4) : text;
    String labelled = head.replace('\u0000', '?').replace('\u0001', '?');
    for (Category category : CATEGORIES) {
      labelled = category.pattern().matcher(labelled).replaceAll("\u0000" + category.name() + "\u0001");
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    boolean truncated = head.length() < text.length();
    while (i < labelled.length()) {
      if (out.length() >= maxChars) {
        truncated = true;
        break;
      }

      char c = labelled.charAt(i);
      if (c == '\u0000') {
        int end = labelled.indexOf('\u0001', i);
        out.append('[').append(labelled, i + 1, end).append(']');
        i = end + 1;
      } else if (Character.isLetter(c)) {
        int end = i;
        while (end < labelled.length() && Character.isLetter(labelled.charAt(end))) {
          end++;
        }
        int length = end - i;
        out.append(length >= 3 ? c : '*');
        out.append("*".repeat(length - 1));
        i = end;
      } else if (Character.isDigit(c)) {
        out.append('#');
        i++;
      } else if (Character.isWhitespace(c)) {
        while (i < labelled.length() && Character.isWhitespace(labelled.charAt(i))) {
          i++;
        }
        out.append(' ');
      } else {
        // Punctuation shows structure (JSON, CSV, code) and carries no content by itself.
        out.append(Character.isISOControl(c) ? '?' : c);
        i++;
      }
    }
    String shape = out.length() > maxChars ? out.substring(0, maxChars) : out.toString();
    return truncated || out.length() > maxChars ? shape.strip() + "\u2026" : shape.strip();
  }

  private static String cap(String text, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    return text.substring(0, maxChars) + "\u2026 (" + (text.length() - maxChars) + " more chars)";
  }
}
