package io.kvscope.analysis;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.nodes.NodeClocks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.ingest.record.EngineEvent;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;

/**
 * What an analyzer may use: the index, the options, the nodes' config epochs, the findings of the
 * analyzers it {@linkplain Analyzer#requires() requires} (and no others), and a place to record the
 * values it learned (thresholds, fits) so the report can show how each number was reached.
 */
public final class AnalysisContext {

  private final IndexSearch index;
  private final AnalysisOptions options;
  private final Epochs epochs;
  private final NodeClocks clocks;
  private final Map<String, List<Finding>> findingsByAnalyzer = new LinkedHashMap<>();
  private final Map<String, Object> parameters = new TreeMap<>();
  private Analyzer running;
  // Facts several analyzers join on, built by the first that asks and shared with the rest.
  private RequestColumns requestColumns;
  private Mechanisms mechanisms;
  private StalePageReach reach;
  private List<EngineEvent> failedTransfers;
  /**
   * Requests whose rows are kept between walks, at most. A row with its engine facts took about
   * 6 KB of heap on a corpus incident (heap after collection 12-20 MB without kept rows, 58 MB with
   * its 6,888), so at most some 50 MB; a larger index's requests are read again each walk.
   */
  static final int MAX_KEPT_ROWS = 8_192;
  private List<RequestRow> keptRows;

  public AnalysisContext(IndexSearch index, AnalysisOptions options) throws IOException {
    this.index = index;
    this.options = options;
    this.epochs = Epochs.load(index.reader());
    this.clocks = epochs.clocks();
    if (!clocks.skews().isEmpty()) {
      parameters.put("node_clock_skew_ms", clocks.skews());
    }
  }

  public IndexSearch index() {
    return index;
  }

  public DirectoryReader reader() {
    return index.reader();
  }

  public AnalysisOptions options() {
    return options;
  }

  public Epochs epochs() {
    return epochs;
  }

  /** Each node's clock offset from the gateway's, to put node-local times on one timeline. */
  public NodeClocks clocks() {
    return clocks;
  }

  /** Every request's tenant, times, decode node and place in request order, read once per analysis. */
  public RequestColumns requestColumns() throws IOException {
    if (requestColumns == null) {
      requestColumns = RequestColumns.load(this);
    }
    return requestColumns;
  }

  /**
   * How each request was served ({@link Mechanisms}), built once per analysis from the findings of
   * {@link Mechanisms#REQUIRED}: only an analyzer that requires all of them may ask.
   */
  public Mechanisms mechanisms() throws IOException {
    if (running == null || !running.requires().containsAll(Mechanisms.REQUIRED)) {
      throw new IllegalStateException((running == null ? "no analyzer is running" : "analyzer '" + running.name()
          + "' does not declare it requires " + Mechanisms.REQUIRED) + " but reads the mechanisms built from them");
    }
    if (mechanisms == null) {
      mechanisms = Mechanisms.of(this);
    }
    return mechanisms;
  }

  /** Which requests' pages could reach which recipients ({@link StalePageReach}), built once per analysis. */
  public StalePageReach reach() throws IOException {
    if (reach == null) {
      reach = StalePageReach.of(this, requestColumns(), mechanisms());
    }
    return reach;
  }

  /**
   * The engine lines of failed KV transfers and bootstraps, whatever request they name (few: a
   * healthy fleet logs none), read once per analysis: mechanism a node's logs show.
   */
  public List<EngineEvent> failedTransfers() throws IOException {
    if (failedTransfers == null) {
      List<EngineEvent> found = new ArrayList<>();
      for (EngineEvent.Kind kind : List.of(EngineEvent.Kind.TRANSFER_FAILED, EngineEvent.Kind.BOOTSTRAP_FAILED)) {
        // Only engine events carry a kind: its postings are the failed lines, with no search sized to the index.
        TypedDocs.forEachWith(index.reader(), Schema.KIND, kind.name(), doc -> found.add(Documents.readEngineEvent(doc)));
      }
      failedTransfers = List.copyOf(found);
    }
    return failedTransfers;
  }

  /** Streams the requests in the analysed time range. */
  public void forEachRequest(Consumer<RequestRow> consumer) throws IOException {
    forEachRow(row -> {
      if (options.inRange(row.record().startTime())) {
        consumer.accept(row);
      }
    });
  }

  /**
   * Streams every request of the index, whatever its time. An analysis walks them nine times; an index
   * of at most {@link #MAX_KEPT_ROWS} requests is read from its doc values once and its rows kept,
   * a larger one is read again each time, so memory stays flat however many requests there are.
   */
  public void forEachRow(Consumer<RequestRow> consumer) throws IOException {
    if (keptRows != null) {
      keptRows.forEach(consumer);
      return;
    }
    boolean keep = index.reader().docFreq(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)) <= MAX_KEPT_ROWS;
    List<RequestRow> rows = new ArrayList<>();
    RequestRows.forEach(index.reader(), row -> {
      if (keep) {
        rows.add(row);
      }
      consumer.accept(row);
    });
    if (keep) {
      keptRows = List.copyOf(rows);
    }
  }

  /**
   * Runs {@code analyzer} over this context: its findings go to {@code sink} and are kept for the
   * analyzers that require it. While it runs it may read the findings of its requirements only.
   */
  public void run(Analyzer analyzer, Consumer<Finding> sink) throws IOException {
    running = analyzer;
    List<Finding> own = findingsByAnalyzer.computeIfAbsent(analyzer.name(), n -> new ArrayList<>());
    try {
      analyzer.analyze(this, finding -> {
        own.add(finding);
        sink.accept(finding);
      });
    } finally {
      running = null;
    }
  }

  /**
   * The findings {@code analyzer} emitted, in emission order.
   *
   * @throws IllegalStateException when the running analyzer did not declare it among its
   *     {@link Analyzer#requires()}: reading another analyzer's conclusions is a dependency
   */
  public List<Finding> findingsOf(String analyzer) {
    if (running == null || !running.requires().contains(analyzer)) {
      throw new IllegalStateException((running == null ? "no analyzer is running" : "analyzer '" + running.name()
          + "' does not declare it requires") + " '" + analyzer + "' but reads its findings");
    }
    return Collections.unmodifiableList(findingsByAnalyzer.getOrDefault(analyzer, List.of()));
  }

  /** Request ids that {@code analyzer} flagged with a finding of {@code kind}. */
  public Set<String> requestsFlagged(String analyzer, FindingKind kind) {
    Set<String> ids = new HashSet<>();
    for (Finding finding : findingsOf(analyzer)) {
      if (finding.kind() == kind && finding.requestId() != null) {
        ids.add(finding.requestId());
      }
    }
    return ids;
  }

  /** A finding of {@code analyzer} as if it had run (for tests that start part-way). */
  void record(String analyzer, Finding finding) {
    findingsByAnalyzer.computeIfAbsent(analyzer, n -> new ArrayList<>()).add(finding);
  }

  /** Records a learned value or setting under {@code analyzer.name}. */
  public void parameter(String key, Object value) {
    parameters.put(key, value);
  }

  public Map<String, Object> parameters() {
    return Collections.unmodifiableMap(parameters);
  }
}
