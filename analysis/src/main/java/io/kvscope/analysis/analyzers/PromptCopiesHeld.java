package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.index.doc.TextCopies;
import io.kvscope.model.finding.Confidence;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where one source of a finding held its evidence (a passage or an identifier): in its kept prompt
 * or reply, or only in logged copies of its prompt. A finding names every such copy in its reasons
 * ({@value ReplyCopyFindings#RULE}), and one whose every source held the evidence only in copies a
 * record ranked below the kept text's gives (a trace, which the client may write) is at most suspect.
 */
final class PromptCopiesHeld {

  /** The copies of its prompt that held evidence its kept texts do not. */
  private final Set<TextCopies.Copy> copies = new LinkedHashSet<>();
  /** Held only in prompts that a record ranked below the kept prompt's gives. */
  private boolean clientsWordOnly = true;

  /** Notes that the source held evidence in {@code copy}, or in its kept text where null. */
  void heldIn(RequestColumns.CopyOf copy) {
    if (copy != null) {
      copies.add(copy.copy());
    }
    clientsWordOnly &= copy != null && copy.copy().outranked();
  }

  /**
   * Adds to {@code reasons} the copies each source (by request id) held the evidence in, and
   * returns {@code confidence}, at most suspect where every source held it only in a client's word.
   */
  static Confidence note(Confidence confidence, Map<String, PromptCopiesHeld> bySource, List<String> reasons) {
    bySource.forEach((source, held) -> held.copies.forEach(c -> reasons.add(ReplyCopyFindings.RULE
        + ": the prompt of source " + source + " was found in its copy from " + c.where() + " (kept: " + c.keptFrom()
        + ")")));
    if (confidence.counts() && bySource.values().stream().allMatch(h -> h.clientsWordOnly)) {
      reasons.add(ReplyCopyFindings.RULE + ": every source held it only in a prompt a record ranked below the kept"
          + " text's gives (its writer may be the client): suspect");
      return Confidence.SUSPECT;
    }
    return confidence;
  }
}
