package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * Public texts taken from a {@link CorpusFile}: every question with the replies of each model that
 * answered it (one model per deployment, so the same question gets one answer per deployment), in
 * a seeded popularity order; and as documents people paste, the long questions (real users paste
 * code, logs and documents into them).
 */
final class CorpusTexts {

  /** A question this long (in words) doubles as a document others paste. */
  private static final int DOCUMENT_WORDS = 150;

  private final List<Question> questions = new ArrayList<>();
  private final List<TokenText> documents = new ArrayList<>();

  CorpusTexts(CorpusFile corpus, Rng rng) {
    List<CorpusFile.Entry> entries = new ArrayList<>(corpus.entries());
    // Which questions are popular is the seed's choice: Fisher-Yates over the file order.
    for (int i = entries.size() - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      CorpusFile.Entry swap = entries.get(i);
      entries.set(i, entries.get(j));
      entries.set(j, swap);
    }
    for (CorpusFile.Entry entry : entries) {
      List<TokenText> turns = entry.turns().stream().map(t -> TokenText.of(t.strip())).toList();
      List<List<TokenText>> answers = new ArrayList<>();
      entry.answers().values().forEach(replies ->
          answers.add(replies.stream().map(r -> TokenText.of(r.strip())).toList()));
      questions.add(new Question(entry.id(), turns, answers));
      String first = entry.turns().getFirst().strip();
      if (Words.count(first) >= DOCUMENT_WORDS) {
        documents.add(TokenText.of(first));
      }
    }
  }

  List<Question> questions() {
    return questions;
  }

  List<TokenText> documents() {
    return documents;
  }
}
