package io.kvscope.analysis.finding;

import java.util.List;

/**
 * A request whose data showed up in a finding's response.
 *
 * @param matchedTokens tokens of the recipient's response attributed to this source
 * @param spans where, on both sides (may be empty for identifier and timing evidence)
 */
public record Source(String requestId, String engineRid, String tenant, long matchedTokens, List<Span> spans) {

  public Source {
    if (requestId == null) {
      throw new IllegalArgumentException("a source needs its request id");
    }
    spans = spans == null ? List.of() : List.copyOf(spans);
  }
}
