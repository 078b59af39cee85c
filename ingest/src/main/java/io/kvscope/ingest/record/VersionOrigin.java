package io.kvscope.ingest.record;

/**
 * What kind of deployment record told an engine version, and so what stretch of a node's life it
 * speaks for and how firmly.
 */
public enum VersionOrigin {
  /** The engine's own log line (vLLM prints its version at startup; SGLang does not). */
  ENGINE_LOG(Coverage.RANGE, true, "the engine's own word (its log, or its live endpoint)"),
  /** An operator-written deployment manifest row: node, from, to, version. */
  MANIFEST(Coverage.RANGE, true, "deployment manifest"),
  /** A Kubernetes pod's container status: this image has run since {@code startedAt}. */
  POD_STATUS(Coverage.STARTED_AT, true, "Kubernetes pod status"),
  /**
   * The same pod before its current container started (earlier containers of one pod ran its one
   * spec, unless the pod's image was patched in place, which kvscope cannot see).
   */
  POD_SPEC(Coverage.RANGE, false, "Kubernetes pod spec (earlier container of the same pod)"),
  /** A Deployment's or StatefulSet's pod template: what new pods get, not when they got it. */
  WORKLOAD_TEMPLATE(Coverage.RANGE, false, "Kubernetes workload template"),
  /** A saved {@code /get_server_info} response: the version of the process running when it was saved. */
  SERVER_INFO(Coverage.RUNNING_AT, false, "saved /get_server_info response");

  /** Which of a node's config epochs a record speaks for. */
  public enum Coverage {
    /** Every epoch that started in {@code [from, to)} (either end may be open). */
    RANGE,
    /** The process that started at {@code from}: the first epoch starting then or after. */
    STARTED_AT,
    /** The process running at {@code from}. */
    RUNNING_AT
  }

  private final Coverage coverage;
  private final boolean dated;
  private final String description;

  VersionOrigin(Coverage coverage, boolean dated, String description) {
    this.coverage = coverage;
    this.dated = dated;
    this.description = description;
  }

  public Coverage coverage() {
    return coverage;
  }

  /**
   * Whether the record itself dates what it says (so a finding built on it can be confirmed);
   * otherwise kvscope inferred the time and says so.
   */
  public boolean dated() {
    return dated;
  }

  public String description() {
    return description;
  }
}
