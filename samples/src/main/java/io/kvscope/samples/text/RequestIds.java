package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;

/**
 * Issues the request-unique identifiers of one request from a block of the tenant's identifier
 * counter reserved for it, so regenerating the request yields the same identifiers.
 */
public final class RequestIds {

  /** Counter values reserved per request; a request never plants more identifiers than this. */
  public static final int BLOCK = 32;

  private final TenantVoice tenant;
  private final long counterBase;
  private final Rng rng;
  private final boolean foreignCanary;
  private int used;

  public RequestIds(TenantVoice tenant, long counterBase, Rng rng) {
    this(tenant, counterBase, rng, false);
  }

  /** @param foreignCanary the tenant's canaries are another issuer's format, not {@code KVCANARY-} */
  public RequestIds(TenantVoice tenant, long counterBase, Rng rng, boolean foreignCanary) {
    this.tenant = tenant;
    this.counterBase = counterBase;
    this.rng = rng;
    this.foreignCanary = foreignCanary;
  }

  /** True while the block still has room. */
  public boolean available() {
    return used < BLOCK;
  }

  public String next(IdCategory category, String first, String last) {
    long counter = counterBase + used++;
    return switch (category) {
      case EMAIL -> Identifiers.email(first, last, counter, tenant.domain());
      case PHONE -> Identifiers.phone(tenant.countryCode(), tenant.index(), counter);
      case ACCOUNT -> Identifiers.account(tenant.index(), counter);
      case UUID -> rng.uuid();
      case CANARY -> foreignCanary ? Identifiers.foreignCanary(rng) : Identifiers.canary(rng);
      case API_KEY -> tenant.apiKey();
      case IBAN -> tenant.iban();
    };
  }
}
