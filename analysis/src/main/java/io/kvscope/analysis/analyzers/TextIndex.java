package io.kvscope.analysis.analyzers;

import java.io.IOException;
import java.util.function.IntPredicate;

/**
 * What the overlap and identifier analyses read from the index to gather their facts, and nothing
 * more: which requests hold a passage word for word, how many tenants' replies hold a short piece,
 * and a request's stored text. Documents are the index's request documents.
 */
interface TextIndex {

  /** Told of each request holding a passage; returns false to stop. */
  interface HolderVisitor {
    boolean visit(int doc, boolean inReply) throws IOException;
  }

  /**
   * Visits the requests {@code eligible} accepts whose prompt or reply holds {@code passage} word
   * for word (prompts first, then replies; a request holding it in both is visited twice).
   * Eligibility is checked before the text is: prompts can be megabytes.
   */
  void holders(String passage, IntPredicate eligible, HolderVisitor visitor) throws IOException;

  /** How many tenants' replies hold {@code piece} word for word, counted up to {@code atMost}. */
  int replyTenants(String piece, int atMost) throws IOException;

  /** A stored text field ({@code prompt_text} or {@code response_text}) of a request, or null. */
  String text(int doc, String field) throws IOException;
}
