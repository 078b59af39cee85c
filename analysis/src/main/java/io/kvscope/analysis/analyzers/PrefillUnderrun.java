package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The engine prefilled far fewer tokens than the prompt had: the one-token placeholder of a
 * rejected prompt, answered anyway from whatever the reserved KV pages still held.
 */
public final class PrefillUnderrun implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "prefill-underrun";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Engine prefilled far fewer tokens than the prompt has (input_len=1 stubs)";
  }


  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    PromptLengths lengths = PromptLengths.learn(context);
    double ratio = context.options().underrunRatio();
    context.parameter(NAME + ".ratio", ratio);
    context.forEachRequest(row -> {
      if (row.record().engineInputLen() == null) {
        return;
      }
      PromptLengths.Length length = lengths.of(row);
      if (length == null || row.record().engineInputLen() >= ratio * length.tokens()) {
        return;
      }
      RequestRecord r = row.record();
      Evidence.Underrun evidence = new Evidence.Underrun(RequestFindings.statusCode(row), r.prefillNode(), r.deployment(),
          length.tokens(), length.basis().text, r.engineInputLen(), r.cachedTokens(), row.facts().transferMb(),
          row.facts().rejected(), RequestFindings.roomAmbiguous(row));
      findings.accept(RequestFindings.of(FindingKind.PREFILL_UNDERRUN, Confidence.CONFIRMED, row, evidence));
    });
  }
}
