package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * Public text many tenants share: system prompts from popular frameworks, contract boilerplate,
 * a corpus of technical manuals (what long prompts paste), and popular questions with their one
 * canonical answer. None of it is any tenant's data, so none of it may count as a leak.
 */
public final class SharedTexts {

  /** A popular question and the answer every tenant who asks it receives. */
  public record Popular(TokenText question, TokenText answer) {}

  private final List<TokenText> systemPrompts;
  private final List<TokenText> boilerplate;
  private final List<TokenText> corpus;
  private final List<Popular> popular;
  private final long corpusTokens;

  public SharedTexts(long seed, int corpusDocuments) {
    Rng rng = Rng.derive(seed, Rng.key("shared-texts"));
    Voice generic = Voice.generic();
    systemPrompts = new ArrayList<>();
    int[] systemSizes = {60, 110, 180, 260, 400};
    for (int size : systemSizes) {
      TokenText.Builder b = TokenText.builder(size + 20);
      b.word("You").word("are").word("a").word("careful").word("assistant").punct(".");
      generic.prose(Templates.SYSTEM, size - 6, b, rng);
      systemPrompts.add(b.build());
    }
    boilerplate = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      TokenText.Builder b = TokenText.builder(3000);
      b.word("Section").word(Integer.toString(i + 1)).punct(".").word(rng.pick(Lexicon.LEGAL_NOUNS))
          .word("terms").paragraph();
      int target = (int) Math.min(3000, Math.max(300, rng.logNormal(800, 0.6)));
      while (b.tokenCount() < target) {
        generic.prose(Templates.BOILERPLATE, rng.between(40, 120), b, rng);
        b.paragraph();
      }
      boilerplate.add(b.build());
    }
    corpus = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < corpusDocuments; i++) {
      TokenText.Builder b = TokenText.builder(4000);
      b.word("Service").word("manual").word(rng.pick(Lexicon.CODENAMES) + "-" + rng.between(100, 999))
          .punct(":").word(rng.pick(Lexicon.TECH_ADJECTIVES)).word(rng.pick(Lexicon.TECH_NOUNS))
          .paragraph();
      int target = (int) Math.min(4000, Math.max(600, rng.logNormal(1600, 0.5)));
      while (b.tokenCount() < target) {
        generic.prose(Templates.TECH, rng.between(60, 200), b, rng);
        b.paragraph();
      }
      TokenText doc = b.build();
      total += doc.tokenCount();
      corpus.add(doc);
    }
    corpusTokens = total;
    popular = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      TokenText.Builder q = TokenText.builder(24);
      generic.sentence(Templates.QUESTION[i % Templates.QUESTION.length], q, rng);
      TokenText.Builder a = TokenText.builder(300);
      generic.prose(Templates.ANSWER, rng.between(80, 220), a, rng);
      popular.add(new Popular(q.build(), a.build()));
    }
  }

  public List<TokenText> systemPrompts() {
    return systemPrompts;
  }

  public List<TokenText> boilerplate() {
    return boilerplate;
  }

  public List<TokenText> corpus() {
    return corpus;
  }

  public long corpusTokens() {
    return corpusTokens;
  }

  public List<Popular> popular() {
    return popular;
  }
}
