package io.kvscope.probe.canary;

import io.kvscope.model.finding.Evidence;
import java.util.List;

/**
 * Evidence of a canary leak the probe caused: the markers of other requests this response carried.
 *
 * @param status the response's HTTP status
 * @param requestKind what the recipient was sent as ({@link RequestKind#id()})
 * @param givenTo the requests those markers were given to
 */
public record MarkerLeakEvidence(String api, int status, String requestKind, List<Marker> markers, List<String> givenTo,
    String expected, String observed) implements Evidence.Check {

  /**
   * One leaked marker.
   *
   * @param match {@code exact}, or {@code cut short} when the response held only its start
   */
  public record Marker(String marker, String givenTo, String match) {}
}
