package io.kvscope.gui.model;

import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import java.util.List;

/** Per-tenant counts and the source x recipient matrix: the report's, or the analysis' tally of a filtered selection. */
public record Impact(List<TenantImpact> tenants, List<MatrixCell> matrix) {

  public Impact {
    tenants = List.copyOf(tenants);
    matrix = List.copyOf(matrix);
  }

  public static Impact of(Report report) {
    return new Impact(report.tenants(), report.matrix());
  }

  public static Impact of(ImpactModel.Tally tally) {
    return new Impact(tally.tenants(), tally.matrix());
  }
}
