package io.kvscope.model.finding;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why a finding says what it says, as expected vs observed values; never prompt or response text.
 * Each built-in analyzer writes one record, whose components are report.json's keys in snake_case
 * and in the file's order; report.json reads a finding's evidence back as the record its kind
 * writes. Evidence no record describes (a plug-in's, an older report's) is {@link Other}.
 */
public sealed interface Evidence {

  /** Evidence that another request's data was in a response. */
  sealed interface OfLeak extends Evidence {

    /** The rules that gave the finding its confidence, as {@code rule: reason}. */
    List<String> confidenceReason();

    LeakMechanism mechanism();

    /** {@code sole} when every source alone held what it carried, else {@code ambiguous}. */
    String attribution();

    /** The data categories recognised in what the response carried ({@code email}, ...). */
    List<String> categories();

    /**
     * Whether the finding is text shared with one other tenant on a response the engine logs show
     * was served normally: no leak mechanism, so never counted, but listed for a person to review
     * (the rule {@value #SERVED_NORMALLY_RULE} decided its confidence).
     */
    default boolean forReview() {
      return confidenceReason().stream().anyMatch(r -> r.startsWith(SERVED_NORMALLY_RULE + ":"));
    }

    /** The evidence rule that keeps text alone on a normally served response out of the count. */
    String SERVED_NORMALLY_RULE = "served-normally";

    /** The same evidence with one more {@code rule: reason} after the others. */
    OfLeak withReason(String reason);
  }

  /** Evidence about one request, which starts with the request's own facts. */
  sealed interface OfRequest extends Evidence {

    /** A long, as indexed. */
    Long statusCode();

    String prefillNode();

    String deployment();
  }

  /**
   * Evidence of a check, saying in words what it expected and what it observed: the config audit's;
   * open, so that evidence made outside this module (kvscope probe's, a plug-in's) can say it too.
   */
  non-sealed interface Check extends Evidence {

    String expected();

    String observed();
  }

  /**
   * What the logs say about how a leaked response was produced.
   *
   * @param decodedOverForeignKv facts that it was decoded over other requests' KV, as phrases
   * @param supporting facts that fit a leak but do not show one, as phrases
   */
  record LeakMechanism(List<String> decodedOverForeignKv, boolean promptNeverPrefilled, List<String> supporting) {}

  /**
   * A cross-tenant overlap or a same-tenant reuse: the best passage's rules, how many sources were
   * sole, and the first {@code passages} of {@code passagesTotal} one by one.
   *
   * @param newestSourceAgeS seconds between the response and its newest source
   */
  record Overlap(List<String> confidenceReason, LeakMechanism mechanism, String attribution, long sourcesSole,
      long sourcesCandidate, int longestSpanTokens, int passagesTotal, List<Passage> passages, long newestSourceAgeS,
      List<String> categories) implements OfLeak {

    @Override
    public Overlap withReason(String reason) {
      return new Overlap(appended(confidenceReason, reason), mechanism, attribution, sourcesSole, sourcesCandidate,
          longestSpanTokens, passagesTotal, passages, newestSourceAgeS, categories);
    }

    /**
     * A passage of the response that other requests held word for word.
     *
     * @param responseStart where it starts in the response (characters)
     * @param candidates requests within reach that held it
     */
    public record Passage(int words, int responseStart, int responseEnd, Confidence confidence, int candidates,
        int candidateTenants, int tenantsInIndex, List<String> reasons) {}
  }

  /**
   * A rare identifier (an e-mail address, a phone number, ...) that only other requests held, by
   * keyed hash ({@code category:hash}), never its value.
   */
  record Identifier(List<String> confidenceReason, LeakMechanism mechanism, String attribution, List<String> categories,
      int identifiers, List<String> identifierHashes, String note) implements OfLeak {

    @Override
    public Identifier withReason(String reason) {
      return new Identifier(appended(confidenceReason, reason), mechanism, attribution, categories, identifiers,
          identifierHashes, note);
    }

    public static final String NOTE =
        "identifier values are not shown; hashes (keyed by the case) let them be matched against the source";
  }

