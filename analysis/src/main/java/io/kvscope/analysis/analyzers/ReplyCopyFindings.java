package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.RequestColumns.CopyOf;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Findings on a request whose records disagree on its reply. Each copy of the reply is read as a
 * response the request received ({@link RequestColumns#copiesOf}), so a leak in any copy is found;
 * this names the disagreement in the finding's evidence ({@value #RULE}), and keeps one finding of a
 * kind per request: the surest of its copies'. A copy whose record ranks below the kept text's (a
 * trace, which the client may write, where the gateway logged another reply) never makes a finding
 * count on its word alone: such a finding is at most suspect.
 */
final class ReplyCopyFindings implements RecipientFindings {

  /** The rule name a finding's confidence reasons give the disagreement under. */
  static final String RULE = "copies-disagree";

  private static final Comparator<Finding> SURER_FIRST = Comparator
      .comparing((Finding f) -> f.confidence().ordinal())
      .thenComparing(f -> -f.matchedTokens());

  private final RequestColumns columns;
  private final Consumer<Finding> out;
  /** Findings of requests with copies, by id, until every copy has been read. */
  private final Map<String, Finding> held = new TreeMap<>();

  ReplyCopyFindings(RequestColumns columns, Consumer<Finding> out) {
    this.columns = columns;
    this.out = out;
  }

  /** A finding on the response of {@code recipientDoc} (a request, or a copy of its reply). */
  @Override
  public void accept(int recipientDoc, Finding finding) {
    int request = columns.requestDoc(recipientDoc);
    List<CopyOf> copies = columns.copiesOf(request);
    if (copies.isEmpty() || !(finding.evidence() instanceof Evidence.OfLeak evidence)) {
      out.accept(finding);
      return;
    }
    CopyOf on = columns.copy(recipientDoc);
    String all = copies.stream().map(c -> c.copy().where()).collect(Collectors.joining(", "));
    String reason = RULE + ": " + (copies.size() + 1) + " texts of this reply were logged (kept: "
        + copies.getFirst().copy().keptFrom() + "; also " + all + "); found in "
        + (on == null ? "the kept text" : "the copy from " + on.copy().where());
    Confidence confidence = finding.confidence();
    if (on != null && on.copy().outranked() && confidence.counts()) {
      confidence = Confidence.SUSPECT;
      reason += ", a record ranked below the kept text's (its writer may be the client): suspect";
    }
    Finding noted = new Finding(finding.id(), finding.kind(), confidence, finding.requestId(), finding.engineRid(),
        finding.tenant(), finding.time(), finding.node(), finding.decodeNode(), finding.sources(),
        evidence.withReason(reason));
    held.merge(noted.id(), noted, (a, b) -> SURER_FIRST.compare(b, a) < 0 ? b : a);
  }

  /** Hands on the findings held back: call once every response has been read. */
  void flush() {
    held.values().forEach(out);
    held.clear();
  }
}
