package io.kvscope.index.doc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * The {@link Schema#TYPE_TEXT_COPY} documents of an index: texts of merged requests their kept
 * text does not hold, which the analysis reads as replies received beside the kept one. Few in a
 * sound incident (none where every request was logged once), so they are read whole.
 */
public final class TextCopies {

  private TextCopies() {}

  /**
   * One copy, without its text.
   *
   * @param doc its document number in the reader it was read from
   * @param requestKey the key its request's documents share ({@code RequestMerge.keyOf})
   * @param field {@code prompt_text} or {@code response_text}
   * @param where the record it was read from, as {@code <origin> <file>:<line>}
   * @param keptFrom the record the request's kept text was read from
   * @param outranked whether its record ranks below the kept text's
   */
  public record Copy(int doc, String requestKey, String field, String where, String keptFrom, boolean outranked) {

    public boolean isReply() {
      return Schema.RESPONSE_TEXT.equals(field);
    }
  }

  /** Every live copy, in document order. */
  public static List<Copy> all(IndexReader reader) throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    TermQuery copies = new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_TEXT_COPY));
    int count = searcher.count(copies);
    if (count == 0) {
      return List.of();
    }
    TopDocs top = searcher.search(copies, count);
    List<Copy> out = new ArrayList<>(count);
    Set<String> fields = Set.of(Schema.REQUEST_KEY, Schema.COPY_OF, Schema.COPY_SOURCE, Schema.COPY_KEPT_FROM,
        Schema.COPY_OUTRANKED);
    for (var hit : top.scoreDocs) {
      Document d = reader.storedFields().document(hit.doc, fields);
      out.add(new Copy(hit.doc, d.get(Schema.REQUEST_KEY), d.get(Schema.COPY_OF), d.get(Schema.COPY_SOURCE),
          d.get(Schema.COPY_KEPT_FROM), Boolean.parseBoolean(d.get(Schema.COPY_OUTRANKED))));
    }
    out.sort(java.util.Comparator.comparingInt(Copy::doc));
    return out;
  }

  /** How many requests have a copy that disagrees with their kept prompt or reply. */
  public static int requestsWithCopies(IndexReader reader) throws IOException {
    Set<String> keys = new HashSet<>();
    all(reader).forEach(c -> keys.add(c.requestKey()));
    return keys.size();
  }
}
