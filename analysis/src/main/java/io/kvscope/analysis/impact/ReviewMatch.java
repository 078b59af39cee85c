package io.kvscope.analysis.impact;

import java.time.Instant;
import java.util.List;

/**
 * Text a response shared with one other tenant although the engine logs show it was served
 * normally (no leak mechanism): not a leak, and never counted, but listed for a person to review.
 *
 * @param findingId the finding that holds its passages and rules
 * @param sourceTenants the other tenants that held the text within reach
 * @param sourceRequests their requests
 * @param words its longest shared passage in words (0 for an identifier)
 */
public record ReviewMatch(String requestId, String tenant, Instant time, String findingId, List<String> sourceTenants,
    List<String> sourceRequests, int words) {

  public ReviewMatch {
    sourceTenants = List.copyOf(sourceTenants);
    sourceRequests = List.copyOf(sourceRequests);
  }
}
