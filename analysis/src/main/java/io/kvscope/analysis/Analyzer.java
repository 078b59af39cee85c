package io.kvscope.analysis;

import io.kvscope.model.finding.Finding;
import java.io.IOException;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One analysis: a name, a one-line description, the analyzers whose findings it builds on, and
 * one method that runs over the index and emits findings. Adding an analysis means writing one
 * class and listing it in {@code META-INF/services/io.kvscope.analysis.Analyzer}; the run orders
 * analyzers by what they {@link #requires()} (see {@link Analyzers#ordered}), never by number.
 */
public interface Analyzer {

  String name();

  String description();

  /**
   * Names of the analyzers whose findings this one reads (for instance, overlap confidence uses
   * the over-length ones). They run first, and they are the only findings it may read
   * ({@link AnalysisContext#findingsOf}).
   */
  default Set<String> requires() {
    return Set.of();
  }

  void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException;
}
