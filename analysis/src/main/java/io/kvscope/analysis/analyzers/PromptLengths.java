package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.RequestRow;
import io.kvscope.analysis.RobustStats;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.order.StableSample;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * How long a prompt really was. The gateway's {@code prompt_tokens} can be the engine's word for
 * the one-token placeholder, so the longest credible figure wins: the gateway's count, the length a
 * rejection quoted, or an estimate from the prompt's characters with a chars-per-token ratio
 * learned from healthy traffic of the same model.
 */
final class PromptLengths {

  /** A gateway count this many times below the text's estimate is not believed... */
  static final double IMPLAUSIBLE_FACTOR = 4;
  /**
   * ...when it is also this many tokens below it. Chars per token vary with the text (code, URLs,
   * scripts without spaces), so a short prompt can be four times off the learned ratio; the
   * placeholder count of a rejected prompt is off by hundreds of thousands.
   */
  static final long IMPLAUSIBLE_GAP = 4_096;
  /** Ratios are learned from prompts of at least this many tokens, where the count is reliable. */
  private static final long MIN_TOKENS_FOR_RATIO = 64;
  /** Ratios a model's median is taken over: a sample of its requests, the same whatever the read order. */
  private static final int MAX_SAMPLES_PER_MODEL = 20_000;

  private final Map<String, Double> charsPerToken;

  private PromptLengths(Map<String, Double> charsPerToken) {
    this.charsPerToken = charsPerToken;
  }

  /** Learns each model's chars-per-token ratio (median) from successful, unrejected requests. */
  static PromptLengths learn(AnalysisContext context) throws IOException {
    Map<String, StableSample<Double>> samples = new HashMap<>();
    context.forEachRequest(row -> {
      RequestRecord r = row.record();
      if (r.succeeded() && !row.facts().rejected() && r.promptTokens() != null && r.promptTokens() >= MIN_TOKENS_FOR_RATIO
          && r.promptChars() != null && r.promptChars() > 0 && engineAgrees(r)) {
        samples.computeIfAbsent(modelOf(r), m -> new StableSample<>(MAX_SAMPLES_PER_MODEL))
            .offer(r.requestId(), (double) r.promptChars() / r.promptTokens());
      }
    });
    Map<String, Double> ratios = new HashMap<>();
    samples.forEach((model, sample) -> ratios.put(model, RobustStats.median(sample.values())));
    ratios.forEach((model, ratio) -> context.parameter("prompt-length.chars_per_token." + model, round(ratio)));
    return new PromptLengths(ratios);
  }

  /** Where the engine prefilled, it should have seen about the count the gateway reports. */
  private static boolean engineAgrees(RequestRecord r) {
    return r.engineInputLen() == null || r.engineInputLen() >= r.promptTokens() / 2;
  }

  private static String modelOf(RequestRecord r) {
    return r.model() != null ? r.model() : r.deployment() != null ? r.deployment() : "(unknown)";
  }

  /** Where a prompt-length figure came from; {@link #text} is what the evidence says. */
  enum Basis {
    GATEWAY_COUNT("gateway prompt_tokens"),
    ENGINE_REJECTION("engine rejection"),
    TEXT_ESTIMATE("estimated from prompt text");

    final String text;

    Basis(String text) {
      this.text = text;
    }
  }

  /** The prompt's length and where that figure came from. */
  record Length(long tokens, Basis basis, Long estimateFromText) {}

  /** The best figure for {@code row}'s prompt length, or null when nothing says. */
  Length of(RequestRow row) {
    Long estimate = estimate(row.record());
    long best = -1;
    Basis basis = null;
    if (row.record().promptTokens() != null) {
      best = row.record().promptTokens();
      basis = Basis.GATEWAY_COUNT;
    }
    if (row.facts().requestedLen() != null && row.facts().requestedLen() > best) {
      best = row.facts().requestedLen();
      basis = Basis.ENGINE_REJECTION;
    }
    if (estimate != null && (best < 0 || estimate > best * IMPLAUSIBLE_FACTOR && estimate - best >= IMPLAUSIBLE_GAP)) {
      best = estimate;
      basis = Basis.TEXT_ESTIMATE;
    }
    return best < 0 ? null : new Length(best, basis, estimate);
  }

  private Long estimate(RequestRecord r) {
    Double ratio = charsPerToken.get(modelOf(r));
    if (ratio == null || r.promptChars() == null || ratio <= 0) {
      return null;
    }
    return Math.round(r.promptChars() / ratio);
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
