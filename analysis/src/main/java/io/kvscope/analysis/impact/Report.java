package io.kvscope.analysis.impact;

import io.kvscope.model.finding.Finding;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything an analysis run concluded: the report.json contract (versioned by
 * {@link #REPORT_VERSION}) and the single input of every writer and of the GUI.
 *
 * @param parameters the settings and learned values the run used (thresholds, cut-offs, fits),
 *     so a reviewer can see how each number was reached
 * @param dataCategories PII classes seen in leaked spans, with counts of responses
 * @param review text shared with one other tenant on responses the logs show were served normally:
 *     listed apart for review, never counted ({@link Summary#reviewResponses})
 * @param evidence the input files the figures rest on, and the kvscope that drew them
 */
public record Report(
    String reportVersion,
    Instant generatedAt,
    String index,
    Summary summary,
    List<Window> windows,
    List<Finding> findings,
    List<TenantImpact> tenants,
    List<MatrixCell> matrix,
    List<HourCount> timeline,
    Map<String, Long> dataCategories,
    Coverage coverage,
    Map<String, Object> parameters,
    List<ReviewMatch> review,
    EvidenceUsed evidence) {

  public static final String REPORT_VERSION = "1.4";

  /** A report without a record of its evidence. */
  public Report(String reportVersion, Instant generatedAt, String index, Summary summary, List<Window> windows,
      List<Finding> findings, List<TenantImpact> tenants, List<MatrixCell> matrix, List<HourCount> timeline,
      Map<String, Long> dataCategories, Coverage coverage, Map<String, Object> parameters, List<ReviewMatch> review) {
    this(reportVersion, generatedAt, index, summary, windows, findings, tenants, matrix, timeline, dataCategories,
        coverage, parameters, review, EvidenceUsed.NONE);
  }

  public Report {
    windows = List.copyOf(windows);
    findings = List.copyOf(findings);
    tenants = List.copyOf(tenants);
    matrix = List.copyOf(matrix);
    timeline = List.copyOf(timeline);
    review = review == null ? List.of() : List.copyOf(review);
    // Sorted, so every writer iterates them in the same order in every run (Map.copyOf does not).
    dataCategories = Collections.unmodifiableSortedMap(new TreeMap<>(dataCategories));
    parameters = Collections.unmodifiableSortedMap(new TreeMap<>(parameters));
    evidence = evidence == null ? EvidenceUsed.NONE : evidence;
  }

  public Report withEvidence(EvidenceUsed newEvidence) {
    return new Report(reportVersion, generatedAt, index, summary, windows, findings, tenants, matrix, timeline,
        dataCategories, coverage, parameters, review, newEvidence);
  }

  public Report withSummary(Summary newSummary) {
    return new Report(reportVersion, generatedAt, index, newSummary, windows, findings, tenants, matrix, timeline,
        dataCategories, coverage, parameters, review, evidence);
  }

  /** A report with no review list and no record of its evidence (one written before 1.3, or built by hand). */
  public Report(String reportVersion, Instant generatedAt, String index, Summary summary, List<Window> windows,
      List<Finding> findings, List<TenantImpact> tenants, List<MatrixCell> matrix, List<HourCount> timeline,
      Map<String, Long> dataCategories, Coverage coverage, Map<String, Object> parameters) {
    this(reportVersion, generatedAt, index, summary, windows, findings, tenants, matrix, timeline, dataCategories,
        coverage, parameters, List.of());
  }
}
