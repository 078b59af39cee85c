package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * {@link TextIndex} over a Lucene index: "holds word for word" is a phrase query on the prompt and
 * reply fields (the leak model's words, case folded, as the index holds them), which any exact copy
 * matches. A prompt copy of a request ({@link RequestColumns#isSource}) is found as a holder of its
 * own. Counts its lookups for the report. The passage is cut once for both fields, and its phrase is
 * matched by {@link ExactPhrases}, which keeps each segment's enumerations between lookups; a lookup
 * made while another visits runs as Lucene's query.
 */
final class LuceneTextIndex implements TextIndex {

  private final IndexSearcher searcher;
  private final QueryBuilder phrases = new QueryBuilder(Schema.analyzer());
  private final RequestColumns columns;
  private final ExactPhrases exact;
  /** True while a lookup visits: a lookup from inside a visit runs as Lucene's query, on enumerations of its own. */
  private boolean visiting;
  long lookups;

  LuceneTextIndex(IndexReader reader, RequestColumns columns) {
    this.searcher = new IndexSearcher(reader);
    this.columns = columns;
    this.exact = new ExactPhrases(reader);
  }

  @Override
  public void holders(String passage, IntPredicate eligible, HolderVisitor visitor) throws IOException {
    lookups++;
    Phrase phrase = phrase(passage);
    for (String field : List.of(Schema.PROMPT_TEXT, Schema.RESPONSE_TEXT)) {
      if (!visit(phrase, field, eligible,
          doc -> visitor.visit(doc, field.equals(Schema.RESPONSE_TEXT)))) {
        return;
      }
    }
  }

  @Override
  public int replyTenants(String piece, int atMost) throws IOException {
    lookups++;
    Set<Integer> tenants = new HashSet<>();
    visit(phrase(piece), Schema.RESPONSE_TEXT, doc -> true, doc -> {
      tenants.add(columns.tenant(doc));
      return tenants.size() < atMost;
    });
    return tenants.size();
  }

  @Override
  public String text(int doc, String field) throws IOException {
    return columns.text(doc, field);
  }

  /**
   * A passage as the index's words ({@code WordTokens}) cut it: the exact phrase's terms and
   * positions (one word: a phrase of one), or no query when it holds no word. Both text fields have
   * the same analyzer, so one analysis serves both.
   */
  private record Phrase(String passage, Query query, BytesRef[] terms, int[] positions) {}

  private Phrase phrase(String passage) {
    Query query = phrases.createPhraseQuery(Schema.PROMPT_TEXT, passage);
    if (query instanceof PhraseQuery p) {
      return new Phrase(passage, query, Arrays.stream(p.getTerms()).map(Term::bytes).toArray(BytesRef[]::new),
          p.getPositions());
    }
    if (query instanceof TermQuery t) {
      return new Phrase(passage, query, new BytesRef[] {t.getTerm().bytes()}, new int[] {0});
    }
    return new Phrase(passage, null, null, null);
  }

  /** Visits matching documents of one field until {@code visitor} says stop; false when stopped. */
  private boolean visit(Phrase phrase, String field, IntPredicate eligible, ExactPhrases.DocVisitor visitor) throws IOException {
    if (phrase.query() == null) {
      return true;
    }
    if (!visiting) {
      visiting = true;
      try {
        return exact.visit(field, phrase.terms(), phrase.positions(),
            doc -> columns.isSource(doc) && eligible.test(doc), visitor);
      } finally {
        visiting = false;
      }
    }
    Query query = phrases.createPhraseQuery(field, phrase.passage());
    Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = weight.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      TwoPhaseIterator twoPhase = scorer.twoPhaseIterator();
      DocIdSetIterator candidates = twoPhase == null ? scorer.iterator() : twoPhase.approximation();
      Bits live = leaf.reader().getLiveDocs();
      for (int doc = candidates.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = candidates.nextDoc()) {
        int global = leaf.docBase + doc;
        if ((live == null || live.get(doc)) && columns.isSource(global) && eligible.test(global)
            && (twoPhase == null || twoPhase.matches())
            && !visitor.visit(global)) {
          return false;
        }
      }
    }
    return true;
  }
}
