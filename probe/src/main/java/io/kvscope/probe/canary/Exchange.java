package io.kvscope.probe.canary;

import java.time.Instant;

/**
 * One probe request and everything that came back: the record the verdict and the report are
 * built from.
 *
 * @param promptChars the prompt's length in characters
 * @param estimatedTokens its length in tokens, by the run's calibrated ratio
 * @param markersGiven how many markers the prompt carried; {@code firstMarker} the first of them
 * @param status HTTP status, or -1 when no response arrived
 * @param inBandError an error event inside a 2xx stream (a refusal), else null
 * @param errorMessage the error body of a non-2xx response (capped), else null
 * @param transportError a connection failure or timeout, else null
 * @param ttftMs milliseconds from sending to the first generated text, or null when none came
 * @param reportedPromptTokens the server's own count ({@code usage} / {@code meta_info}), or null
 * @param response the generated text (capped at the run's response cap)
 */
public record Exchange(
    PlannedRequest planned,
    int promptChars,
    long estimatedTokens,
    int markersGiven,
    String firstMarker,
    Instant sentAt,
    int status,
    String inBandError,
    String errorMessage,
    String transportError,
    Double ttftMs,
    double totalMs,
    Long reportedPromptTokens,
    Long completionTokens,
    String finishReason,
    String response,
    boolean truncated,
    boolean timedOut) {

  public String id() {
    return planned.id();
  }

  public RequestKind kind() {
    return planned.kind();
  }

  public boolean answered() {
    return status >= 0;
  }

  /**
   * The target has no such path (404, 405, 501): the request tested nothing, and a refusal it is
   * not. A gateway without SGLang's {@code /generate} answers that way.
   */
  public boolean pathMissing() {
    return status == 404 || status == 405 || status == 501;
  }

  /** The server took the prompt and generated from it: a 2xx with text and no error event. */
  public boolean accepted() {
    return status >= 200 && status < 300 && inBandError == null
        && (!response.isEmpty() || completionTokens != null && completionTokens > 0);
  }

  /**
   * The server's own prompt count when it is plausible for this prompt (at least half the
   * estimate), else null: a count of 1 for a long prompt is the one-token stub of the incident,
   * not the prompt's length.
   */
  public Long plausibleServerCount() {
    return reportedPromptTokens != null && reportedPromptTokens * 2 >= estimatedTokens ? reportedPromptTokens : null;
  }

  /** The prompt's length for judging it: the server's plausible count, else the estimate. */
  public long judgedTokens() {
    Long counted = plausibleServerCount();
    return counted != null ? counted : estimatedTokens;
  }
}
