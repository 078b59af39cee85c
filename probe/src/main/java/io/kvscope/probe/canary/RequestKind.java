package io.kvscope.probe.canary;

/** What a probe request is for. */
public enum RequestKind {
  /** Marked prompts sent first, concurrently, so their pages hold markers when freed. */
  FILL("fill"),
  /** Short marked prompts between the over-length ones: the deployment's everyday path. */
  NORMAL("normal"),
  /** Just over the smallest KV pool, within the context: the incident's prompts. */
  OVER_POOL("over-pool"),
  /** Just over the context length: must be refused everywhere. */
  OVER_CONTEXT("over-context");

  private final String id;

  RequestKind(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public boolean overLength() {
    return this == OVER_POOL || this == OVER_CONTEXT;
  }
}
