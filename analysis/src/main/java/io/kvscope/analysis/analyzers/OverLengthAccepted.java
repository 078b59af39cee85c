package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.RequestRow;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Successful responses to prompts the serving nodes could not hold: longer than the smaller of the
 * node's context length and KV pool at the time, or rejected by the node's own engine. Such a
 * response cannot have come from the prompt it answered. Where the prefill node is not in the logs,
 * the prefill nodes that could have served the request bound it: past the largest of their limits
 * is past its own.
 */
public final class OverLengthAccepted implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "over-length-accepted";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "2xx responses to prompts past the serving node's real limit, or that its engine rejected";
  }


  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    PromptLengths lengths = PromptLengths.learn(context);
    DeploymentPrefillLimits deploymentLimits = DeploymentPrefillLimits.learn(context);
    context.forEachRequest(row -> {
      if (!row.record().succeeded()) {
        return;
      }
      PromptLengths.Length length = lengths.of(row);
      Long limit = row.servingLimit();
      boolean fromDeployment = false;
      if (row.record().prefillNode() == null) {
        Long prefillLimit = deploymentLimits.largestFor(row);
        if (prefillLimit != null && (limit == null || prefillLimit < limit)) {
          limit = prefillLimit;
          fromDeployment = true;
        }
      }
      boolean pastLimit = length != null && limit != null && length.tokens() > limit;
      if (!pastLimit && !row.facts().rejected()) {
        return;
      }
      String limitFrom = fromDeployment
          ? "the largest limit of the prefill nodes that could have served it " + deploymentLimits.candidates(row)
              + " (its own prefill node is not in the logs)"
          : "the request's own nodes";
      findings.accept(RequestFindings.of(FindingKind.OVER_LENGTH_ACCEPTED, confidence(row, length, limit), row,
          evidence(row, length, limit, limitFrom)));
    });
  }

  /** Confirmed when the engine said so or a logged count exceeds the limit; probable on a text estimate alone. */
  private static Confidence confidence(RequestRow row, PromptLengths.Length length, Long limit) {
    if (row.facts().rejected()) {
      return Confidence.CONFIRMED;
    }
    return length.basis() == PromptLengths.Basis.TEXT_ESTIMATE ? Confidence.PROBABLE : Confidence.CONFIRMED;
  }

  private static Evidence.OverLength evidence(RequestRow row, PromptLengths.Length length, Long limit, String limitFrom) {
    RequestRecord r = row.record();
    EngineFacts facts = row.facts();
    return new Evidence.OverLength(RequestFindings.statusCode(row), r.prefillNode(), r.deployment(), r.promptTokens(),
        length == null ? null : length.estimateFromText(), length == null ? null : length.tokens(),
        length == null ? null : length.basis().text, limit, row.poolTokens(), row.contextLength(), facts.rejected(),
        facts.rejected() ? facts.requestedLen() + " > " + facts.rejectionLimit() : null, limitFrom,
        RequestFindings.roomAmbiguous(row));
  }
}
