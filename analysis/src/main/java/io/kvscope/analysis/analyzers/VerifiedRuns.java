package io.kvscope.analysis.analyzers;

import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.TextRange;
import java.io.IOException;
import java.util.List;

/**
 * Where a candidate's verified runs come from: the verifier run here on the index's texts
 * ({@link IndexVerification}), or the runs the Spark job found where the texts lie ({@link RunsFile}).
 * Either way the same runs, in the verifier's order.
 */
interface VerifiedRuns {

  /** Whether {@code recipient}'s candidates can have runs at all (false for a request with no response). */
  boolean verifies(PassageGatherer.Recipient recipient) throws IOException;

  /**
   * The parts of the runs of at least {@code minWords} words that {@code recipient}'s response
   * shares with {@code source}'s response ({@code reply}) or prompt, in recipient order.
   */
  List<SpanMatch> withSource(PassageGatherer.Recipient recipient, int source, boolean reply, int minWords)
      throws IOException;

  /**
   * The ranges of {@code recipient}'s response its own prompt holds, in runs down to {@link
   * io.kvscope.model.evidence.PassageRules#MIN_WORDS}.
   */
  List<TextRange> withOwnPrompt(PassageGatherer.Recipient recipient) throws IOException;
}
