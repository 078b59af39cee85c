package io.kvscope.probe.http;

import java.net.URI;

/**
 * One read-only GET and what came back.
 *
 * @param status the HTTP status, or -1 when no response arrived (refused, timed out, reset)
 * @param body the body as text (capped), or null when no response arrived
 * @param error why no usable response arrived, or null
 */
public record Fetched(URI uri, int status, String body, long elapsedMs, String error, boolean truncated) {

  public boolean ok() {
    return status >= 200 && status < 300 && body != null && !truncated;
  }

  /** {@code 200 in 12 ms}, {@code 404}, or the transport error, for evidence tables. */
  public String describe() {
    if (status < 0) {
      return error == null ? "no response" : error;
    }
    return status + (truncated ? " (body over the size cap)" : "") + " in " + elapsedMs + " ms";
  }
}
