package io.kvscope.model.finding;

import java.util.Locale;

/** What a finding says happened; {@link #id()} is the report.json spelling. */
public enum FindingKind {
  CROSS_TENANT_OVERLAP,
  CANARY_LEAK,
  RARE_IDENTIFIER_LEAK,
  OVER_LENGTH_ACCEPTED,
  PREFILL_UNDERRUN,
  TIMING_ANOMALY,
  SAME_TENANT_REUSE,
  CONFIG_POOL_BELOW_CONTEXT,
  CONFIG_UNPATCHED_ENGINE,
  /**
   * A node epoch whose engine release no deployment record tells (no SGLang log line carries it):
   * neither patched nor unpatched can be claimed; the evidence says which record would settle it.
   */
  CONFIG_ENGINE_VERSION_UNKNOWN,
  CONFIG_MISSING_SAFEGUARD;

  /** {@code cross_tenant_overlap}, as in report.json. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A short name for people ("prefill underrun"); machine-readable files keep {@link #id()}. */
  public String label() {
    return switch (this) {
      case CROSS_TENANT_OVERLAP -> "cross-tenant text overlap";
      case CANARY_LEAK -> "canary marker leak";
      case RARE_IDENTIFIER_LEAK -> "rare identifier leak";
      case OVER_LENGTH_ACCEPTED -> "over-length prompt accepted";
      case PREFILL_UNDERRUN -> "prefill underrun";
      case TIMING_ANOMALY -> "timing anomaly";
      case SAME_TENANT_REUSE -> "same-tenant reuse";
      case CONFIG_POOL_BELOW_CONTEXT -> "KV pool below context length";
      case CONFIG_UNPATCHED_ENGINE -> "unpatched engine";
      case CONFIG_ENGINE_VERSION_UNKNOWN -> "engine version unknown";
      case CONFIG_MISSING_SAFEGUARD -> "missing safeguard";
    };
  }

  public static FindingKind fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }

  /** Findings that show another tenant's data in a response: what the summary counts as a leak. */
  public boolean isCrossTenantLeak() {
    return this == CROSS_TENANT_OVERLAP || this == CANARY_LEAK || this == RARE_IDENTIFIER_LEAK;
  }

  public boolean isConfig() {
    return name().startsWith("CONFIG_");
  }
}
