package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.QueryBuilder;

/**
 * {@link TextIndex} over a Lucene index: "holds word for word" is a phrase query on the prompt and
 * reply fields (the search analyzer's words, case folded), which any exact copy matches. A prompt
 * copy of a request ({@link RequestColumns#isSource}) is found as a holder of its own. Counts its
 * lookups for the report.
 */
final class LuceneTextIndex implements TextIndex {

  private final IndexSearcher searcher;
  private final QueryBuilder phrases = new QueryBuilder(Schema.analyzer());
  private final RequestColumns columns;
  long lookups;

  LuceneTextIndex(IndexReader reader, RequestColumns columns) {
    this.searcher = new IndexSearcher(reader);
    this.columns = columns;
  }

  @Override
  public void holders(String passage, IntPredicate eligible, HolderVisitor visitor) throws IOException {
    lookups++;
    for (String field : List.of(Schema.PROMPT_TEXT, Schema.RESPONSE_TEXT)) {
      if (!visit(passage, field, eligible,
          doc -> visitor.visit(doc, field.equals(Schema.RESPONSE_TEXT)))) {
        return;
      }
    }
  }

  @Override
  public int replyTenants(String piece, int atMost) throws IOException {
    lookups++;
    Set<Integer> tenants = new HashSet<>();
    visit(piece, Schema.RESPONSE_TEXT, doc -> true, doc -> {
      tenants.add(columns.tenant(doc));
      return tenants.size() < atMost;
    });
    return tenants.size();
  }

  @Override
  public String text(int doc, String field) throws IOException {
    return columns.text(doc, field);
  }

  private interface DocVisitor {
    boolean visit(int doc) throws IOException;
  }

  /** Visits matching documents of one field until {@code visitor} says stop; false when stopped. */
  private boolean visit(String passage, String field, IntPredicate eligible, DocVisitor visitor) throws IOException {
    Query query = phrases.createPhraseQuery(field, passage);
    if (query == null) {
      return true;
    }
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
