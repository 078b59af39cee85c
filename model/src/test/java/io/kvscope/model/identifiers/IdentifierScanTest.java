package io.kvscope.model.identifiers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.identifiers.Identifier.Category;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The extractor, whose patterns are tried only at the anchors one scan of the text finds, finds
 * exactly what the plain semantics find: every pattern's {@link Matcher#find()} loop over the whole
 * text, in the extractor's order, each find kept unless it is too short or long for its kind or
 * overlaps an earlier kept identifier, the first occurrence of each term. Texts are shaped like
 * gateway prompts and replies (chat turns, JSON tool output, log lines, tables, code) with
 * identifiers of every kind at random places: next to each other and overlapping, cut at either end
 * of the text, around non-ASCII text (surrogate pairs, combining marks, non-ASCII digits and
 * spaces, letters that fold to ASCII).
 */
class IdentifierScanTest {

  private static final List<String> CANARY_PREFIXES = List.of("KVCANARY-", "PROBE_");

  private static final String[] FRAMES = {
    "System: You are the support assistant of Northwind Bank. Never repeat a customer's details.\nUser: ",
    "{\"role\":\"tool\",\"content\":{\"customer\":{\"email\":\"%s\",\"notes\":\"",
    "2026-12-07T09:12:33.123Z INFO gateway req=%s route=/v1/chat/completions status=200 ",
    "| field | value |\n|---|---|\n| contact | %s |\n| ",
    "def charge(account):\n    api_key = \"%s\"  # rotate weekly\n    return client.post(",
    "Assistant: I have updated the record. Résumé attached; naïve café façade — ",
    "ユーザー: 口座番号を確認してください。 ",
    "المستخدم: رقم الحساب ",
    "",
  };

  /** Non-ASCII and ASCII text between identifiers, some of it glued to them. */
  private static final String[] GLUE = {
    " ", "", "", "\n", ". ", ", ", "-", "_", "@", "+", "(", ")", ".", ":", " #", "x", "Z9", "\u00a0", "\u200b",
    "\u3000", "日本", "😀", "e\u0301", "İ", "\u212a", "ſ", "１２３４５６７８９０", "٠١٢٣٤٥٦٧٨٩", "ß", "Ω", "\t",
    " the account ", " call ", " ref ", " key ", "\r\n", "’s ", "…", "«", "»", "—"
  };

  @Test
  void findsExactlyWhatThePlainScansFindInGatewayShapedText() {
    Random random = new Random(39);
    IdentifierExtractor extractor = new IdentifierExtractor(CANARY_PREFIXES);
    int withIdentifiers = 0;
    for (int round = 0; round < 4_000; round++) {
      String text = gatewayText(random, 1 + random.nextInt(40));
      List<Identifier> found = extractor.extract(text);
      assertThat(found).as("round %d: %s", round, text).isEqualTo(plainExtract(text));
      withIdentifiers += found.isEmpty() ? 0 : 1;
    }
    assertThat(withIdentifiers).isGreaterThan(3_000); // the texts do hold identifiers
  }

  @Test
  void findsExactlyWhatThePlainScansFindAtTheEndsOfTheText() {
    Random random = new Random(7);
    IdentifierExtractor extractor = new IdentifierExtractor(CANARY_PREFIXES);
    Set<Category> seen = new HashSet<>();
    for (int round = 0; round < 3_000; round++) {
      // An identifier, maybe with its neighbours, cut anywhere: every prefix and suffix a text can end in.
      String whole = identifier(random) + glue(random) + identifier(random);
      int from = random.nextInt(3) == 0 ? random.nextInt(whole.length()) : 0;
      int to = random.nextInt(3) == 0 ? from + random.nextInt(whole.length() - from + 1) : whole.length();
      String text = whole.substring(from, to);
      List<Identifier> found = extractor.extract(text);
      assertThat(found).as("round %d: %s", round, text).isEqualTo(plainExtract(text));
      found.forEach(i -> seen.add(i.category()));
    }
    assertThat(seen).containsExactlyInAnyOrder(Category.values());
  }

  @Test
  void findsExactlyWhatThePlainScansFindInALongPrompt() {
    Random random = new Random(2026);
    StringBuilder text = new StringBuilder();
    while (text.length() < 400_000) {
      text.append(gatewayText(random, 30)).append("\n\n");
    }
    String prompt = text.toString();
    List<Identifier> found = new IdentifierExtractor(CANARY_PREFIXES).extract(prompt);
    assertThat(found).isEqualTo(plainExtract(prompt));
    assertThat(found).extracting(Identifier::category).contains(Category.values());
  }

  private static String gatewayText(Random random, int identifiers) {
    StringBuilder text = new StringBuilder();
    String frame = FRAMES[random.nextInt(FRAMES.length)];
    text.append(frame.contains("%s") ? String.format(frame, identifier(random)) : frame);
    for (int i = 0; i < identifiers; i++) {
      text.append(glue(random)).append(identifier(random));
      if (random.nextInt(4) == 0) {
        text.append(FRAMES[random.nextInt(FRAMES.length)].replace("%s", ""));
      }
    }
    if (random.nextBoolean()) {
      text.append(glue(random)); // else the text ends in an identifier
    }
    return text.toString();
  }

  private static String glue(Random random) {
    return GLUE[random.nextInt(GLUE.length)];
  }

