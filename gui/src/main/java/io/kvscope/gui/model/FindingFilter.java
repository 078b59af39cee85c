package io.kvscope.gui.model;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which findings the views show. Every criterion left {@code null} lets everything through.
 *
 * @param tenant matches the finding's own tenant (recipient) or any source's tenant (victim)
 * @param node matches the finding's node or decode node
 * @param searchHits request ids (or engine rids) an index search matched; {@code null} when no
 *     search is active, so an empty set means "the search matched none of the findings"
 * @param searchQuery the query that produced {@code searchHits}, for display
 */
public record FindingFilter(
    FindingKind kind,
    Confidence confidence,
    String tenant,
    String node,
    TimeRange range,
    Set<String> searchHits,
    String searchQuery) implements Predicate<Finding> {

  public static final FindingFilter NONE = new FindingFilter(null, null, null, null, null, null, null);

  public FindingFilter {
    searchHits = searchHits == null ? null : Set.copyOf(searchHits);
  }

  @Override
  public boolean test(Finding f) {
    return (kind == null || f.kind() == kind)
        && (confidence == null || f.confidence() == confidence)
        && (tenant == null || involves(f, tenant))
        && (node == null || node.equals(f.node()) || node.equals(f.decodeNode()))
        && (range == null || range.contains(f.time()))
        && (searchHits == null || matchesSearch(f));
  }

  /** Unresolved tenants match {@link Tenants#UNKNOWN}, as the tenant list names them; config findings have no tenant. */
  private static boolean involves(Finding f, String tenant) {
    if (f.requestId() != null && tenant.equals(Tenants.nameOf(f.tenant()))) {
      return true;
    }
    for (Source source : f.sources()) {
      if (tenant.equals(Tenants.nameOf(source.tenant()))) {
        return true;
      }
    }
    return false;
  }

  private boolean matchesSearch(Finding f) {
    return (f.requestId() != null && searchHits.contains(f.requestId()))
        || (f.engineRid() != null && searchHits.contains(f.engineRid()));
  }

  public boolean isNeutral() {
    return equals(NONE);
  }

  /** The same filter without its time range: what the timeline itself draws. */
  public FindingFilter withoutRange() {
    return withRange(null);
  }

  public FindingFilter withKind(FindingKind value) {
    return new FindingFilter(value, confidence, tenant, node, range, searchHits, searchQuery);
  }

  public FindingFilter withConfidence(Confidence value) {
    return new FindingFilter(kind, value, tenant, node, range, searchHits, searchQuery);
  }

  public FindingFilter withTenant(String value) {
    return new FindingFilter(kind, confidence, blankToNull(value), node, range, searchHits, searchQuery);
  }

  public FindingFilter withNode(String value) {
    return new FindingFilter(kind, confidence, tenant, blankToNull(value), range, searchHits, searchQuery);
  }

  public FindingFilter withRange(TimeRange value) {
    return new FindingFilter(kind, confidence, tenant, node, value, searchHits, searchQuery);
  }

  public FindingFilter withSearch(String query, Set<String> hits) {
    return new FindingFilter(kind, confidence, tenant, node, range, hits, hits == null ? null : query);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
