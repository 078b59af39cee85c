package io.kvscope.ingest;

/**
 * A line or record that could not be read. The reason names what was wrong, never the content:
 * bad lines may hold prompt text, which goes only to the owner-only quarantine file.
 */
public record BadInput(String file, long line, String reason) {

  public BadInput {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a bad input needs a reason");
    }
  }

  /** {@code file:line: reason}, the form editors and terminals link to, safe to print ({@link Printable}). */
  @Override
  public String toString() {
    return Printable.text(file) + ":" + line + ": " + Printable.text(reason);
  }
}
