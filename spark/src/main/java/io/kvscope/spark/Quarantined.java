package io.kvscope.spark;

import io.kvscope.ingest.BadInput;

/**
 * A bad line or record as the single-machine quarantine file keeps it: where, why, and the raw text
 * when there is one. A row of {@code quarantine/}, which holds prompts: the output folder is owner-only.
 */
record Quarantined(String file, long line, String reason, String raw) {

  static Quarantined of(BadInput bad, String raw) {
    return new Quarantined(bad.file(), bad.line(), bad.reason(), raw);
  }

  /** Where and why, without the raw text. */
  BadInput bad() {
    return new BadInput(file, line, reason);
  }
}
