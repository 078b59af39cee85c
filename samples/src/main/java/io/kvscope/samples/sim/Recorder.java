package io.kvscope.samples.sim;

import java.io.IOException;

/**
 * Receives what the simulation decided, in event order, and turns it into log lines. Every line a
 * callback schedules is at or after the event's time, so the recorder may write out everything
 * before the time passed to {@link #advanceTo(long)}.
 */
public interface Recorder {

  /** All lines before true time {@code time} are final. */
  void advanceTo(long time) throws IOException;

  /**
   * A request reached the engines: prefill-side facts and the decode node's receipt are known.
   * For rejected requests everything is known, the gateway's answer included.
   */
  void admitted(RequestPlan plan) throws IOException;

  /** A request got its decode pages: decode-side facts and the gateway's answer are known. */
  void decoded(RequestPlan plan) throws IOException;

  /** The simulation is over: write out everything and close. */
  void finish() throws IOException;
}
