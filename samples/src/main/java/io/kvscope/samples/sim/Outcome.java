package io.kvscope.samples.sim;

/** How the fleet treated a request. */
public enum Outcome {
  /** Prefilled and decoded normally. */
  SERVED,
  /** The buggy path: rejected to a one-token placeholder on prefill, decoded over stale pages, HTTP 200. */
  STUB,
  /** The tokenizer refused a prompt at or over the context length: HTTP 400. */
  REJECTED_CONTEXT,
  /** The scheduler refused a prompt over its max input length and the abort was honoured: HTTP 400. */
  REJECTED_LENGTH
}
