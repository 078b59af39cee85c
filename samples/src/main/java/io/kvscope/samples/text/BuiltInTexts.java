package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The generator's own stand-ins for the public text of real traffic, with the same redundancy:
 * short and long questions (some pasting a document or code, some with a second turn), each
 * answered differently by each model but identically every time by one model; documents and code
 * to paste; agent templates; knowledge-base chunks cut from documents and manuals.
 */
final class BuiltInTexts {

  private final Rng rng;
  private final Voice generic = Voice.generic();

  BuiltInTexts(Rng rng) {
    this.rng = rng;
  }

  /** {@code count} documents, about half of them code. */
  List<TokenText> documents(int count) {
    List<TokenText> docs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      docs.add(i % 2 == 0 ? code(rng.between(60, 400)) : prose(Templates.TECH, rng.between(120, 600)));
    }
    return docs;
  }

  /**
   * {@code count} questions: 45% short (under 16 words), 35% a paragraph, 20% pasting one of
   * {@code documents}; 15% have a second turn. Each has one answer per model.
   */
  List<Question> questions(int count, List<TokenText> documents) {
    List<Question> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      double u = rng.nextDouble();
      List<TokenText> turns = new ArrayList<>();
      TokenText.Builder q = TokenText.builder(64);
      if (u < 0.45) {
        generic.sentence(rng.pick(Templates.QUESTION), q, rng);
      } else if (u < 0.80) {
        generic.prose(Templates.BOILERPLATE, rng.between(8, 30), q, rng);
        generic.sentence(rng.pick(Templates.QUESTION), q, rng);
      } else {
        generic.sentence(rng.pick(Templates.QUESTION), q, rng);
        q.paragraph();
        q.append(rng.pick(documents));
      }
      turns.add(q.build());
      if (rng.chance(0.15)) {
        TokenText.Builder second = TokenText.builder(24);
        generic.sentence(rng.pick(Templates.QUESTION), second, rng);
        turns.add(second.build());
      }
      List<List<TokenText>> answers = new ArrayList<>();
      for (int model = 0; model < SharedTexts.MODELS; model++) {
        List<TokenText> replies = new ArrayList<>();
        for (int t = 0; t < turns.size(); t++) {
          replies.add(answer());
        }
        answers.add(replies);
      }
      out.add(new Question("builtin-" + i, turns, answers));
    }
    return out;
  }

  private TokenText answer() {
    TokenText.Builder a = TokenText.builder(400);
    generic.prose(Templates.ANSWER, (int) Math.min(900, Math.max(30, rng.logNormal(180, 0.6))), a, rng);
    if (rng.chance(0.3)) {
      a.paragraph();
      a.append(code(rng.between(30, 120)));
      a.paragraph();
      generic.prose(Templates.ANSWER, rng.between(15, 40), a, rng);
    }
    return a.build();
  }

  private TokenText prose(Template[] templates, int tokens) {
    TokenText.Builder b = TokenText.builder(tokens + 32);
    while (b.tokenCount() < tokens) {
      generic.prose(templates, rng.between(40, 120), b, rng);
      b.paragraph();
    }
    return b.build();
  }

  /**
   * Code-like text: a function with a loop, conditions and calls. Its punctuation is written as
   * tokens of their own where it ends a chunk, as the token rule wants.
   */
  private TokenText code(int tokens) {
    TokenText.Builder b = TokenText.builder(tokens + 32);
    String function = verb() + "_" + rng.pick(Lexicon.TECH_NOUNS);
    b.word("def").word(function + "(" + rng.pick(Lexicon.TECH_NOUNS) + "s").punct(",")
        .word("limit=" + rng.between(2, 64) + ")").punct(":");
    while (b.tokenCount() < tokens) {
      b.paragraph();
      String noun = rng.pick(Lexicon.TECH_NOUNS);
      switch (rng.nextInt(5)) {
        case 0 -> b.word("for").word(noun).word("in").word(rng.pick(Lexicon.TECH_NOUNS) + "s").punct(":");
        case 1 -> b.word("if").word(noun + ".state").word("==").word("\"" + rng.pick(Lexicon.TECH_ADJECTIVES) + "\"")
            .punct(":");
        case 2 -> b.word(noun).word("=").word(verb() + "(" + noun).punct(",").word(rng.between(1, 999) + ")");
        case 3 -> b.word("log.info(\"" + rng.pick(Lexicon.TECH_NOUNS)).word(rng.pick(Lexicon.TECH_VERBS).split(":")[1])
            .word("%s\"").punct(",").word(noun + ")");
        default -> b.word("return").word(noun.toUpperCase(Locale.ROOT) + "_" + rng.between(1, 99));
      }
    }
    return b.build();
  }

  private String verb() {
    return rng.pick(Lexicon.TECH_VERBS).split(":")[0];
  }

  /** A long system prompt of an agent framework: role, tools, output format. */
  static TokenText agentTemplate(int index, Rng rng) {
    Voice generic = Voice.generic();
    TokenText.Builder b = TokenText.builder(600);
    b.word("You").word("are").word("an").word("agent").word("that").word("completes").word("tasks")
        .word("step").word("by").word("step").punct(".").word("Template").word("v" + (index + 2)).punct(".");
    b.paragraph();
    int tools = rng.between(3, 7);
    for (int i = 0; i < tools; i++) {
      b.word("Tool").word(rng.pick(Lexicon.TECH_VERBS).split(":")[0] + "_" + rng.pick(Lexicon.TECH_NOUNS)).punct(":");
      generic.sentence(rng.pick(Templates.SYSTEM), b, rng);
      b.paragraph();
    }
    generic.prose(Templates.SYSTEM, rng.between(80, 260), b, rng);
    return b.build();
  }

  /**
   * Knowledge-base chunks: paragraphs of the documents and manuals of 25 to 200 words, as a
   * retriever would have indexed them (about 120 chunks).
   */
  static List<TokenText> chunks(List<TokenText> documents, List<TokenText> manuals, Rng rng) {
    List<TokenText> chunks = new ArrayList<>();
    List<TokenText> sources = new ArrayList<>(documents);
    sources.addAll(manuals);
    for (TokenText doc : sources) {
      int from = 0;
      for (int i = 0; i <= doc.tokenCount(); i++) {
        boolean end = i == doc.tokenCount() || doc.slice(i, i + 1).isEmpty(); // a paragraph break
        if (end) {
          if (i > from && chunks.size() < 400 && rng.chance(0.4)) {
            TokenText.Builder b = TokenText.builder(i - from);
            b.appendRange(doc, from, i);
            TokenText chunk = b.build();
            int words = Words.count(chunk.text());
            if (words >= 25 && words <= 200) {
              chunks.add(chunk);
            }
          }
          from = i + 1;
        }
      }
    }
    return chunks;
  }
}
