package io.kvscope.probe.canary;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A prompt past a limit that the server took and answered ({@link Exchange#accepted()}). Past the
 * pool, a fixed engine refuses it at admission; past the context, every engine must. Judged by the
 * server's own count when that count is plausible (confirmed), else by the calibrated estimate
 * (probable): a count of 1 for such a prompt is the stub itself, and evidence.
 */
final class OverLengthRule {

  private OverLengthRule() {}

  static List<Finding> apply(List<Exchange> exchanges, List<String> notes) {
    List<Finding> out = new ArrayList<>();
    for (Exchange e : exchanges) {
      if (!e.kind().overLength() || !e.accepted()) {
        continue;
      }
      long limit = e.planned().limit();
      Long counted = e.plausibleServerCount();
      if (counted != null && counted <= limit) {
        notes.add(e.id() + ": answered, but the server counted " + counted + " prompt tokens, not past the " + limit
            + "-token limit; inconclusive (raise --over-margin)");
        continue;
      }
      String observed = "HTTP " + e.status() + " with " + e.response().length() + " characters generated"
          + (e.reportedPromptTokens() != null && counted == null
              ? "; the server reported " + e.reportedPromptTokens() + " prompt tokens for it (a stub)" : "");
      OverLengthProbeEvidence evidence = new OverLengthProbeEvidence(e.planned().api().id(), e.status(),
          e.kind() == RequestKind.OVER_POOL ? "smallest KV pool" : "context length", limit, e.promptChars(),
          e.estimatedTokens(), e.reportedPromptTokens(), e.completionTokens(), e.ttftMs(),
          "HTTP 400 (or an error event) at admission", observed);
      out.add(new Finding(FindingKind.OVER_LENGTH_ACCEPTED.id() + ":" + e.id(), FindingKind.OVER_LENGTH_ACCEPTED,
          counted != null ? Confidence.CONFIRMED : Confidence.PROBABLE, e.id(), null, null, e.sentAt(), null, null,
          List.of(), evidence));
    }
    return out;
  }
}
