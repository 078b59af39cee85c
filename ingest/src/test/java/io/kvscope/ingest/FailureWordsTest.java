package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The issue-37 attack "some bad-line messages print Java class names (ArithmeticException)": every
 * failure a reader may meet is said in words, without its class name and without its own message,
 * which a parser fills with the input's text (here a planted prompt).
 */
class FailureWordsTest {

  private static final String PLANTED = "PROMPT-TEXT-7f3a";

  @Test
  void aFailureIsSaidInWordsWithoutItsClassNameOrItsMessage() {
    List<Throwable> failures = List.of(new NumberFormatException("For input string: \"" + PLANTED + "\""),
        new ArithmeticException("long overflow " + PLANTED), new java.time.DateTimeException(PLANTED),
        new java.io.EOFException(PLANTED), new java.io.UncheckedIOException(new java.io.IOException(PLANTED)),
        new StackOverflowError(PLANTED), new StringIndexOutOfBoundsException(PLANTED),
        new NullPointerException(PLANTED), new IllegalArgumentException(PLANTED), new IllegalStateException(PLANTED),
        new java.nio.charset.MalformedInputException(3));
    for (Throwable failure : failures) {
      String words = FailureWords.of(failure);
      assertThat(words).as(failure.getClass().getName()).isNotBlank().doesNotContain(PLANTED)
          .doesNotContain(failure.getClass().getSimpleName()).doesNotContain("Exception").doesNotContain("Error")
          .doesNotContain("java.");
    }
    assertThat(FailureWords.of(new ArithmeticException("long overflow")))
        .isEqualTo("a number out of the range kvscope computes with");
  }
}
