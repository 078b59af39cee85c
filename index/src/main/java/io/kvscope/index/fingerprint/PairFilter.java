package io.kvscope.index.fingerprint;

/**
 * Decides early whether a (recipient, source) doc pair may be a leak at all, e.g. "the source
 * started before the recipient, within the last hour" read from doc values. Applied before a pair
 * is counted, so it also bounds the join's memory. Doc ids are top-level ids.
 */
@FunctionalInterface
public interface PairFilter {

  /** Accepts every pair (self pairs are never offered). */
  PairFilter ALL = (recipientDoc, sourceDoc) -> true;

  boolean test(int recipientDoc, int sourceDoc);
}
