package io.kvscope.probe.config;

import java.util.Locale;

/** The operator checklist's items, as a live node is checked against them. */
public enum ConfigCheck {
  POOL_VS_CONTEXT("KV pool at least the context length"),
  ENGINE_VERSION("engine at least the fixed release"),
  KV_CANARY("KV canary enabled"),
  KV_CHECKSUM("KV checksum enabled"),
  DEFERRED_RELEASE("deferred KV release enabled");

  private final String expectation;

  ConfigCheck(String expectation) {
    this.expectation = expectation;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What passing means, for reports. */
  public String expectation() {
    return expectation;
  }
}
