package io.kvscope.analysis.impact;

import java.time.Instant;
import java.util.List;

/**
 * What the logs did not show, so that "none found" can be weighed: hours a node wrote nothing,
 * requests without bodies, requests not joined to engine logs.
 */
public record Coverage(List<Gap> gaps, long requests, long requestsWithoutBodies, long requestsWithoutEngineLogs) {

  public Coverage {
    gaps = List.copyOf(gaps);
  }

  /** A stretch with no engine log lines from {@code node} inside its active period. */
  public record Gap(String node, Instant start, Instant end, String reason) {}
}
