package io.kvscope.probe.http;

/**
 * How a POST went at the transport level; what the body said went to the {@link PayloadSink}.
 *
 * @param status the HTTP status, or -1 when no response arrived
 * @param headersNanos nanoseconds from sending until the response headers arrived (-1 if never)
 * @param endNanos nanoseconds from sending until the body ended or was cut
 * @param errorBody the body of a non-2xx response (capped), else null
 * @param error a transport failure or timeout, else null
 */
public record Posted(int status, long headersNanos, long endNanos, String errorBody, String error, boolean truncated,
    boolean timedOut) {

  public boolean success() {
    return status >= 200 && status < 300;
  }
}
