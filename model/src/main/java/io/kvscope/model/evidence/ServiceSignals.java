package io.kvscope.model.evidence;

/**
 * What the logs say of how one request was served, as plain values: the analyzers' findings about
 * it and the engine facts joined onto it. {@link #mechanism()} turns them into the
 * {@link Mechanism} the rules judge, the same way whichever engine gathered them.
 *
 * @param overLengthAccepted its prompt was longer than the serving node could hold, yet answered
 * @param prefillUnderrun the engine prefilled far fewer tokens than the prompt had
 * @param transferFailures KV transfer or bootstrap failures logged for it
 * @param canaryViolations KV canary violations logged for it
 * @param checksumMismatches KV checksum mismatches logged for it
 * @param timingAnomaly its first token came far sooner than its prefill takes
 * @param vulnerableWindowNode the prefill node whose vulnerable window it was served in, or null
 * @param observation whether the engine logs could show how it was served
 */
public record ServiceSignals(boolean overLengthAccepted, boolean prefillUnderrun, int transferFailures,
    int canaryViolations, int checksumMismatches, boolean timingAnomaly, String vulnerableWindowNode,
    Observation observation) {

  /** The mechanism half of the evidence: decoded over foreign KV, never prefilled, what supports it. */
  public Mechanism mechanism() {
    java.util.List<String> foreign = new java.util.ArrayList<>();
    java.util.List<String> supporting = new java.util.ArrayList<>();
    if (overLengthAccepted) {
      foreign.add("over-length prompt accepted");
    }
    if (prefillUnderrun) {
      foreign.add("prefill underrun");
    }
    if (transferFailures > 0) {
      foreign.add("KV transfer or bootstrap failure");
    }
    if (canaryViolations > 0) {
      foreign.add("KV canary violation");
    }
    if (checksumMismatches > 0) {
      foreign.add("KV checksum mismatch");
    }
    if (timingAnomaly) {
      supporting.add("time to first token far below the prompt's prefill time");
    }
    if (vulnerableWindowNode != null) {
      supporting.add("served inside a vulnerable window of " + vulnerableWindowNode);
    }
    return new Mechanism(neverPrefilled(), foreign, supporting, observation);
  }

  /** Its prompt never reached the model: its reply was decoded over whatever the reserved pages held. */
  public boolean neverPrefilled() {
    return overLengthAccepted || prefillUnderrun;
  }

  /**
   * Whether a request was turned away before any of it was prefilled, so it wrote no KV: the engine
   * logged a rejection and the client got no success, or the client got a 4xx refusal. SGLang checks
   * the length in the tokenizer (a 400 to the client) and in the scheduler before prefill (an abort);
   * a gateway refuses bad, unauthorised or rate-limited requests before forwarding them. Not 408 or
   * 499: a timeout or a client that hung up can come after the prefill.
   */
  public static boolean refusedBeforePrefill(boolean engineRejected, boolean succeeded, Integer statusCode) {
    if (engineRejected && !succeeded) {
      return true;
    }
    return statusCode != null && statusCode >= 400 && statusCode < 500 && statusCode != 408 && statusCode != 499;
  }
}
