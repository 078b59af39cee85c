package io.kvscope.analysis.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * Most severe first, the order of every findings table: by confidence tier, then by kind (text
 * proof of a leak before the mechanism that let it happen, root-cause config facts before timing
 * hints), then by foreign tokens carried, then oldest first, then id so the order is total.
 */
public final class FindingOrder {

  private static final List<FindingKind> KIND_RANK = List.of(
      FindingKind.CANARY_LEAK,
      FindingKind.CROSS_TENANT_OVERLAP,
      FindingKind.RARE_IDENTIFIER_LEAK,
      FindingKind.OVER_LENGTH_ACCEPTED,
      FindingKind.PREFILL_UNDERRUN,
      FindingKind.CONFIG_POOL_BELOW_CONTEXT,
      FindingKind.CONFIG_UNPATCHED_ENGINE,
      FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN,
      FindingKind.CONFIG_MISSING_SAFEGUARD,
      FindingKind.TIMING_ANOMALY,
      FindingKind.SAME_TENANT_REUSE);

  /** The severity order. */
  public static final Comparator<Finding> MOST_SEVERE_FIRST = Comparator
      .comparing(Finding::confidence)
      .thenComparingInt((Finding f) -> rank(f.kind()))
      .thenComparing(Comparator.comparingLong(Finding::matchedTokens).reversed())
      .thenComparing(Finding::time, Comparator.nullsLast(Comparator.<Instant>naturalOrder()))
      .thenComparing(Finding::id);

  private FindingOrder() {}

  private static int rank(FindingKind kind) {
    int rank = KIND_RANK.indexOf(kind);
    return rank < 0 ? KIND_RANK.size() : rank;
  }
}
