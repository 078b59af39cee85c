package io.kvscope.model.finding;

import java.util.Collection;
import java.util.List;

/**
 * A request whose data showed up in a finding's response, or one of several that could have.
 *
 * @param matchedTokens tokens of the recipient's response attributed to this source
 * @param spans where, on both sides (may be empty for identifier and timing evidence)
 * @param attribution {@code sole} when this request alone within reach held what the response
 *     carried, {@code candidate} when others held it too
 */
public record Source(String requestId, String engineRid, String tenant, long matchedTokens, List<Span> spans,
    Attribution attribution) {

  public Source {
    if (requestId == null || attribution == null) {
      throw new IllegalArgumentException("a source needs its request id and an attribution");
    }
    spans = spans == null ? List.of() : List.copyOf(spans);
  }

  public boolean sole() {
    return attribution == Attribution.SOLE;
  }

  /**
   * The tokens of one response that {@code sources} account for, each passage once: every sole
   * source's (each held a passage no other request did), and of the candidates only the largest
   * figure, since candidates name the same passage several times over. Every output that gives a
   * response's tokens counts them this way, so the figures agree.
   */
  public static long carried(Collection<Source> sources) {
    long sole = 0;
    long candidates = 0;
    for (Source source : sources) {
      if (source.sole()) {
        sole += source.matchedTokens();
      } else {
        candidates = Math.max(candidates, source.matchedTokens());
      }
    }
    return sole + candidates;
  }
}
