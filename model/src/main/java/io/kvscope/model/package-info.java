/**
 * The leak model: how kvscope decides, from plain values, which responses carried another tenant's
 * data, whose, and how sure that is. No Lucene and no other engine is on this module's classpath,
 * so the single-machine analysis (over a Lucene index) and a distributed one call the same code.
 *
 * <ul>
 *   <li>{@link io.kvscope.model.fingerprint}: words, k-gram fingerprints, winnowing, exact span
 *       verification.
 *   <li>{@link io.kvscope.model.identifiers}: rare identifiers (emails, keys, account numbers,
 *       UUIDs, canary markers) found in text.
 *   <li>{@link io.kvscope.model.evidence}: the mechanism and text facts of a passage or identifier,
 *       and the rules that judge them.
 *   <li>{@link io.kvscope.model.finding}: what the analysis concludes, as values the reports write.
 * </ul>
 *
 * <p>An engine gathers facts (who held a passage within reach, how many tenants hold it) and hands
 * them to the rules; a rule never reads an index.
 */
package io.kvscope.model;
