package io.kvscope.samples.sim;

/** How a tenant's traffic reaches the logs, and so where its tenant id is found. */
public enum Channel {
  /** LiteLLM with the tenant in {@code metadata.user_api_key_org_id}. */
  LITELLM_ORG,
  /** LiteLLM through a shared key; the tenant is only in {@code end_user}. */
  LITELLM_END_USER,
  /** An OpenTelemetry-instrumented client; the tenant is the span attribute {@code tenant.id}. */
  OTLP
}
