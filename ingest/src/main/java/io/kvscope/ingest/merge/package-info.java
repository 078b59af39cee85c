/**
 * One request, several records: the gateway's log line, a client's trace span, its log event, the
 * same line shipped twice. {@link io.kvscope.ingest.merge.RequestMerge} turns the records of one
 * request (same engine rid, else same request id) into one record, field by field, by the rules in
 * {@link io.kvscope.ingest.merge.MergeRules}, and keeps every disagreement in the result's
 * {@link io.kvscope.ingest.record.Provenance}.
 *
 * <p>The traps the rules are built around:
 * <ul>
 *   <li>A trace may be written by the client, and a client knows its own response ids: its word
 *       never overrules the gateway's, so a forged span cannot change the tenant, the prompt length
 *       or the text of a leaked response (issue: "telemetry reusing response ids").
 *   <li>Copies of one request legitimately differ: a trace may keep only the last message, an
 *       instrumentation may truncate, the gateway may have redacted content. A text that is a part
 *       (prefix or suffix) of another is the same text seen less completely: the longest is kept.
 *   <li>Clocks differ between vantage points: start and end come from one record, and the time to
 *       first token is a duration measured within one record, never a mix of two clocks.
 *   <li>The result must not depend on the order records were read in (re-runs, resumed runs and
 *       parallel writers must give the same document): every rule is a function of the set.
 * </ul>
 */
package io.kvscope.ingest.merge;
