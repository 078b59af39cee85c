package io.kvscope.gui.model;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.impact.ImpactModel;
import java.util.List;

/**
 * Recounts tenant impact for a selection of findings with the report's own counting rules
 * ({@link ImpactModel#tally}): only counted cross-tenant leaks, requests and responses counted
 * once, sole attributions apart from candidates.
 */
public final class ImpactTally {

  private ImpactTally() {}

  public static Impact of(List<Finding> findings) {
    ImpactModel.Tally tally = ImpactModel.tally(findings);
    return new Impact(tally.tenants(), tally.matrix());
  }
}
