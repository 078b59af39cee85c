package io.kvscope.ingest;

import java.util.List;

/**
 * Consecutive lines of one file, as {@link LineReader} hands them out (without terminators), the
 * first of them being line {@link #firstLine()} of {@link #fileName()}. This is what a job that
 * splits a large file hands to a {@link LineParser}: records and errors cite the file and line the
 * text came from, wherever it is parsed.
 *
 * @param fileName how records and errors cite the file (see {@link InputFile#name()})
 * @param firstLine the 1-based number of the first line
 */
public record LineBatch(String fileName, long firstLine, List<String> lines) {

  public LineBatch {
    if (fileName == null || fileName.isBlank()) {
      throw new IllegalArgumentException("a line batch needs the name of its file");
    }
    if (firstLine < 1) {
      throw new IllegalArgumentException("line numbers start at 1, was " + firstLine);
    }
    lines = List.copyOf(lines);
  }

  /** The number of the line at {@code index} in {@link #lines()}. */
  public long lineNumber(int index) {
    return firstLine + index;
  }
}
