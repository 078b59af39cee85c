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
  OVER_LENGTH,
  /**
   * A question another tenant asked bare, asked after pasted text (a document, a licence) and
   * answered as the bare one was: served normally, the same answer is not a leak (a trap, made
   * only with {@code GeneratorOptions.traps}).
   */
  PASTED_QUESTION,
  /**
   * A question another tenant asked, in words that differ at its end, answered with the same
   * standard answer: served normally, not a leak (a trap, made only with {@code GeneratorOptions.traps}).
   */
  NEAR_DUPLICATE
}
