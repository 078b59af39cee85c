package io.kvscope.model.evidence;

/**
 * Whether the engine logs could show how a response was served. Text another tenant also holds
 * counts as a leak on its own only where they could not: a response the logs show was served
 * normally (its prompt prefilled whole, its decode side logged, no underrun, no failed or
 * checksum-failed transfer, nothing else of a leak) read no one's pages, whatever its text shares.
 */
public enum Observation {
  /** Both sides logged it, its prefilled length is known, and no mechanism of a leak shows. */
  SERVED_NORMALLY("the engine logs show it served normally (prompt prefilled whole, no underrun, no failed transfer)"),
  /** The gateway names no engine rid, and no engine line was joined to it. */
  NO_ENGINE_LOG("no engine log line names the request"),
  /** The gateway names its engine rid, but no engine line carries it. */
  RID_NOT_JOINED("its engine rid is in no engine log line"),
  /** Its decode side logged it, its prefill side did not (a gap in the prefill node's log). */
  PREFILL_NOT_LOGGED("its prefill node logged nothing of it (a gap in that node's log)"),
  /** Its prefill side logged it, its decode side did not (where transfer failures would show). */
  DECODE_NOT_LOGGED("its decode node logged nothing of it (a gap in that node's log)"),
  /** It was logged, but not with the number of tokens prefilled, so an underrun cannot show. */
  INPUT_LENGTH_NOT_LOGGED("the engine logs do not give how many of its tokens were prefilled"),
  /** Its first token came far sooner than its prompt could be prefilled: not a normal service. */
  TIMING_ANOMALY("its first token came far sooner than its prompt could be prefilled");

  private final String phrase;

  Observation(String phrase) {
    this.phrase = phrase;
  }

  /** What the logs say about it, as the evidence quotes it. */
  public String phrase() {
    return phrase;
  }

  public boolean servedNormally() {
    return this == SERVED_NORMALLY;
  }

  /**
   * From what the engine facts joined onto a request hold; whether a mechanism of a leak showed is
   * {@link Mechanism}'s other half.
   *
   * @param events engine log lines joined onto it
   * @param ridKnown the gateway names its engine rid
   * @param prefillLogged a prefill (or unified) node logged it
   * @param decodeLogged a decode (or unified) node logged it
   * @param inputLengthLogged the number of tokens prefilled is known
   * @param timingAnomaly its time to first token was far below its prompt's prefill time
   */
  public static Observation of(int events, boolean ridKnown, boolean prefillLogged, boolean decodeLogged,
      boolean inputLengthLogged, boolean timingAnomaly) {
    if (events == 0) {
      return ridKnown ? RID_NOT_JOINED : NO_ENGINE_LOG;
    }
    if (!prefillLogged) {
      return PREFILL_NOT_LOGGED;
    }
    if (!decodeLogged) {
      return DECODE_NOT_LOGGED;
    }
    if (!inputLengthLogged) {
      return INPUT_LENGTH_NOT_LOGGED;
    }
    return timingAnomaly ? TIMING_ANOMALY : SERVED_NORMALLY;
  }
}
