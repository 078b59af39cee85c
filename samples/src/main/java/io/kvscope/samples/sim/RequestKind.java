package io.kvscope.samples.sim;

/** What a request is, which decides how its prompt and reply are written. */
public enum RequestKind {
  /** A new conversation: private prose with identifiers. */
  CHAT,
  /** A later turn: the conversation so far is re-sent (prefix-cache hit); the next turn of a question. */
  FOLLOWUP,
  /** A question over pasted public boilerplate. */
  DOC_QA,
  /**
   * A popular question asked verbatim by many tenants under their own system prompts; the model
   * gives every one of them the same answer.
   */
  POPULAR,
  /** An agent template, retrieved knowledge-base chunks and a question (retrieval-augmented). */
  RAG,
  /** A long-context prompt (tens to hundreds of thousands of tokens) pasting manuals. */
  LONG,
  /** A prompt longer than the prefill KV pool. */
  OVER_LENGTH
}
