package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.store.CaseKey;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.store.Redaction;
import io.kvscope.model.fingerprint.FingerprintConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;

/** Read-only searches over an index directory, in Lucene query syntax ({@link QueryParsing}). */
public final class IndexSearch implements Closeable {

  private final Path path;
  private final FSDirectory directory;
  private final DirectoryReader reader;
  private final IndexSearcher searcher;
  private final Redaction redaction;

  private IndexSearch(Path path, FSDirectory directory, DirectoryReader reader) {
    this.path = path;
    this.directory = directory;
    this.reader = reader;
    this.searcher = new IndexSearcher(reader);
    this.redaction = new Redaction(CaseKey.forReading(path));
  }

  /** Opens the last commit of the index at {@code dir}. */
  public static IndexSearch open(Path dir) throws IOException {
    if (!IndexStore.exists(dir)) {
      throw new java.nio.file.NoSuchFileException(dir.toString(), null,
          "no kvscope index here; create one with 'kvscope ingest PATH --index " + dir + "'");
    }
    FSDirectory directory = FSDirectory.open(dir);
    try {
      DirectoryReader reader = DirectoryReader.open(directory);
      try {
        IndexStore.requireTextWords(dir, reader.getIndexCommit().getUserData());
      } catch (IOException older) {
        reader.close();
        throw older;
      }
      return new IndexSearch(dir, directory, reader);
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  public Path path() {
    return path;
  }

  public DirectoryReader reader() {
    return reader;
  }

  public IndexSearcher searcher() {
    return searcher;
  }

  /** How this case's text is shown when not revealed (keyed by the case's {@link CaseKey}). */
  public Redaction redaction() {
    return redaction;
  }

  /**
   * Matches, oldest first, the total count, and what a person should know of how the query was
   * read (a bare word that is also a tenant's name searched every tenant's text).
   */
  public record Result(long total, List<Document> documents, List<String> notes) {}

  /**
   * Runs {@code query}. Unless it names a {@code doc_type}, only request documents match, since
   * that is what an investigator means by "find".
   */
  public Result search(String query, int limit) throws IOException, ParseException {
    QueryParsing.Parsed read = QueryParsing.parseWithTerms(query);
    Query parsed = read.query();
    if (!query.contains(Schema.DOC_TYPE + ":")) {
      parsed = new BooleanQuery.Builder()
          .add(parsed, Occur.MUST)
          .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)), Occur.FILTER)
          .build();
    }
    Sort oldestFirst = new Sort(
        LongField.newSortField(Schema.START_TIME, false, SortedNumericSelector.Type.MIN),
        LongField.newSortField(Schema.TIME, false, SortedNumericSelector.Type.MIN),
        SortField.FIELD_DOC);
    TopDocs top = searcher.search(parsed, Math.max(1, limit), oldestFirst);
    List<Document> documents = new ArrayList<>();
    var stored = reader.storedFields();
    for (ScoreDoc hit : top.scoreDocs) {
      documents.add(stored.document(hit.doc));
    }
    long total = searcher.count(parsed);
    return new Result(total, limit <= 0 ? List.of() : documents, notes(read.bareWords()));
  }

  /**
   * For each bare word that is also a tenant's name: a bare word searches the prompt and response
   * text of every tenant, which is seldom what a tenant's name was typed for. The command line and
   * the workbench both say it in these words.
   */
  public List<String> notes(List<String> bareWords) throws IOException {
    List<String> notes = new ArrayList<>();
    for (String word : bareWords.stream().distinct().toList()) {
      if (searcher.count(new TermQuery(new Term(Schema.TENANT, word))) > 0) {
        notes.add("'" + word + "' is also a tenant: a bare word searches the prompt and response text of every"
            + " tenant; for " + word + "'s own requests, search tenant:" + word);
      }
    }
    return notes;
  }

  /**
   * True when an ingest holds the index's write lock right now: this reader sees its last commit,
   * and the files it is still reading are missing or partial.
   */
  public boolean beingWritten() {
    try (org.apache.lucene.store.Lock free = directory.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
      return false;
    } catch (org.apache.lucene.store.LockObtainFailedException held) {
      return true;
    } catch (IOException cannotTell) {
      return false; // a read-only copy: nobody is writing to it here
    }
  }

  /**
   * The fingerprint scheme the index was built with, as its commit records it; an index from before
   * the scheme was recorded was built with today's.
   *
   * @throws IOException when the commit names a scheme this kvscope cannot query
   */
  public FingerprintConfig fingerprints() throws IOException {
    String recorded = reader.getIndexCommit().getUserData().get(IndexStore.FINGERPRINT_SCHEME);
    if (recorded == null) {
      return Documents.FINGERPRINTS;
    }
    return FingerprintConfig.ofSchemeId(recorded).orElseThrow(() -> new IOException("the index was fingerprinted with '"
        + recorded + "', which this kvscope cannot query; re-ingest it into a new index"));
  }

  /** Number of documents of a type. */
  public long count(String docType) throws IOException {
    return searcher.count(new TermQuery(new Term(Schema.DOC_TYPE, docType)));
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close();
    } finally {
      directory.close();
    }
  }
}
