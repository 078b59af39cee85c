package io.kvscope.model.identifiers;

/**
 * The one home of what a canary marker looks like: the probe writes them, the index extracts them
 * as identifiers, the reports redact them.
 */
public final class CanaryMarker {

  /** Every marker starts with this; the probe's markers and engine KV canaries alike. */
  public static final String PREFIX = "KVCANARY-";

  /**
   * Anything shaped like a marker, whoever issued it, also with an underscore after the name;
   * group 1 is what follows the prefix.
   */
  public static final String ANY_REGEX = "KVCANARY[-_]([A-Za-z0-9]{6,96})";

  private CanaryMarker() {}
}
