package io.kvscope.spark;

import java.io.Serializable;

/**
 * One input file as the plan saw it: a row of {@code inputs/}.
 *
 * @param uri where tasks read it (a Hadoop file system URL: {@code file:}, {@code hdfs:}, {@code s3a:})
 * @param name how records and errors cite it: the path as the user gave it, extended by the walk
 *     ({@code logs/gateway/a.jsonl}), as the single-machine ingest names it
 * @param format the ingestor that claimed it by content, or {@code null} when it is not read
 * @param skippedBecause why a file is not read though it could be (kvscope's own output, empty, no
 *     format): a problem of the run, not a bad record
 * @param unreadable why a file could not be read at all: a bad record, quarantined with line 0
 */
record PlannedFile(String uri, String name, long size, String format, String skippedBecause, String unreadable)
    implements Serializable {

  static PlannedFile listed(String uri, String name, long size) {
    return new PlannedFile(uri, name, size, null, null, null);
  }

  PlannedFile detected(String ingestor) {
    return new PlannedFile(uri, name, size, ingestor, null, null);
  }

  PlannedFile skipped(String because) {
    return new PlannedFile(uri, name, size, null, because, null);
  }

  PlannedFile cannotRead(String why) {
    return new PlannedFile(uri, name, size, null, null, why);
  }
}
