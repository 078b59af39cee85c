package io.kvscope.model.fingerprint;

import java.util.Arrays;

/**
 * Cuts text into case-folded word tokens with their char offsets, in one pass and without
 * copying the text.
 *
 * <ul>
 *   <li>A word is a run of letters, digits (any script), combining marks and connector
 *       punctuation such as {@code _}. Everything else separates words and is dropped: spaces,
 *       punctuation, symbols, emoji.
 *   <li>Identifiers stay whole so they remain matchable as one unit: a single joiner between two
 *       word characters continues the word. Joiners are {@code . @ - ' ’ : / +} (and the Unicode
 *       hyphens), and {@code ,} between two digits. So {@code john.doe@example.com},
 *       {@code sk-proj-AbC123}, {@code 0.5.22}, {@code 12,345.67}, {@code don't} and
 *       {@code 10:30} are one token each, while a trailing period or a {@code ://} splits.
 *   <li>Scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar,
 *       Tibetan) give one token per character (with its combining marks), so shared runs in them
 *       are measured in characters.
 *   <li>Folding is {@link Character#toLowerCase(int)} per code point, which ignores the default
 *       locale (no Turkish-i surprises); {@code ’} folds to {@code '} and Unicode hyphens to
 *       {@code -}. No Unicode normalisation is applied: a leaked fragment is reproduced verbatim,
 *       so composed and decomposed forms are not expected to mix.
 * </ul>
 *
 * <p>The result depends only on the text and the JDK's Unicode character data (stable for all
 * characters assigned before Unicode 15), never on locale, default charset or hash seeds.
 */
public final class WordTokenizer {

  private static final int OTHER = 0;
  private static final int WORD = 1;
  private static final int STANDALONE = 2;

  private WordTokenizer() {}

  /** Tokenizes {@code text}; a {@code null} or empty text has no tokens. */
  public static TokenizedText tokenize(String text) {
    if (text == null) {
      text = "";
    }
    Tokens tokens = scan(text, true);
    int count = tokens.count;
    return new TokenizedText(
        text,
        Arrays.copyOf(tokens.starts, count),
        Arrays.copyOf(tokens.ends, count),
        Arrays.copyOf(tokens.hashes, count));
  }

  /**
   * The hashes of {@code text}'s tokens, as {@link TokenizedText#hash} has them, without their
   * offsets: all the fingerprints need.
   */
  static Tokens hashes(String text) {
    return scan(text == null ? "" : text, false);
  }

  /**
   * Tokens in arrays that may be longer than their {@link #count}; {@link #starts} and
   * {@link #ends} are null when the offsets were not asked for.
   */
  static final class Tokens {
    final int[] starts;
    final int[] ends;
    final long[] hashes;
    final int count;

    private Tokens(int[] starts, int[] ends, long[] hashes, int count) {
      this.starts = starts;
      this.ends = ends;
      this.hashes = hashes;
      this.count = count;
    }
  }

  private static Tokens scan(String text, boolean withOffsets) {
    int n = text.length();
    int capacity = Math.max(16, n / 6);
    int[] starts = withOffsets ? new int[capacity] : null;
    int[] ends = withOffsets ? new int[capacity] : null;
    long[] hashes = new long[capacity];
    int count = 0;

    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      int kind = kind(cp);
      if (kind == OTHER) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      long h = HashMixing.FNV_OFFSET;
      if (kind == STANDALONE) {
        h = HashMixing.fnvStep(h, fold(cp));
        i += Character.charCount(cp);
        while (i < n) {
          int mark = text.codePointAt(i);
          if (!isMark(mark)) {
            break;
          }
          h = HashMixing.fnvStep(h, fold(mark));
          i += Character.charCount(mark);
        }
      } else {
        int last = cp;
        while (true) {
          while (i < n) {
            int c = text.codePointAt(i);
            if (kind(c) != WORD) {
              break;
            }
            h = HashMixing.fnvStep(h, fold(c));
            last = c;
            i += Character.charCount(c);
          }
          if (i >= n) {
            break;
          }
          int joiner = text.codePointAt(i);
          int after = i + Character.charCount(joiner);
          if (after >= n || !isJoiner(joiner)) {
            break;
          }
          int next = text.codePointAt(after);
          if (kind(next) != WORD
              || (joiner == ',' && !(Character.isDigit(last) && Character.isDigit(next)))) {
            break;
          }
          h = HashMixing.fnvStep(h, fold(joiner));
          i = after;
        }
      }
      if (count == hashes.length) {
        int grown = count + (count >> 1) + 16;
        hashes = Arrays.copyOf(hashes, grown);
        if (withOffsets) {
          starts = Arrays.copyOf(starts, grown);
          ends = Arrays.copyOf(ends, grown);
        }
      }
      if (withOffsets) {
        starts[count] = start;
        ends[count] = i;
      }
      hashes[count] = HashMixing.fmix64(h);
      count++;
    }
    return new Tokens(starts, ends, hashes, count);
  }

  /** The folded form of one code point of a token: lower case, with joiner variants unified. */
  static int fold(int cp) {
    if (cp < 0x80) {
      return cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp;
    }
    switch (cp) {
      case 0x2019: // right single quotation mark, the typographic apostrophe
        return '\'';
      case 0x2010: // hyphen
      case 0x2011: // non-breaking hyphen
        return '-';
      default:
        return Character.toLowerCase(cp);
    }
  }

  private static boolean isJoiner(int cp) {
    switch (cp) {
      case '.':
      case '@':
      case '-':
      case '\'':
      case ':':
      case '/':
      case '+':
      case ',':
      case 0x2019:
      case 0x2010:
      case 0x2011:
        return true;
      default:
        return false;
    }
  }

  private static int kind(int cp) {
    if (cp < 0x80) {
      return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
              || cp == '_'
          ? WORD
          : OTHER;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER:
      case Character.LOWERCASE_LETTER:
      case Character.TITLECASE_LETTER:
      case Character.MODIFIER_LETTER:
      case Character.OTHER_LETTER:
      case Character.DECIMAL_DIGIT_NUMBER:
      case Character.LETTER_NUMBER:
      case Character.OTHER_NUMBER:
        return cp >= 0x0E00 && isUnspacedScript(cp) ? STANDALONE : WORD;
      case Character.NON_SPACING_MARK:
      case Character.COMBINING_SPACING_MARK:
      case Character.ENCLOSING_MARK:
      case Character.CONNECTOR_PUNCTUATION:
        return WORD;
      default:
        return OTHER;
    }
  }

  private static boolean isMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  private static boolean isUnspacedScript(int cp) {
    switch (Character.UnicodeScript.of(cp)) {
      case HAN:
      case HIRAGANA:
      case KATAKANA:
      case THAI:
      case LAO:
      case KHMER:
      case MYANMAR:
      case TIBETAN:
        return true;
      default:
        return false;
    }
  }
}
