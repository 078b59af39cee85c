package io.kvscope.model.identifiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

class AnchoredPatternTest {

  /** Pieces that make every pattern match, almost match, overlap and touch each other. */
  private static final String[] PIECES = {
    "a", "B", "x9", "_", "-", ".", "@", "+", " ", "(", ")", "#", ":", "%", "7", "42", "0958",
    "123", "sk", "pk", "key", "tok", "acc", "ACCT", "account", "DE", "89", "3704", "GB29",
    "e89b", "123e4567", "426614174000", "ex.com", "mail", "é", "日", "\n", "sk-", "_tok_",
    "acct #", "+44 ", "KVCANARY-", "0044", "abcdef0123456789", "account: ", "(020) ", "Acc-", "000000",
    " number", " is ", " no.", "num", "1234567890", "98765432109876543210", ",5", "(12)", "-"
  };

  @Test
  void findsExactlyWhatAPlainScanFindsOnDenseRandomText() {
    Random random = new Random(7);
    for (int round = 0; round < 3_000; round++) {
      StringBuilder text = new StringBuilder();
      int pieces = 1 + random.nextInt(120);
      for (int p = 0; p < pieces; p++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      assertSameMatches(text.toString());
    }
  }

  @Test
  void findsExactlyWhatAPlainScanFindsAroundRealIdentifiers() {
    String text = "Mail Ana.Lopez@Example.COM or a.b@c.d@e.f, call +44 20 7946 0958 or (020) 7946-0958, "
        + "acct #004512339876 and ACCOUNT:12345678901234567890123, IBAN DE89 3704 0044 0532 0130 00 "
        + "GB29NWBK60161331926819, keys sk-live_4f9a8b7c6d5e4f3a2b1c and xsk-live_4f9a8b7c6d5e4f3a2b1c, "
        + "tok_" + "a".repeat(200) + " ticket 123e4567-e89b-12d3-a456-426614174000x 123e4567-e89b-12d3-a456-426614174000 "
        + "x".repeat(70) + "@long.example.org " + "y".repeat(64) + "@ok.example.org"
        // the shortest forms the anchors' digit checks must still let through
        + " call 1 23 456 789 or (1)23-456-789, account - 123456, acct:123456 acc123456."
        + " Account number is 004512339876, ACCT NO. #12345678, account num: 1234567, quoted 0045123398761."
        + " not 1234567890.5 or x1234567890, but (20) 7946 0958 and 12 345 678.";
    assertSameMatches(text);
    assertSameMatches(text.repeat(3));
  }

  private static void assertSameMatches(String text) {
    for (var patternMatches : IdentifierExtractor.anchoredMatches(text).entrySet()) {
      AnchoredPattern pattern = patternMatches.getKey();
      List<String> anchored = patternMatches.getValue().stream().map(AnchoredPatternTest::describe).toList();
      List<String> plain = new ArrayList<>();
      Matcher m = pattern.pattern().matcher(text);
      while (m.find()) {
        plain.add(describe(m));
      }
      assertThat(anchored).as("%s on %s", pattern.pattern(), text).isEqualTo(plain);
    }
  }

  private static String describe(MatchResult m) {
    StringBuilder s = new StringBuilder().append(m.start()).append('-').append(m.end()).append(':').append(m.group());
    for (int g = 1; g <= m.groupCount(); g++) {
      s.append('|').append(m.group(g));
    }
    return s.toString();
  }
}
