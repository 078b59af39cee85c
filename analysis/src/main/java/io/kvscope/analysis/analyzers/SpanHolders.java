package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
import io.kvscope.index.Schema;
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
 * The tenants whose requests hold a passage word for word, found with a phrase query on prompts
 * and replies: exact where {@link io.kvscope.index.fingerprint.SpanFrequencyProbe}'s fingerprint
 * bound is loose (a short span holds one or two fingerprints, and a common eight-word piece makes
 * the bound large), and able to count only the requests that could have left the passage in a
 * recipient's decode pool ({@link StalePageReach}). A run of stock sentences is no proof on its
 * own, but when only one tenant within reach held it, the stale pages it came from were theirs.
 */
final class SpanHolders {

  private static final List<String> PROMPTS_AND_REPLIES = List.of(Schema.PROMPT_TEXT, Schema.RESPONSE_TEXT);

  /** Tenant returned when no tenant, or more than one, holds the passage within reach. */
  static final int NONE_OR_SEVERAL = -1;

  private final IndexSearcher searcher;
  private final QueryBuilder phrases = new QueryBuilder(Schema.analyzer());
  private final RequestColumns columns;
  private final StalePageReach reach;
  long lookups;

  SpanHolders(IndexReader reader, RequestColumns columns, StalePageReach reach) {
    this.searcher = new IndexSearcher(reader);
    this.columns = columns;
    this.reach = reach;
  }

  /** How many tenants' prompts or replies hold {@code passage}, counted up to {@code atMost}. */
  int tenantsHolding(String passage, int atMost) throws IOException {
    lookups++;
    return tenants(passage, PROMPTS_AND_REPLIES, doc -> true, atMost).size();
  }

  /**
   * The one tenant whose prompts or replies within reach of {@code recipient} hold
   * {@code passage}, or {@link #NONE_OR_SEVERAL}.
   */
  int soleTenantHolding(String passage, int recipient) throws IOException {
    lookups++;
    Set<Integer> tenants = tenants(passage, PROMPTS_AND_REPLIES, doc -> reach.reaches(doc, recipient), 2);
    return tenants.size() == 1 ? tenants.iterator().next() : NONE_OR_SEVERAL;
  }

  /**
   * Tenants of the requests {@code eligible} accepts whose {@code fields} hold the passage, up to
   * {@code atMost}. Eligibility is checked before positions are read: prompts can be megabytes.
   */
  Set<Integer> tenants(String passage, List<String> fields, IntPredicate eligible, int atMost) throws IOException {
    Set<Integer> tenants = new HashSet<>();
    for (String field : fields) {
      Query query = phrases.createPhraseQuery(field, passage);
      if (query == null) {
        continue;
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
          if ((live == null || live.get(doc)) && columns.isRequest(global) && eligible.test(global)
              && (twoPhase == null || twoPhase.matches()) && tenants.add(columns.tenant(global))
              && tenants.size() >= atMost) {
            return tenants;
          }
        }
      }
    }
    return tenants;
  }
}
