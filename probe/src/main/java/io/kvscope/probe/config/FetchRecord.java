package io.kvscope.probe.config;

import io.kvscope.probe.http.Fetched;

/**
 * One config GET, for the report's evidence: what was asked, what came back, whether the probe
 * could read it.
 *
 * @param status HTTP status, or -1 when no response arrived
 * @param read true when the body had the expected shape and was used
 */
public record FetchRecord(String path, int status, long elapsedMs, String error, boolean read) {

  static FetchRecord of(String path, Fetched f, boolean read) {
    return new FetchRecord(path, f.status(), f.elapsedMs(), f.status() < 0 ? f.error() : f.truncated() ? "body over the size cap" : null, read);
  }
}