  /** An identifier of a random kind, sometimes one a char too short or too long to be one. */
  private static String identifier(Random random) {
    return switch (random.nextInt(12)) {
      case 0 -> pick(random, "Ana.Lopez", "j.doe+billing", "X", "a".repeat(64), "b".repeat(65), "o'brien", "user_42")
          + "@" + pick(random, "Example.COM", "mail.northwind.co.uk", "c.d", "host", "sub-1.example.org");
      case 1 -> hex(random, 8) + "-" + hex(random, 4) + "-" + hex(random, 4) + "-" + hex(random, 4) + "-"
          + hex(random, 11 + random.nextInt(3));
      case 2 -> pick(random, "sk", "pk", "rk", "ak", "key", "tok", "xsk", "Sk", "monkey") + pick(random, "-", "_")
          + alnum(random, 14 + random.nextInt(6) + (random.nextInt(8) == 0 ? 120 : 0));
      case 3 -> pick(random, "DE89 3704 0044 0532 0130 00", "GB29NWBK60161331926819", "FR14 2004 1010 0505 0001 3M02 606",
          "NL91ABNA0417164300", "DE89 3704", "XX00 ABCD EFGH IJKL MNOP QRST UVWX YZ12 345");
      case 4 -> pick(random, "acct #", "Account number is ", "ACC:", "acc no. ", "account num: ", "Acct-", "access ",
          "acc") + digits(random, 5 + random.nextInt(15));
      case 5 -> digits(random, 9 + random.nextInt(11)) + pick(random, "", "", ".5", ",25", "x");
      case 6 -> pick(random, "+44 20 7946 0958", "(020) 7946-0958", "415.555.0134", "1-800-555-0199", "+1 415 555 2671",
          "12 345 678", "(20) 7946 0958", "+4915112345678", "020 7946 0958");
      case 7 -> pick(random, "KVCANARY-", "PROBE_", "KVCANARY_", "KVCANARY-KVCANARY-") + alnum(random, random.nextInt(100));
      case 8 -> "2026-12-07 " + digits(random, 2) + ":" + digits(random, 2);
      case 9 -> pick(random, "ACCT", "DE", "GB", "sk", "acc", "+", "(", "-", "--", "@@", "key-");
      case 10 -> digits(random, 1 + random.nextInt(8)) + pick(random, " ", "-", ".") + digits(random, 1 + random.nextInt(8));
      default -> pick(random, "the", "Access", "ACCOUNTS", "Backup", "tokyo", "skip", "keyboard", "AB12", "MAC99");
    };
  }

  private static String pick(Random random, String... options) {
    return options[random.nextInt(options.length)];
  }

  private static String digits(Random random, int count) {
    return chars(random, count, "0123456789");
  }

  private static String hex(Random random, int count) {
    return chars(random, count, "0123456789abcdefABCDEF");
  }

  private static String alnum(Random random, int count) {
    return chars(random, count, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-");
  }

  private static String chars(Random random, int count, String alphabet) {
    StringBuilder out = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }

  // ---- the plain semantics: every pattern's find loop over the whole text, kept as the extractor documents

  private record Kind(Category category, Function<MatchResult, String> value) {}

  /** The categories and normal forms of the extractor's patterns, in its order. */
  private static final List<Kind> KINDS = List.of(
      new Kind(Category.EMAIL, m -> m.group().toLowerCase(Locale.ROOT)),
      new Kind(Category.UUID, m -> m.group().toLowerCase(Locale.ROOT)),
      new Kind(Category.API_KEY, MatchResult::group),
      new Kind(Category.IBAN, m -> m.group().replace(" ", "")),
      new Kind(Category.ACCOUNT_NUMBER, m -> m.group(1)),
      new Kind(Category.ACCOUNT_NUMBER, MatchResult::group),
      new Kind(Category.PHONE, m -> m.group().replaceAll("[^0-9]", "")));

  private static List<Identifier> plainExtract(String text) {
    List<Identifier> kept = new ArrayList<>();
    Set<String> terms = new HashSet<>();
    for (String prefix : CANARY_PREFIXES) {
      for (int at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
        int end = at + prefix.length();
        while (end < text.length() && end - at - prefix.length() < CanaryMarker.MAX_BODY
            && String.valueOf(text.charAt(end)).matches("[A-Za-z0-9_-]")) {
          end++;
        }
        if (end > at + prefix.length()) {
          keep(new Identifier(Category.CANARY, text.substring(at, end), at, end), kept, terms);
        }
      }
    }
    List<Pattern> patterns = IdentifierExtractor.anchoredMatches("").keySet().stream().map(AnchoredPattern::pattern).toList();
    assertThat(patterns).hasSameSizeAs(KINDS);
    for (int p = 0; p < patterns.size(); p++) {
      Kind kind = KINDS.get(p);
      Matcher m = patterns.get(p).matcher(text);
      while (m.find()) {
        String value = kind.value().apply(m);
        boolean tooShortOrLong = kind.category() == Category.PHONE ? value.length() < 9 || value.length() > 15
            : kind.category() == Category.IBAN && value.length() < 15;
        int start = m.start();
        int end = m.end();
        boolean overlaps = kept.stream().anyMatch(k -> k.start() < end && start < k.end());
        if (!tooShortOrLong && !overlaps) {
          keep(new Identifier(kind.category(), value, start, end), kept, terms);
        }
      }
    }
    kept.sort(Comparator.comparingInt(Identifier::start));
    return kept;
  }

  private static void keep(Identifier identifier, List<Identifier> kept, Set<String> terms) {
    if (terms.add(identifier.term())) {
      kept.add(identifier);
    }
  }
}
