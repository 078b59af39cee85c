package io.kvscope.analysis.analyzers;

import io.kvscope.index.doc.Schema;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** {@link VerifiedRuns} found here: the texts read from the index, tokenized and verified. */
final class IndexVerification implements VerifiedRuns {

  private final SpanVerifier verifier;
  private final TokenizedTextCache sourceTexts;

  IndexVerification(SpanVerifier verifier, TokenizedTextCache sourceTexts) {
    this.verifier = verifier;
    this.sourceTexts = sourceTexts;
  }

  @Override
  public boolean verifies(PassageGatherer.Recipient recipient) throws IOException {
    return recipient.response() != null;
  }

  @Override
  public List<SpanMatch> withSource(PassageGatherer.Recipient recipient, int source, boolean reply, int minWords)
      throws IOException {
    TokenizedText text = sourceTexts.get(source, reply ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT);
    if (text == null) {
      return List.of();
    }
    List<SpanMatch> parts = new ArrayList<>();
    for (SharedSpan span : verifier.verify(recipient.response(), text, minWords)) {
      parts.addAll(span.parts());
    }
    return parts;
  }

  @Override
  public List<TextRange> withOwnPrompt(PassageGatherer.Recipient recipient) throws IOException {
    String prompt = recipient.prompt();
    return prompt == null ? List.of()
        : PassageRules.ownPromptRanges(verifier, recipient.response(), WordTokenizer.tokenize(prompt));
  }
}
