package io.kvscope.index.fingerprint;

import java.nio.file.Path;

/**
 * Settings of the fingerprint self-join.
 *
 * @param maxTenantFrequency fingerprints carried by more distinct tenants than this are
 *     boilerplate and skipped; learn it from {@link FingerprintJoin#frequencies}
 * @param maxPairsPerTerm a fingerprint whose recipients × (sources + recipients) exceeds this is
 *     skipped, a guard against quadratic work on text shared by very many documents
 * @param includeSameTenant also emit pairs whose two documents have the same known tenant
 *     (same-tenant reuse, which the analysis reports separately)
 * @param ownPromptExplains a fingerprint the recipient's own prompt also carries does not count
 *     for that recipient: its own prompt explains that text, which verification would drop anyway
 *     (conversations repeat their history in every turn, so without this most candidates are a
 *     reply quoting its own prompt against the earlier turns that held the same text)
 * @param minSharedFingerprints emit a pair only if it shares at least this many fingerprints
 * @param memoryPairBudget distinct pairs counted in memory before a sorted run is spilled to disk
 * @param spillDirectory where spilled runs go (owner-only files, deleted after the join); {@code
 *     null} for the system temporary directory
 */
public record JoinOptions(
    int maxTenantFrequency,
    long maxPairsPerTerm,
    boolean includeSameTenant,
    boolean ownPromptExplains,
    int minSharedFingerprints,
    int memoryPairBudget,
    Path spillDirectory) {

  public JoinOptions {
    if (maxTenantFrequency < 1) {
      throw new IllegalArgumentException(
          "maxTenantFrequency must be at least 1, was " + maxTenantFrequency);
    }
    if (maxPairsPerTerm < 1) {
      throw new IllegalArgumentException("maxPairsPerTerm must be at least 1, was " + maxPairsPerTerm);
    }
    if (minSharedFingerprints < 1) {
      throw new IllegalArgumentException(
          "minSharedFingerprints must be at least 1, was " + minSharedFingerprints);
    }
    if (memoryPairBudget < 16) {
      throw new IllegalArgumentException(
          "memoryPairBudget must be at least 16, was " + memoryPairBudget);
    }
  }

  /**
   * Cross-tenant pairs only; boilerplate above 8 tenants; at most 2^20 pair updates per
   * fingerprint; the own prompt does not explain; any shared fingerprint; 2^21 pairs (about 64
   * MB) in memory.
   */
  public static JoinOptions defaults() {
    return new JoinOptions(8, 1L << 20, false, false, 1, 1 << 21, null);
  }

  public JoinOptions withMaxTenantFrequency(int value) {
    return new JoinOptions(value, maxPairsPerTerm, includeSameTenant, ownPromptExplains, minSharedFingerprints,
        memoryPairBudget, spillDirectory);
  }

  public JoinOptions withMaxPairsPerTerm(long value) {
    return new JoinOptions(maxTenantFrequency, value, includeSameTenant, ownPromptExplains, minSharedFingerprints,
        memoryPairBudget, spillDirectory);
  }

  public JoinOptions withIncludeSameTenant(boolean value) {
    return new JoinOptions(maxTenantFrequency, maxPairsPerTerm, value, ownPromptExplains, minSharedFingerprints,
        memoryPairBudget, spillDirectory);
  }

  public JoinOptions withOwnPromptExplains(boolean value) {
    return new JoinOptions(maxTenantFrequency, maxPairsPerTerm, includeSameTenant, value, minSharedFingerprints,
        memoryPairBudget, spillDirectory);
  }

  public JoinOptions withMinSharedFingerprints(int value) {
    return new JoinOptions(maxTenantFrequency, maxPairsPerTerm, includeSameTenant, ownPromptExplains, value,
        memoryPairBudget, spillDirectory);
  }

  public JoinOptions withMemoryPairBudget(int value, Path directory) {
    return new JoinOptions(maxTenantFrequency, maxPairsPerTerm, includeSameTenant, ownPromptExplains,
        minSharedFingerprints, value, directory);
  }
}
