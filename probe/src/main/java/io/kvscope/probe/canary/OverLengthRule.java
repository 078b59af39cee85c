package io.kvscope.probe.canary;

import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
      Map<String, Object> evidence = new LinkedHashMap<>();
      evidence.put("api", e.planned().api().id());
      evidence.put("status", e.status());
      evidence.put("limit", e.kind() == RequestKind.OVER_POOL ? "smallest KV pool" : "context length");
      evidence.put("limit_tokens", limit);
      evidence.put("prompt_chars", e.promptChars());
      evidence.put("estimated_prompt_tokens", e.estimatedTokens());
      evidence.put("reported_prompt_tokens", e.reportedPromptTokens());
      evidence.put("completion_tokens", e.completionTokens());
      evidence.put("ttft_ms", e.ttftMs());
      evidence.put("expected", "HTTP 400 (or an error event) at admission");
      evidence.put("observed", "HTTP " + e.status() + " with " + e.response().length() + " characters generated"
          + (e.reportedPromptTokens() != null && counted == null
              ? "; the server reported " + e.reportedPromptTokens() + " prompt tokens for it (a stub)" : ""));
      out.add(new Finding(FindingKind.OVER_LENGTH_ACCEPTED.id() + ":" + e.id(), FindingKind.OVER_LENGTH_ACCEPTED,
          counted != null ? Confidence.CONFIRMED : Confidence.PROBABLE, e.id(), null, null, e.sentAt(), null, null,
          List.of(), evidence));
    }
    return out;
  }
}
