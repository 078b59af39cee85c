package io.kvscope.gui.audit;

/** One item of the operator checklist, as the audit view's columns show it. */
public enum Check {
  POOL_VS_CONTEXT("KV pool below context length"),
  ENGINE_VERSION("engine older than the fixed release"),
  KV_CANARY("KV canary not enabled"),
  KV_CHECKSUM("KV checksum not enabled"),
  DEFERRED_RELEASE("deferred KV release not enabled");

  private final String problem;

  Check(String problem) {
    this.problem = problem;
  }

  /** What failing this check means, for tooltips and summaries. */
  public String problem() {
    return problem;
  }
}
