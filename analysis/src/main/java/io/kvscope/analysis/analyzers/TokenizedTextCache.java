package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * Source texts, tokenized, kept while they are used. Candidates come grouped by recipient, and
 * recipients close in time share sources (a source must be recent and on the same decode node),
 * so the same source prompt, often megabytes, would otherwise be decompressed and tokenized again
 * for each recipient. Least recently used texts go first once the texts held pass a char budget.
 */
final class TokenizedTextCache {

  private final RequestColumns columns;
  private final long maxChars;
  private long chars;
  long hits;
  long misses;

  /** In access order, so iteration starts at the least recently used text. */
  private final LinkedHashMap<Long, TokenizedText> texts = new LinkedHashMap<>(256, 0.75f, true);

  /** @param maxChars chars of text held at most (each char costs about 6 bytes with its tokens) */
  TokenizedTextCache(RequestColumns columns, long maxChars) {
    this.columns = columns;
    this.maxChars = maxChars;
  }

  /** The tokenized {@code field} of {@code doc}, or null when the request has no such text. */
  TokenizedText get(int doc, String field) throws IOException {
    long key = ((long) doc << 1) | (field.equals(Schema.PROMPT_TEXT) ? 0 : 1);
    TokenizedText text = texts.get(key);
    if (text != null) {
      hits++;
      return text;
    }
    misses++;
    String raw = columns.text(doc, field);
    if (raw == null) {
      return null;
    }
    text = WordTokenizer.tokenize(raw);
    chars += raw.length();
    texts.put(key, text);
    evictOverBudget();
    return text;
  }

  /** Drops least recently used texts until the budget holds, keeping at least the newest. */
  private void evictOverBudget() {
    Iterator<TokenizedText> oldestFirst = texts.values().iterator();
    while (chars > maxChars && texts.size() > 1) {
      chars -= oldestFirst.next().text().length();
      oldestFirst.remove();
    }
  }
}
