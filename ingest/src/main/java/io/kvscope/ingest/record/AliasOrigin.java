package io.kvscope.ingest.record;

/**
 * Where a {@link NodeAlias} was learned, in order of authority: when two names of one node compete
 * to be the name reports use, the one from the more authoritative origin wins.
 */
public enum AliasOrigin {
  /** The user said so ({@code --node-alias}, or the aliases column of a deployment manifest). */
  USER,
  /** A server's own startup arguments: its concrete {@code host} and {@code port}. */
  ENGINE_ARGS,
  /** A Kubernetes pod record: the pod's name, its IP and its container ports. */
  KUBERNETES,
  /** A saved {@code /get_server_info} response: the server's {@code host} and {@code port}. */
  SERVER_INFO,
  /** A Prometheus sample that carries both a pod label and its scrape target's {@code instance}. */
  PROMETHEUS,
  /**
   * Learned from the requests: decode servers name their prefill peer by {@code bootstrap_host};
   * the prefill node that logged the same {@code bootstrap_room} is that host.
   */
  BOOTSTRAP_HOST;

  /** Lower is more authoritative. */
  public int rank() {
    return ordinal();
  }
}
