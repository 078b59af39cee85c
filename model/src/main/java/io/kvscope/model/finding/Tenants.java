package io.kvscope.model.finding;

/**
 * How a tenant the logs did not resolve is named wherever tenants are counted or shown (report
 * tables, matrix, GUI): one spelling, so an unresolved tenant is never {@code null} in one place
 * and a name in another.
 */
public final class Tenants {

  /** The name of a request's tenant when no configured field gave one. */
  public static final String UNKNOWN = "(unknown)";

  private Tenants() {}

  /** {@code tenant}, or {@link #UNKNOWN} when it is null. */
  public static String nameOf(String tenant) {
    return tenant == null ? UNKNOWN : tenant;
  }
}
