package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.Fingerprints;
import io.kvscope.model.fingerprint.SpanVerifier;

/**
 * A candidate leak from the fingerprint self-join: the response of {@code recipientDoc} shares
 * fingerprints with the prompt and/or the response of {@code sourceDoc}. Doc ids are top-level
 * ids of the {@link org.apache.lucene.index.IndexReader} the join ran on. A candidate is only a
 * reason to verify; {@link SpanVerifier} decides.
 *
 * @param recipientDoc the request whose response may carry foreign text
 * @param sourceDoc the request the text may come from
 * @param sharedWithSourcePrompt distinct fingerprints shared with the source's prompt
 * @param sharedWithSourceResponse distinct fingerprints shared with the source's response
 */
public record Candidate(
    int recipientDoc, int sourceDoc, int sharedWithSourcePrompt, int sharedWithSourceResponse) {

  public Candidate {
    if (recipientDoc < 0 || sourceDoc < 0 || recipientDoc == sourceDoc) {
      throw new IllegalArgumentException(
          "recipient " + recipientDoc + " and source " + sourceDoc + " must be distinct doc ids");
    }
    if (sharedWithSourcePrompt < 0 || sharedWithSourceResponse < 0) {
      throw new IllegalArgumentException("shared fingerprint counts must not be negative");
    }
  }

  /** Fingerprints shared with the source's prompt and response together. */
  public int sharedFingerprints() {
    return sharedWithSourcePrompt + sharedWithSourceResponse;
  }
}
