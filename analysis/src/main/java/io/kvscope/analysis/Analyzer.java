package io.kvscope.analysis;

import io.kvscope.analysis.finding.Finding;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * One analysis: a name, a one-line description, and one method that runs over the index and emits
 * findings. Adding an analysis means writing one class and listing it in
 * {@code META-INF/services/io.kvscope.analysis.Analyzer}; {@link #order()} places it after the
 * analyzers whose findings it builds on (for instance, overlap confidence uses over-length ones).
 */
public interface Analyzer {

  String name();

  String description();

  /** Lower runs first. Config audit 100, request analyzers 200-300, content 400+. */
  int order();

  void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException;
}
