package io.kvscope.ingest.record;

/**
 * Which vantage point wrote a request record. When several records describe one request, the
 * higher vantage point's word wins where they disagree (see {@code io.kvscope.ingest.merge}).
 * Declared from the lowest rank to the highest.
 */
public enum RecordOrigin {
  /**
   * A trace or telemetry event (OTLP). Often written by the client's own SDK, so whoever sent the
   * request controls it: it fills gaps, it never overrules the gateway.
   */
  TRACE,
  /** The operator's gateway log (LiteLLM, a mapped custom gateway log, canonical Arrow records). */
  GATEWAY;

  /** Higher wins. */
  public int rank() {
    return ordinal();
  }
}
