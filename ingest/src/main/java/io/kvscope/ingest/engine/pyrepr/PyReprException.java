package io.kvscope.ingest.engine.pyrepr;

/**
 * Text that is not a well-formed Python repr, most often a log line cut mid-value. The message
 * names the position and what was expected, never the text itself (it may be a prompt).
 */
public final class PyReprException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PyReprException(String message) {
    super(message, null, false, false);
  }
}
