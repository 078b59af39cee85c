package io.kvscope.cli;

/** What a {@code kvscope} process tells its caller; the list in {@link KvScope}'s help says the same. */
final class ExitCodes {

  /** Success; for {@code audit} and {@code probe}, nothing found. */
  static final int OK = 0;
  /** Findings ({@code audit}, {@code probe}, {@code score}) or bad input under {@code --strict}. */
  static final int FINDINGS = 1;
  /** Bad usage, an unreadable index, an I/O failure. */
  static final int ERROR = 2;

  private ExitCodes() {}
}
