package io.kvscope.analysis;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.index.Epochs;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.NodeClocks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.lucene.index.DirectoryReader;

/**
 * What an analyzer may use: the index, the options, the nodes' config epochs, the findings of the
 * analyzers that ran before it, and a place to record the values it learned (thresholds, fits) so
 * the report can show how each number was reached.
 */
public final class AnalysisContext {

  private final IndexSearch index;
  private final AnalysisOptions options;
  private final Epochs epochs;
  private final NodeClocks clocks;
  private final List<Finding> findings = new ArrayList<>();
  private final Map<String, Object> parameters = new TreeMap<>();

  public AnalysisContext(IndexSearch index, AnalysisOptions options) throws IOException {
    this.index = index;
    this.options = options;
    this.epochs = Epochs.load(index.reader());
    this.clocks = NodeClocks.load(index.reader());
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

  /** Streams the requests in the analysed time range. */
  public void forEachRequest(Consumer<RequestRow> consumer) throws IOException {
    RequestRows.forEach(index.reader(), row -> {
      if (options.inRange(row.startTime())) {
        consumer.accept(row);
      }
    });
  }

  /** Findings emitted so far, in emission order. */
  public List<Finding> findings() {
    return Collections.unmodifiableList(findings);
  }

  /** Request ids that already carry a finding of {@code kind}. */
  public java.util.Set<String> requestsWith(FindingKind kind) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (Finding finding : findings) {
      if (finding.kind() == kind && finding.requestId() != null) {
        ids.add(finding.requestId());
      }
    }
    return ids;
  }

  void add(Finding finding) {
    findings.add(finding);
  }

  /** Records a learned value or setting under {@code analyzer.name}. */
  public void parameter(String key, Object value) {
    parameters.put(key, value);
  }

  public Map<String, Object> parameters() {
    return Collections.unmodifiableMap(parameters);
  }
}
