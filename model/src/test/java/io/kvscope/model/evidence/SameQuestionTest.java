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
  void aQuestionAskedAfterPastedTextIsTheQuestionAskedBare() {
    String q = "What does the licence say about redistribution of modified copies?";
    assertThat(SameQuestion.asked("sys A\n" + q, "sys B\nPermission is hereby granted, free of charge...\n\nQuestion: " + q))
        .isTrue();
    assertThat(SameQuestion.asked("Here is my contract, read it. " + q, q)).as("pasted text on the same line").isTrue();
    String zh = "这段文字的主要观点是什么？请简要说明";
    assertThat(SameQuestion.asked("文章：今天天气很好，我们去公园散步。\n问题：" + zh, zh)).as("in characters").isTrue();
    assertThat(SameQuestion.asked("a long pasted document\nQuestion: what is it?", "what is it?"))
        .as("a bare question under five words is not matched inside another message").isFalse();
  }

  @Test
  void questionsThatDifferInAFewWordsAreTheSameQuestion() {
    assertThat(SameQuestion.asked("sys\nHow do I read a CSV file into a dataframe in pandas",
        "other\nHow do I read a CSV file into a dataframe with pandas quickly")).isTrue();
    assertThat(SameQuestion.asked("sys\ngive me JavaScript code to calculate pi", "sys\ngive me Python code to calculate pi"))
        .as("one word of seven differs").isTrue();
    assertThat(SameQuestion.asked("sys\nwrite a poem about the sea at night", "sys\nexplain how tides work on the coast"))
        .isFalse();
    assertThat(SameQuestion.asked("sys\nsummarize this text for me please now", "sys\ntranslate this text into French please now"))
        .as("the first words differ").isFalse();
    assertThat(SameQuestion.asked("sys\nHow long should I keep a internal invoice on file?",
        "other\nHow long should I keep a internal invoice with an example?")).as("two last words for three").isTrue();
    assertThat(SameQuestion.asked("sys\nWhat is the GDP of Germany?", "sys\nWhat is the capital of France?"))
        .as("half of a short question differs").isFalse();
  }

  @Test
  void aQuestionOverSeveralLinesAskedAgainWithOtherLastWordsIsTheSameQuestion() {
    String code = "Why does this loop stall?\nfor rotor in panels:\n\nmount = measure(mount, 584)\n\nreturn COUPLING_18\n\n";
    assertThat(SameQuestion.asked("sys\n" + code + "for compressor in signals:", code + "for for beginners:")).isTrue();
    assertThat(SameQuestion.asked("sys\n" + code + "for compressor in signals:", code + "explain every step of it:"))
        .as("four last words differ").isFalse();
  }

  @Test
  void differentQuestionsOrAQuestionEndingLikeAnotherAreNot() {
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

  @Test
  void theLastWordsReadFromALineStartAreTheWholeTextsLastWords() {
    java.util.List<String> texts = java.util.List.of("", "\n", "one", "one two\n", "\nabc def", "a.\nb c", "john.doe@\nexample.com x",
        "x\n\n\ny z\nw", "中文字\n问题是什么", "sk-proj-\nAbC 12,\n345 don't\n’s", "line one has five words\nshort\n\nlast line here");
    for (String text : texts) {
      io.kvscope.model.fingerprint.TokenizedText all = io.kvscope.model.fingerprint.WordTokenizer.tokenize(text);
      for (int n = 0; n <= all.size() + 2; n++) {
        io.kvscope.model.fingerprint.TokenizedText tail = SameQuestion.lastWords(text, n);
        assertThat(tail.size()).as("%s, %d", text, n).isBetween(Math.min(n, all.size()), all.size());
        for (int i = 1; i <= tail.size(); i++) {
          assertThat(tail.hash(tail.size() - i)).as("%s, %d, word %d from the end", text, n, i)
              .isEqualTo(all.hash(all.size() - i));
        }
      }
    }
  }

  @Test
  void aLongHistoryBeforeTheQuestionIsNotWhatDecides() {
    String history = "Earlier turn about something else entirely.\n".repeat(200);
    String q = "What does the licence say about redistribution of modified copies?";
    assertThat(SameQuestion.asked(history + "Question: " + q, "sys\n" + q)).isTrue();
    assertThat(SameQuestion.asked(history + "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda",
        "x\nalpha beta gamma delta epsilon zeta eta theta iota kappa mu nu")).as("ends alike before other words").isTrue();
    assertThat(SameQuestion.asked(history + "Now make it faster.", "sys\nNow make it slower please.")).isFalse();
  }
}
