package io.kvscope.analysis.impact;

import io.kvscope.model.finding.FindingKind;
import java.util.List;
import java.util.Set;

/**
 * The exposure figures known before the text analysis: the mechanism half, from the engine facts and
 * config epochs alone. Counted by the same rules as the final {@link Summary} (so each equals its
 * final twin, never more), but it says nothing about leaked responses: an empty one is "not known
 * yet", never "no leak".
 *
 * @param overLengthAccepted distinct requests answered 2xx past their serving node's limit (as
 *     {@link Summary#overLengthAccepted})
 * @param prefillUnderruns distinct requests whose prefill stopped short (as {@link Summary#prefillUnderruns})
 * @param vulnerableWindows the nodes' vulnerable windows, without the leak counts the text analysis adds
 */
public record Preliminary(long overLengthAccepted, long prefillUnderruns, List<Window> vulnerableWindows) {

  /** The kinds of finding these figures are counted from, and the windows kept open by. */
  public static final Set<FindingKind> MADE_OF = Set.of(FindingKind.OVER_LENGTH_ACCEPTED, FindingKind.PREFILL_UNDERRUN);

  public Preliminary {
    vulnerableWindows = List.copyOf(vulnerableWindows);
  }
}
