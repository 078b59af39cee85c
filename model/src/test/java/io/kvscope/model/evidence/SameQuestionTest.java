package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SameQuestionTest {

  @Test
  void theSameShortQuestionUnderDifferentSystemPromptsIsTheSameQuestion() {
    String q = "give me JavaScript code to calculate pi";
    assertThat(SameQuestion.asked("You are a careful assistant.\n" + q, "You help the staff of Acme.\nBe brief.\n" + q))
        .isTrue();
    assertThat(SameQuestion.asked(q, "Our own system prompt.\n" + q)).isTrue();
    assertThat(SameQuestion.asked(q + "\n", q)).isTrue();
  }

  @Test
  void aShortQuestionWrittenWithoutSpacesIsMeasuredInCharacters() {
    String q = "说说怎么建立健全的小区安全防控体系，要具体的"; // two runs between punctuation, 21 characters
    assertThat(SameQuestion.asked("You are a careful assistant.\n" + q, "You help the staff of Acme.\n" + q)).isTrue();
    assertThat(SameQuestion.asked("第一个问题\n谢谢！", "另一个问题\n谢谢！")).as("a shared two-character last line").isFalse();
  }

  @Test
  void differentQuestionsOrAQuestionEndingLikeAnotherAreNot() {
    assertThat(SameQuestion.asked("sys\ngive me JavaScript code to calculate pi", "sys\ngive me Python code to calculate pi"))
        .as("the common ending does not start a line in both").isFalse();
    assertThat(SameQuestion.asked("first question\nThanks!", "another question\nThanks!"))
        .as("a shared two-word last line").isFalse();
    assertThat(SameQuestion.asked(null, "x")).isFalse();
  }

  @Test
  void aConversationsSecondTurnAfterTheSameHistoryIsTheSameQuestion() {
    String history = "Implement a program to find the common elements in two arrays.\nHere is one...\n";
    assertThat(SameQuestion.asked("sys A\n" + history + "Now make it faster.", "sys B\n" + history + "Now make it faster."))
        .isTrue();
  }
}
