package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestRow;
import io.kvscope.analysis.TestIndex;
import io.kvscope.analysis.analyzers.PromptLengths.Basis;
import io.kvscope.analysis.analyzers.PromptLengths.Length;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which prompt-length figure wins: the gateway's count, the length an engine rejection quoted, or
 * an estimate from the prompt's characters when the count is implausibly low (more than 4 times
 * and at least 4,096 tokens below it). Model "m" learns 4 chars a token, model "short" 2.
 */
class PromptLengthsTest {

  @TempDir Path tmp;

  private AnalysisContext context;
  private PromptLengths lengths;

  @BeforeEach
  void learn() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    // The one healthy request of "m": 400 chars for 100 tokens.
    index.add(request("healthy", "a", "2026-08-28T10:00:00Z", 100, 200).promptChars(400L).build());
    // Each of these says 10 chars a token; any one of them counted would move the median off 4.
    index.add(request("failed", "a", "2026-08-28T10:01:00Z", 100, 500).promptChars(1_000L).build());
    index.served(request("rejected", "a", "2026-08-28T10:02:00Z", 100, 200).promptChars(1_000L).build(), 100, true);
    index.add(request("too-short", "a", "2026-08-28T10:03:00Z", 63, 200).promptChars(630L).build());
    index.served(request("engine-saw-less", "a", "2026-08-28T10:04:00Z", 100, 200).promptChars(1_000L).build(), 49, false);
    index.add(request("short-words", "b", "2026-08-28T10:05:00Z", 500, 200).model("short").promptChars(1_000L).build());
    try (var search = index.open()) {
      context = new AnalysisContext(search, AnalysisOptions.defaults());
      lengths = PromptLengths.learn(context);
    }
  }

  @Test
  void eachModelLearnsItsRatioFromHealthyRequestsOnly() {
    assertThat(context.parameters())
        .containsEntry("prompt-length.chars_per_token.m", 4.0)
        .containsEntry("prompt-length.chars_per_token.short", 2.0);
    assertThat(lengths.of(row("short", null, 20_000L, null))).isEqualTo(new Length(10_000, Basis.TEXT_ESTIMATE, 10_000L));
  }

  @Test
  void aPlausibleGatewayCountWins() {
    assertThat(lengths.of(row("m", 3_000L, 4_000L, null))).isEqualTo(new Length(3_000, Basis.GATEWAY_COUNT, 1_000L));
  }

  @Test
  void aPlaceholderCountFarBelowTheTextGivesWayToTheEstimate() {
    assertThat(lengths.of(row("m", 1L, 40_000L, null))).isEqualTo(new Length(10_000, Basis.TEXT_ESTIMATE, 10_000L));
  }

  /** 10,000 estimated against 3,000 counted: 7,000 tokens off, but not four times. */
  @Test
  void aCountLessThanFourTimesBelowTheEstimateStands() {
    assertThat(lengths.of(row("m", 3_000L, 40_000L, null))).isEqualTo(new Length(3_000, Basis.GATEWAY_COUNT, 10_000L));
    // exactly four times is not more than four times
    assertThat(lengths.of(row("m", 2_000L, 32_000L, null))).isEqualTo(new Length(2_000, Basis.GATEWAY_COUNT, 8_000L));
  }

  /** 5,000 estimated against 1,000 counted: five times off, but 4,000 tokens apart is within what text varies by. */
  @Test
  void aCountFewerThanGapTokensBelowTheEstimateStands() {
    assertThat(lengths.of(row("m", 1_000L, 20_000L, null))).isEqualTo(new Length(1_000, Basis.GATEWAY_COUNT, 5_000L));
    // 4,096 apart is enough
    assertThat(lengths.of(row("m", 1_000L, 20_384L, null))).isEqualTo(new Length(5_096, Basis.TEXT_ESTIMATE, 5_096L));
  }

  @Test
  void aRejectionQuotingMoreThanTheGatewayCountWins() {
    assertThat(lengths.of(row("m", 1L, 40_000L, 700_000L)))
        .isEqualTo(new Length(700_000, Basis.ENGINE_REJECTION, 10_000L));
    assertThat(lengths.of(row("m", 5_000L, null, 3_000L))).isEqualTo(new Length(5_000, Basis.GATEWAY_COUNT, null));
  }

  @Test
  void withoutACountTheEstimateStandsAloneAndWithoutEitherThereIsNoLength() {
    assertThat(lengths.of(row("m", null, 400L, null))).isEqualTo(new Length(100, Basis.TEXT_ESTIMATE, 100L));
    assertThat(lengths.of(row("m", null, null, null))).isNull();
    assertThat(lengths.of(row("unlearned", null, 400L, null))).isNull();
  }

  @Test
  void aModelWithoutALearnedRatioKeepsEvenAPlaceholderCount() {
    assertThat(lengths.of(row("unlearned", 1L, 40_000L, null))).isEqualTo(new Length(1, Basis.GATEWAY_COUNT, null));
  }

  private static RequestRow row(String model, Long promptTokens, Long promptChars, Long requestedLen) {
    RequestRecord record = RequestRecord.builder("gw-x").engineRid("x").tenant("t").model(model).deployment("dep")
        .prefillNode("prefill-0").decodeNode("decode-0").startTime(0L).firstTokenTime(100L).endTime(2_000L)
        .statusCode(200).promptTokens(promptTokens).promptChars(promptChars).completionTokens(50L).build();
    EngineFacts facts = requestedLen == null ? EngineFacts.NONE : new EngineFacts("prefill-0", "decode-0", null, null,
        null, true, requestedLen, null, null, 0, 0, 0, null, null, 1);
    return new RequestRow(0, record, facts);
  }
}
