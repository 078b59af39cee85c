package io.kvscope.index.doc;

import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;

/**
 * The leak model's words ({@link WordTokenizer}: its word rules, its case folding) as Lucene's
 * terms of the text fields, one position each, with their char offsets: what the index holds, what
 * a search's words and the analyses' phrase look-ups are cut into. So an e-mail address, a key or a
 * version number is one term, and a passage's words are the index's words, whoever cut them.
 */
public final class WordTokens extends Tokenizer {

  /**
   * Names these words in an index's commit ({@code IndexStore}): an index without it holds an
   * earlier kvscope's words (Lucene's standard tokenizer's), which this one's look-ups would miss.
   */
  public static final String SCHEME = "kvscope-words-1";

  /**
   * A word longer than this is indexed by its first chars (Lucene refuses a term over 32,766 UTF-8
   * bytes, at most three a char): its look-ups are cut the same way, so they still find it.
   */
  static final int MAX_TERM_CHARS = 8_000;

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
  private final StringBuilder read = new StringBuilder();
  private final char[] chunk = new char[4096];
  private final Words words = new Words(term, offset);

  /** The analyzer of the text fields. */
  static Analyzer analyzer() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        return new TokenStreamComponents(new WordTokens());
      }

      /** A wildcard or prefix query's word (ledg*): lower case, as the words are. */
      @Override
      protected TokenStream normalize(String field, TokenStream in) {
        return new LowerCaseFilter(in);
      }
    };
  }

  /**
   * A text field whose words were cut before ({@code words}, of {@code value}, as the request's
   * fingerprints cut them): its inversion takes them instead of cutting the text again.
   */
  static Field field(String name, String value, TokenizedText words, FieldType type) {
    return new Field(name, value, type) {
      @Override
      public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
        Scanned stream = reuse instanceof Scanned scanned ? scanned : new Scanned();
        stream.words.start(words);
        return stream;
      }
    };
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    read.setLength(0);
    for (int n = input.read(chunk); n != -1; n = input.read(chunk)) {
      read.append(chunk, 0, n);
    }
    words.start(WordTokenizer.tokenize(read.toString()));
  }

  @Override
  public boolean incrementToken() {
    clearAttributes();
    if (!words.next()) {
      return false;
    }
    offset.setOffset(correctOffset(offset.startOffset()), correctOffset(offset.endOffset()));
    return true;
  }

  @Override
  public void end() throws IOException {
    super.end();
    int last = correctOffset(read.length());
    offset.setOffset(last, last);
  }

  @Override
  public void close() throws IOException {
    super.close();
    words.start(null);
  }

  /** The words of a text already cut, as a token stream. */
  private static final class Scanned extends TokenStream {
    private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
    private final Words words = new Words(addAttribute(CharTermAttribute.class), offset);

    @Override
    public boolean incrementToken() {
      clearAttributes();
      return words.next();
    }

    @Override
    public void end() throws IOException {
      super.end();
      int last = words.textLength();
      offset.setOffset(last, last);
    }

    @Override
    public void close() throws IOException {
      super.close();
      words.start(null); // a reused stream keeps no text alive between documents
    }
  }

  /** Walks a tokenized text's words into a stream's term and offset. */
  private static final class Words {
    private final CharTermAttribute term;
    private final OffsetAttribute offset;
    private TokenizedText text;
    private int next;

    Words(CharTermAttribute term, OffsetAttribute offset) {
      this.term = term;
      this.offset = offset;
    }

    void start(TokenizedText text) {
      this.text = text;
      this.next = 0;
    }

    int textLength() {
      return text == null ? 0 : text.text().length();
    }

    boolean next() {
      if (text == null || next >= text.size()) {
        return false;
      }
      char[] buffer = term.resizeBuffer(2 * Math.min(text.end(next) - text.start(next), MAX_TERM_CHARS));
      term.setLength(text.foldedInto(next, MAX_TERM_CHARS, buffer));
      offset.setOffset(text.start(next), text.end(next));
      next++;
      return true;
    }
  }
}
