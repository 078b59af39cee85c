package io.kvscope.index.fingerprint;

/**
 * How widely a verified span occurs in the index: live documents (and their distinct tenants)
 * that carry every fingerprint of the span, in a prompt or a response. An upper bound on the
 * documents that contain the whole span (a document containing it must carry all of them).
 *
 * @param fingerprints fingerprints the span was probed with
 * @param docFrequency live documents carrying all of them
 * @param tenantFrequency distinct tenants of those documents; unknown ones count one each
 */
public record SpanFrequency(int fingerprints, int docFrequency, int tenantFrequency) {}
