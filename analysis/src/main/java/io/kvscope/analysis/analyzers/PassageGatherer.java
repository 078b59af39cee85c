package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.StalePageReach;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.PassageFacts;
import io.kvscope.model.evidence.SameQuestion;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gathers the facts the passage rules judge ({@link PassageFacts}) for one passage of one response,
 * through the narrow {@link TextIndex}: who within reach of the recipient's decode pool held it
 * word for word, how many tenants hold it anywhere, whether a request that asked the same question
 * received it as its answer, whether it is stock phrasing. A fact no rule can use for this
 * recipient is not looked up (the same question where the prompt was never prefilled, stock
 * phrasing for runs of 2T words or more).
 */
final class PassageGatherer {

  /** Replies of other requests read at most, earliest first, to find one that asked the same question. */
  static final int MAX_SAME_QUESTION_READS = 32;

  private final TextIndex index;
  private final RequestColumns columns;
  private final StalePageReach reach;
  private final StockPhrases stock;
  private final int t;
  private final int tenantCountBound;
  private final int stockTenants;
  long sameQuestionReads;

  /**
   * @param t T: runs of 2T words or more are never checked for stock phrasing
   * @param stockTenants a run this many tenants hold whole is not stock phrasing (the public-text cut-off)
   */
  PassageGatherer(TextIndex index, RequestColumns columns, StalePageReach reach, StockPhrases stock, int t,
      int stockTenants) {
    this.index = index;
    this.columns = columns;
    this.reach = reach;
    this.stock = stock;
    this.t = t;
    this.stockTenants = stockTenants;
    this.tenantCountBound = stockTenants + 1;
  }

  /**
   * What the rules need about one recipient, read once for all its passages: its texts are read
   * when first asked for, so a recipient whose candidates the job verified is read only once a
   * passage is found.
   */
  static final class Recipient {
    final int doc;
    final Mechanism mechanism;
    private final RequestColumns columns;
    private TokenizedText response;
    private boolean responseRead;
    private String prompt;
    private boolean promptRead;
    /** The response ranges its own prompt holds; null until the passages are judged, never for a stub. */
    List<TextRange> ownPromptRanges;

    Recipient(int doc, Mechanism mechanism, RequestColumns columns) {
      this.doc = doc;
      this.mechanism = mechanism;
      this.columns = columns;
    }

    /** The response, tokenized; null when the request has none. */
    TokenizedText response() throws IOException {
      if (!responseRead) {
        String text = columns.text(doc, Schema.RESPONSE_TEXT);
        response = text == null ? null : WordTokenizer.tokenize(text);
        responseRead = true;
      }
      return response;
    }

    /** The recipient's own prompt, often the largest text around; null when it has none. */
    String prompt() throws IOException {
      if (!promptRead) {
        prompt = columns.text(doc, Schema.PROMPT_TEXT);
        promptRead = true;
      }
      return prompt;
    }
  }

  PassageFacts facts(Recipient r, TextRange range, List<Holder> verifiedFallback) throws IOException {
    String passage = Passages.textOf(r.response(), range);
    String recipientTenant = columns.tenantName(r.doc);
    Map<Integer, Holder> candidates = new LinkedHashMap<>();
    index.holders(passage, doc -> doc != r.doc && mayHold(doc, r.doc) && reach.reaches(doc, r.doc), (doc, inReply) -> {
      Holder known = candidates.get(doc);
      candidates.put(doc, holder(doc, r.doc, inReply || known != null && known.inReply()));
      return true;
    });
    if (candidates.isEmpty()) {
      // The phrase query's words differ from the verifier's at an odd edge: keep what was verified.
      verifiedFallback.forEach(h -> candidates.put(columns.docOf(h), h));
    }
    oneHolderPerRequest(candidates);
    Set<Integer> tenants = new HashSet<>();
    List<Integer> replyHolders = new ArrayList<>();
    boolean wantReplies = !r.mechanism.neverPrefilled();
    // Every reply holder is seen, so the ones read are chosen by request order, not index order.
    int request = columns.requestDoc(r.doc); // the request of a reply copy holds its own prompt
    index.holders(passage, doc -> columns.requestDoc(doc) != request, (doc, inReply) -> {
      if (clientsWordOnly(doc)) {
        return true; // a trace's copy of a prompt never makes a passage look held by more tenants
      }
      tenants.add(columns.tenant(doc));
      if (wantReplies && inReply) {
        replyHolders.add(doc);
      }
      return tenants.size() <= tenantCountBound || wantReplies;
    });
    boolean ownPrompt = false;
    boolean sameQuestion = false;
    if (!r.mechanism.neverPrefilled()) {
      ownPrompt = Passages.coveredBy(range, r.ownPromptRanges);
      for (int holder : columns.earliest(replyHolders, MAX_SAME_QUESTION_READS)) {
        sameQuestionReads++;
        if (SameQuestion.asked(r.prompt(), index.text(holder, Schema.PROMPT_TEXT))) {
          sameQuestion = true;
          break;
        }
      }
    }
    // A run many tenants hold whole is a popular passage, not stock phrasing combined anew.
    boolean stockPhrasing = range.tokenCount() < 2 * t && tenants.size() < stockTenants
        && stock.isStock(r.response(), range);
    return new PassageFacts(range.tokenCount(), recipientTenant, candidates.values().stream().sorted(Holder.IN_REQUEST_ORDER).toList(),
        Math.min(tenants.size(), tenantCountBound + 1), ownPrompt, sameQuestion, stockPhrasing);
  }

  /**
   * Whether {@code doc} may hold a passage of {@code recipient}'s reply. A copy of a prompt only a
   * trace gives, of the recipient's own tenant, may not: its writer may be the recipient's client,
   * and such a holder (or a source verified on it) could only explain a leak away. Another tenant's
   * may add a source; a finding only such copies source is at most suspect ({@link OverlapFindings}).
   */
  boolean mayHold(int doc, int recipient) {
    return !clientsWordOnly(doc) || columns.tenant(doc) != columns.tenant(recipient);
  }

  /**
   * A request is one holder however many of its logged prompts hold the passage: its kept text if
   * that holds it, else the first of its copies that does.
   */
  private void oneHolderPerRequest(Map<Integer, Holder> candidates) {
    if (candidates.keySet().stream().allMatch(columns::isRequest)) {
      return;
    }
    Map<Integer, Integer> kept = new java.util.TreeMap<>();
    for (int doc : candidates.keySet()) {
      kept.merge(columns.requestDoc(doc), doc, (a, b) -> columns.isRequest(a) || !columns.isRequest(b) && a < b ? a : b);
    }
    candidates.keySet().retainAll(Set.copyOf(kept.values()));
  }

  /** True for a copy of a prompt whose record ranks below the kept prompt's (a trace's). */
  private boolean clientsWordOnly(int doc) {
    RequestColumns.CopyOf copy = columns.promptCopy(doc);
    return copy != null && copy.copy().outranked();
  }

  Holder holder(int doc, int recipient, boolean inReply) throws IOException {
    return reach.holder(doc, recipient, inReply);
  }
}
