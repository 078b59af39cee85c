package io.kvscope.probe.config;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The configuration facts the probe reads from a node, and how several readings of one fact
 * combine. Where endpoints disagree the probe takes the reading that makes the node look worse: the
 * smallest pool and the largest context, because a node admits what its largest limit allows and
 * holds what its smallest pool holds.
 */
public enum FactName {
  POOL_TOKENS(Merge.SMALLEST),
  CONTEXT_LENGTH(Merge.LARGEST),
  PAGE_SIZE(Merge.FIRST),
  ENGINE(Merge.FIRST),
  ENGINE_VERSION(Merge.FIRST),
  ROLE(Merge.FIRST),
  MODEL(Merge.FIRST),
  SERVED_MODEL(Merge.FIRST),
  TRANSFER_BACKEND(Merge.FIRST),
  KV_CANARY(Merge.FIRST),
  KV_CHECKSUM(Merge.FIRST),
  DEFERRED_RELEASE(Merge.FIRST),
  /** Evidence only: SGLang's {@code max_req_input_len}, the scheduler's own input cap. */
  MAX_REQUEST_INPUT(Merge.SMALLEST);

  enum Merge { FIRST, SMALLEST, LARGEST }

  private final Merge merge;

  FactName(Merge merge) {
    this.merge = merge;
  }

  /** {@code pool_tokens}, as in the probe report. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @SuppressWarnings("unchecked")
  Object combine(List<Object> values) {
    if (values.isEmpty()) {
      return null;
    }
    return switch (merge) {
      case FIRST -> values.get(0);
      case SMALLEST -> values.stream().map(v -> (Comparable<Object>) v).min(Comparator.naturalOrder()).orElse(null);
      case LARGEST -> values.stream().map(v -> (Comparable<Object>) v).max(Comparator.naturalOrder()).orElse(null);
    };
  }
}
