package io.kvscope.probe.http;

/**
 * Receives a 2xx response body as it arrives: each server-sent-event {@code data:} payload, or the
 * whole body once when the server did not stream.
 */
@FunctionalInterface
public interface PayloadSink {

  /**
   * @param payload one event's data (JSON text), never the {@code [DONE]} terminator
   * @param nanosSinceSend when it arrived, counted from the moment the request was sent
   */
  void payload(String payload, long nanosSinceSend);
}
