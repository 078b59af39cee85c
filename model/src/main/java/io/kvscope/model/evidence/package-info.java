/**
 * The evidence model: whether a piece of a response's text is another request's data, and how
 * sure that is, from plain values only.
 *
 * <p>Two halves meet here. {@link io.kvscope.model.evidence.Mechanism} is what the logs say
 * about how the response was produced (decoded over foreign KV: over-length accepted, prefill
 * underrun, transfer failure, canary or checksum violation; its prompt never prefilled).
 * {@link io.kvscope.model.evidence.PassageFacts} and
 * {@link io.kvscope.model.evidence.IdentifierFacts} are what is known about one verbatim passage
 * or identifier: who within reach of the recipient's decode pool held it
 * ({@link io.kvscope.model.evidence.Holder}), how many tenants hold it, whether the recipient's
 * own prompt or the same question explains it.
 *
 * <p>A {@link io.kvscope.model.evidence.RuleChain} of small
 * {@link io.kvscope.model.evidence.EvidenceRule}s judges them, like a chain of token filters:
 * each rule has a name, one job and a one-line reason, and drops, caps or notes
 * ({@link io.kvscope.model.evidence.Verdict}); the {@link io.kvscope.model.evidence.Decision}
 * keeps the reasons, which findings quote as evidence. {@link io.kvscope.model.evidence.PassageRules}
 * and {@link io.kvscope.model.evidence.IdentifierRules} are the standard chains;
 * {@link io.kvscope.model.evidence.Candidates} ranks the requests that could be a passage's
 * origin by the mechanism. {@link io.kvscope.model.evidence.FocusedLookup} says which requests and
 * word windows a response decoded over foreign KV is checked against, so that runs down to
 * {@value io.kvscope.model.evidence.PassageRules#MIN_WORDS} words are found. Requests are named
 * by their place in request order, never by where an engine stores them.
 *
 * <p>Traps: a rule must not read the index (the analyzers gather facts, the rules judge them); a
 * fact that a rule cannot use for a recipient need not be gathered, but then its rule must not
 * depend on it (the same question where the prompt was never prefilled).
 */
package io.kvscope.model.evidence;
