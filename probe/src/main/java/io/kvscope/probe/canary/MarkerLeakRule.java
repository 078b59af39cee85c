package io.kvscope.probe.canary;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A response that carries a marker this run gave to another request: that request's prompt (or
 * its pages) reached this response. One finding per response, listing each marker with the
 * request it was given to. Markers nobody was given are noted, not counted.
 */
final class MarkerLeakRule {

  private MarkerLeakRule() {}

  static List<Finding> apply(List<Exchange> exchanges, MarkerLedger ledger, List<String> notes) {
    List<Finding> out = new ArrayList<>();
    for (Exchange e : exchanges) {
      if (e.response().isEmpty()) {
        continue;
      }
      List<MarkerLeakEvidence.Marker> leaked = new ArrayList<>();
      Set<String> owners = new LinkedHashSet<>();
      for (MarkerLedger.Classified c : ledger.classify(e.id(), e.response())) {
        if (c.leak()) {
          leaked.add(new MarkerLeakEvidence.Marker(c.marker(), c.owner(),
              c.match() == MarkerLedger.Match.OTHER_REQUEST ? "exact" : "cut short"));
          owners.add(c.owner());
        } else if (c.match() == MarkerLedger.Match.UNISSUED_THIS_RUN) {
          notes.add(e.id() + ": carries " + c.marker() + ", shaped like this run's markers but given to no request");
        } else if (c.match() == MarkerLedger.Match.NOT_THIS_RUN) {
          notes.add(e.id() + ": carries " + c.marker() + ", not a marker of this run (an earlier run's, or imitated)");
        }
      }
      if (leaked.isEmpty()) {
        continue;
      }
      MarkerLeakEvidence evidence = new MarkerLeakEvidence(e.planned().api().id(), e.status(), e.kind().id(), leaked,
          List.copyOf(owners), "only markers of its own prompt",
          leaked.size() + " marker(s) of " + owners.size() + " other request(s)");
      out.add(new Finding(FindingKind.CANARY_LEAK.id() + ":" + e.id(), FindingKind.CANARY_LEAK, Confidence.CONFIRMED,
          e.id(), null, null, e.sentAt(), null, null, List.of(), evidence));
    }
    return out;
  }
}
