package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpanVerifierTest {

  private final SpanVerifier verifier = new SpanVerifier(FingerprintConfig.defaults());
  private final Words words = new Words(42);

  /** A text built from word parts, remembering where each part starts in chars and tokens. */
  private static final class Built {
    final StringBuilder text = new StringBuilder();
    final List<int[]> parts = new java.util.ArrayList<>(); // {charStart, charEnd, tokStart, tokEnd}
    int tokens;

    Built add(String separator, List<String> part) {
      if (text.length() > 0) {
        text.append(separator);
      }
      int charStart = text.length();
      text.append(String.join(separator, part));
      parts.add(new int[] {charStart, text.length(), tokens, tokens + part.size()});
      tokens += part.size();
      return this;
    }

    Built add(List<String> part) {
      return add(" ", part);
    }

    int[] part(int i) {
      return parts.get(i);
    }

    TokenizedText tokenized() {
      return WordTokenizer.tokenize(text.toString());
    }
  }

  @Test
  void findsAFortyTokenSpanWithExactOffsetsInBothTexts() {
    List<String> span = words.words(40);
    Built source = new Built().add(words.words(30)).add(span).add(words.words(30));
    Built recipient = new Built().add(words.words(25)).add(span).add(words.words(25));

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(1);
    SharedSpan shared = found.get(0);
    assertThat(shared.tokenCount()).isEqualTo(40);
    assertThat(shared.parts()).hasSize(1);
    SpanMatch match = shared.parts().get(0);
    assertRange(match.recipient(), recipient.part(1));
    assertRange(match.source(), source.part(1));
    assertThat(shared.recipient()).isEqualTo(match.recipient());
    assertThat(recipient.text.substring(shared.recipient().charStart(), shared.recipient().charEnd()))
        .isEqualTo(Words.join(span));
  }

  @Test
  void aRunOfTMinusOneTokensIsNotReportedAndARunOfTIs() {
    int t = verifier.config().threshold();
    List<String> short1 = words.words(t - 1);
    Built source = new Built().add(words.words(10)).add(short1).add(words.words(10));
    Built recipient = new Built().add(words.words(10)).add(short1).add(words.words(10));
    assertThat(verifier.verify(recipient.tokenized(), source.tokenized())).isEmpty();

    List<String> exact = words.words(t);
    Built source2 = new Built().add(words.words(10)).add(exact).add(words.words(10));
    Built recipient2 = new Built().add(words.words(10)).add(exact).add(words.words(10));
    List<SharedSpan> found = verifier.verify(recipient2.tokenized(), source2.tokenized());
    assertThat(found).hasSize(1);
    assertThat(found.get(0).tokenCount()).isEqualTo(t);
  }

  @Test
  void caseAndSeparatorsDoNotMatterAndOffsetsPointAtTheOriginalSpelling() {
    List<String> span = words.words(32);
    List<String> shouted = span.stream().map(w -> w.toUpperCase(Locale.ROOT)).toList();
    Built source = new Built().add(words.words(5)).add(span).add(words.words(5));
    Built recipient = new Built().add(words.words(7)).add(" -- ", shouted).add(words.words(3));

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(1);
    assertRange(found.get(0).recipient(), recipient.part(1));
    assertThat(recipient.text.substring(
            found.get(0).recipient().charStart(), found.get(0).recipient().charEnd()))
        .isEqualTo(String.join(" -- ", shouted));
  }

  @Test
  void offsetsAreExactAfterSupplementaryAndUnspacedText() {
    List<String> span = List.of(
        "Überweisung", "an", "konto", "DE44-5001-0517-5407-3249-31", "für", "müller@example.de")
        .stream().toList();
    List<String> longSpan = Words.concat(span, words.words(20), span);
    Built source = new Built().add(List.of("東京都に住む", "😀😀", "\uD801\uDC00x")).add(longSpan);
    Built recipient = new Built().add(List.of("ไทย", "😀")).add(longSpan).add(List.of("😀"));

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(1);
    assertThat(found.get(0).tokenCount()).isEqualTo(longSpan.size());
    SpanMatch match = found.get(0).parts().get(0);
    assertThat(source.text.substring(match.source().charStart(), match.source().charEnd()))
        .isEqualTo(Words.join(longSpan));
    assertThat(recipient.text.substring(match.recipient().charStart(), match.recipient().charEnd()))
        .isEqualTo(Words.join(longSpan));
  }

  @Test
  void separateSpansAreReportedSeparatelyInRecipientOrder() {
    List<String> first = words.words(25);
    List<String> second = words.words(30);
    Built source = new Built().add(second).add(words.words(40)).add(first);
    Built recipient =
        new Built().add(words.words(5)).add(first).add(words.words(8)).add(second);

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(2);
    assertRange(found.get(0).parts().get(0).recipient(), recipient.part(1));
    assertRange(found.get(0).parts().get(0).source(), source.part(2));
    assertRange(found.get(1).parts().get(0).recipient(), recipient.part(3));
    assertRange(found.get(1).parts().get(0).source(), source.part(0));
  }

  @Test
  void overlappingMatchesFromTwoSourcePlacesMergeIntoOneSpanWithTwoParts() {
    List<String> x = words.words(50);
    Built source = new Built()
        .add(words.words(10)).add(x.subList(0, 30)).add(words.words(10)).add(x.subList(20, 50));
    Built recipient = new Built().add(words.words(10)).add(x).add(words.words(10));

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(1);
    SharedSpan shared = found.get(0);
    assertThat(shared.tokenCount()).isEqualTo(50);
    assertRange(shared.recipient(), recipient.part(1));
    assertThat(shared.parts()).hasSize(2);
    assertThat(shared.parts().get(0).tokenCount()).isEqualTo(30);
    assertRange(shared.parts().get(0).source(), source.part(1));
    assertThat(shared.parts().get(1).tokenCount()).isEqualTo(30);
    assertRange(shared.parts().get(1).source(), source.part(3));
    assertThat(shared.parts().get(1).recipient().tokenStart())
        .isEqualTo(recipient.part(1)[2] + 20);
  }

  @Test
  void aPassageRepeatedInTheSourceIsReportedOnce() {
    List<String> span = words.words(24);
    Built source = new Built().add(span).add(words.words(7)).add(span);
    Built recipient = new Built().add(words.words(3)).add(span);

    List<SharedSpan> found = verifier.verify(recipient.tokenized(), source.tokenized());

    assertThat(found).hasSize(1);
    assertThat(found.get(0).parts()).hasSize(1);
    assertRange(found.get(0).parts().get(0).source(), source.part(0));
  }

  @Test
  void whatTheOwnPromptExplainsIsSubtractedAndLongEnoughRemaindersStay() {
    List<String> x = words.words(80);
    Built source = new Built().add(words.words(12)).add(x).add(words.words(12));
    Built response = new Built().add(words.words(6)).add(x).add(words.words(6));
    Built ownPrompt =
        new Built().add(words.words(40)).add(x.subList(30, 55)).add(words.words(40));

    List<SharedSpan> left =
        verifier.unexplainedSpans(response.tokenized(), source.tokenized(), ownPrompt.tokenized());

    int r0 = response.part(1)[2];
    int s0 = source.part(1)[2];
    assertThat(left).hasSize(2);
    assertThat(left.get(0).parts().get(0).recipient().tokenStart()).isEqualTo(r0);
    assertThat(left.get(0).tokenCount()).isEqualTo(30);
    assertThat(left.get(0).parts().get(0).source().tokenStart()).isEqualTo(s0);
    assertThat(left.get(1).parts().get(0).recipient().tokenStart()).isEqualTo(r0 + 55);
    assertThat(left.get(1).tokenCount()).isEqualTo(25);
    assertThat(left.get(1).parts().get(0).source().tokenStart()).isEqualTo(s0 + 55);
    TokenizedText sourceTokens = source.tokenized();
    TextRange src = left.get(1).parts().get(0).source();
    assertThat(source.text.substring(src.charStart(), src.charEnd()))
        .isEqualTo(Words.join(x.subList(55, 80)));
    assertThat(src.charStart()).isEqualTo(sourceTokens.start(s0 + 55));
  }

  @Test
  void remaindersShorterThanTAreDroppedAndShortOwnPromptOverlapExplainsNothing() {
    List<String> x = words.words(80);
    Built source = new Built().add(x);
    Built response = new Built().add(words.words(4)).add(x);

    Built mostlyExplaining = new Built().add(x.subList(10, 70));
    assertThat(verifier.unexplainedSpans(
            response.tokenized(), source.tokenized(), mostlyExplaining.tokenized()))
        .isEmpty();

    Built barelyOverlapping = new Built().add(words.words(9)).add(x.subList(40, 52));
    List<SharedSpan> left = verifier.unexplainedSpans(
        response.tokenized(), source.tokenized(), barelyOverlapping.tokenized());
    assertThat(left).hasSize(1);
    assertThat(left.get(0).tokenCount()).isEqualTo(80);
  }

  @Test
  void coverageOverSeveralSourcesCountsEachTokenOnce() {
    List<String> r = words.words(150);
    Built response = new Built().add(r);
    Built sourceA = new Built().add(words.words(5)).add(r.subList(10, 50));
    Built sourceB = new Built()
        .add(r.subList(40, 70)).add(words.words(5)).add(r.subList(100, 130));
    TokenizedText recipient = response.tokenized();

    Map<String, List<SharedSpan>> bySource = new LinkedHashMap<>();
    bySource.put("A", verifier.verify(recipient, sourceA.tokenized()));
    bySource.put("B", verifier.verify(recipient, sourceB.tokenized()));
    ResponseCoverage<String> coverage = ResponseCoverage.of(bySource);

    // Covered: [10, 70) and [100, 130); A alone [10, 40); B alone [50, 70) and [100, 130).
    assertThat(coverage.coveredTokens()).isEqualTo(90);
    assertThat(coverage.covered()).hasSize(2);
    assertThat(coverage.covered().get(0).tokenStart()).isEqualTo(10);
    assertThat(coverage.covered().get(0).tokenEnd()).isEqualTo(70);
    assertThat(coverage.covered().get(0).charStart()).isEqualTo(recipient.start(10));
    assertThat(coverage.covered().get(0).charEnd()).isEqualTo(recipient.end(69));
    assertThat(coverage.tokensBySource()).containsEntry("A", 40).containsEntry("B", 60);
    assertThat(coverage.exclusiveTokensBySource()).containsEntry("A", 30).containsEntry("B", 50);
    assertThat(coverage.tokensCoveredByMoreThanOneSource()).isEqualTo(10);
  }

  @Test
  void degenerateRepetitionStaysFast() {
    String repeated = "la ".repeat(20_000);
    TokenizedText a = WordTokenizer.tokenize(repeated);
    TokenizedText b = WordTokenizer.tokenize("intro " + repeated);

    List<SharedSpan> found =
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> verifier.verify(a, b));

    assertThat(found).hasSize(1);
    assertThat(found.get(0).tokenCount()).isEqualTo(20_000);
  }

  @Test
  void textsShorterThanTHaveNoSpans() {
    TokenizedText small = WordTokenizer.tokenize("just a few words");
    assertThat(verifier.verify(small, small)).isEmpty();
  }

  private static void assertRange(TextRange range, int[] expected) {
    assertThat(new int[] {range.charStart(), range.charEnd(), range.tokenStart(), range.tokenEnd()})
        .containsExactly(expected);
  }
}
