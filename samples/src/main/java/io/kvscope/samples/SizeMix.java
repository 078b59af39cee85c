package io.kvscope.samples;

/**
 * How the traffic's record sizes are mixed. The over-length prompts that start the incident are
 * megabytes each (they must exceed the prefill pool); how much ordinary traffic surrounds them
 * decides whether a benchmark on the incident measures a few huge records or many ordinary ones.
 */
public enum SizeMix {
  /** The incident as generated so far: at small scale most raw bytes are a few dozen over-length prompts. */
  INCIDENT(1),
  /**
   * A chat service's mix: eight times the ordinary requests (chats, follow-ups, pasted documents,
   * retrieval) around the same over-length prompts, so that most records are a few kilobytes and
   * ordinary traffic carries most of the bytes.
   */
  CHAT(8);

  private final double ordinaryFactor;

  SizeMix(double ordinaryFactor) {
    this.ordinaryFactor = ordinaryFactor;
  }

  /** Ordinary (not over-length) requests per day relative to the scale's. */
  public double ordinaryFactor() {
    return ordinaryFactor;
  }
}