  /**
   * A 2xx response to a prompt past its serving node's limit, or one its engine rejected.
   *
   * @param promptTokensBasis where {@code promptTokensUsed} came from
   * @param rejectionQuoted the engine's rejection, {@code requested > limit}, when it rejected
   * @param limitFrom whose limit it is (the request's own nodes, or its deployment's prefill nodes)
   * @param roomAmbiguous the bootstrap room its engine facts were joined through named no one pair:
   *     what it showed (left out of the file when it named one pair)
   */
  record OverLength(Long statusCode, String prefillNode, String deployment, Long promptTokensReported,
      Long promptTokensEstimated, Long promptTokensUsed, String promptTokensBasis, Long limit, Long poolTokens,
      Long contextLength, boolean engineRejected, String rejectionQuoted, String limitFrom,
      @JsonInclude(Include.NON_NULL) String roomAmbiguous) implements OfRequest {}

  /**
   * A prefill underrun: the engine prefilled far fewer tokens than the prompt held.
   *
   * @param roomAmbiguous as {@link OverLength#roomAmbiguous}
   */
  record Underrun(Long statusCode, String prefillNode, String deployment, long expectedInputTokens,
      String expectedBasis, Long observedInputTokens, Long cachedTokens, Double transferMb, boolean engineRejected,
      @JsonInclude(Include.NON_NULL) String roomAmbiguous) implements OfRequest {}

  /**
   * A first token too soon for the prompt's uncached tokens, against the deployment's fitted prefill.
   *
   * @param ratio observed over expected, to three decimals
   */
  record Timing(Long statusCode, String prefillNode, String deployment, long uncachedPromptTokens, long expectedTtftMs,
      long observedTtftMs, double ratio) implements OfRequest {}

  /**
   * A config finding: the node epoch's facts, then what the check expected and observed. The
   * components after {@code source} belong to some kinds only and, like the epoch's facts that are
   * not always known, are left out of the file when null.
   *
   * @param epochStart on the gateway's clock; {@code epochStartNodeClock} as the node logged it
   * @param epochStartBasis said only when the start is a weak one (a file's modification time)
   * @param source the log file and line the epoch starts at
   * @param exploitable pool below context: whether the epoch is a vulnerable window
   * @param versionDated unpatched engine: false when no record dated the version
   * @param why unknown version: why it is unknown; {@code provide}: the record that would settle it
   * @param missing missing safeguard: {@code kv_canary}, {@code kv_checksum}, {@code deferred_release};
   *     empty for the other kinds
   */
  record Config(
      String role,
      Instant epochStart,
      Instant epochStartNodeClock,
      Instant epochEnd,
      Long poolTokens,
      Long contextLength,
      String engineVersion,
      @JsonInclude(Include.NON_NULL) String versionSource,
      @JsonInclude(Include.NON_NULL) String epochStartBasis,
      String source,
      @JsonInclude(Include.NON_NULL) String expected,
      @JsonInclude(Include.NON_NULL) String observed,
      @JsonInclude(Include.NON_NULL) Boolean exploitable,
      @JsonInclude(Include.NON_NULL) Boolean versionDated,
      @JsonInclude(Include.NON_NULL) String why,
      @JsonInclude(Include.NON_NULL) String provide,
      @JsonInclude(Include.NON_NULL) Boolean exploitableIfUnpatched,
      @JsonInclude(Include.NON_EMPTY) List<String> missing) implements Check {

    public Config {
      missing = missing == null ? List.of() : List.copyOf(missing);
    }
  }

  /**
   * Evidence as JSON-ready values (strings, numbers, booleans, null, lists and maps of them) in
   * the file's order: what a plug-in writes, or what a report holds that no record here describes.
   */
  record Other(Map<String, Object> fields) implements Evidence {

    public static final Other NONE = new Other(Map.of());

    public Other {
      // Null values are kept: a key written as null is still written.
      fields = fields == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
  }

  private static List<String> appended(List<String> list, String more) {
    List<String> out = new java.util.ArrayList<>(list);
    out.add(more);
    return List.copyOf(out);
  }
}
