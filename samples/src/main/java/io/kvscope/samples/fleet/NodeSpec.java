package io.kvscope.samples.fleet;

import io.kvscope.ingest.record.NodeRole;

/**
 * One engine process. Its log file is named after it.
 *
 * @param clockSkewMs how far the node's clock is ahead of true time (negative: behind)
 */
public record NodeSpec(String name, String deployment, NodeRole role, String ip, long clockSkewMs) {

  /** Node-local time for a true time. */
  public long localTime(long trueTime) {
    return trueTime + clockSkewMs;
  }
}
