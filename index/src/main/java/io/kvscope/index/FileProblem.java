package io.kvscope.index;

import io.kvscope.ingest.BadInput;

/**
 * One file that did not ingest cleanly, for the per-file problem list an ingest ends with.
 *
 * @param file the file as the user named it (or as the folder walk found it)
 * @param records records read from it in this run
 * @param bad bad lines (or the whole file, for one that could not be read)
 * @param first the first bad input, or {@code null} when the file was skipped as a whole
 * @param skippedBecause why the whole file was skipped (unrecognized, link loop...), or {@code null}
 */
public record FileProblem(String file, long records, long bad, BadInput first, String skippedBecause) {

  /** {@code 12 records, 3 bad (first at line 7: reason)} or the reason it was skipped. */
  public String describe() {
    if (skippedBecause != null) {
      return skippedBecause;
    }
    return String.format("%,d record%s, %,d bad (first at line %d: %s)", records, records == 1 ? "" : "s", bad,
        first.line(), first.reason());
  }
}
