package io.kvscope.ingest.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The merge rules on plain records: each rule alone, then that order never matters. */
class RequestMergeTest {

  private static final long T0 = 1_787_824_800_000L;
  private static final String SYSTEM = "You answer questions about the attached contract.";
  private static final String USER = "Summarise clause 14 of the master services agreement for the board.";

  /** The gateway's record: the whole history, the tenant from the API key, TTFT 900 ms on its clock. */
  private static RequestRecord gateway() {
    return RequestRecord.builder("chatcmpl-abc123").engineRid("abc123").tenant("org-acme").model("qwen2.5-14b-1m")
        .deployment("chat-1m").startTime(T0).firstTokenTime(T0 + 900).endTime(T0 + 4_000).statusCode(200)
        .finishReason("stop").promptTokens(712_765L).completionTokens(210L).promptText(SYSTEM + "\n" + USER)
        .responseText("Clause 14 limits liability to the fees of the last twelve months.")
        .sourceFile("gateway/litellm.jsonl").sourceLine(12).origin(RecordOrigin.GATEWAY)
        .aliases(List.of("litellm_trace_id:c0a8e1f2")).build();
  }

  /** A client's span of the same call: its own tenant attribute, the last message only, its own clock. */
  private static RequestRecord trace() {
    return RequestRecord.builder("chatcmpl-abc123").engineRid("abc123").tenant("team-blue").model("chat-1m")
        .deployment("chat-1m").startTime(T0 - 2_000).firstTokenTime(T0 - 2_000 + 700).endTime(T0 + 2_100)
        .statusCode(200).finishReason("stop").promptTokens(712_765L).completionTokens(210L).promptText(USER)
        .responseText("Clause 14 limits liability to the fees of the last twelve months.")
        .sourceFile("traces/spans.jsonl").sourceLine(3).origin(RecordOrigin.TRACE)
        .aliases(List.of("trace_id:5b8e", "span_id:0f1e")).build();
  }

  @Test
  void theGatewayKeepsItsTenantAndTheFullPromptAndEveryIdIsKept() {
    RequestRecord merged = RequestMerge.merge(List.of(trace(), gateway()));

    assertThat(merged.tenant()).isEqualTo("org-acme");
    assertThat(merged.promptText()).isEqualTo(SYSTEM + "\n" + USER);
    assertThat(merged.promptChars()).isEqualTo((long) (SYSTEM + "\n" + USER).length());
    assertThat(merged.model()).isEqualTo("qwen2.5-14b-1m");
    assertThat(merged.sourceFile()).isEqualTo("gateway/litellm.jsonl");
    assertThat(merged.origin()).isEqualTo(RecordOrigin.GATEWAY);
    assertThat(merged.aliases()).containsExactly("litellm_trace_id:c0a8e1f2", "span_id:0f1e", "trace_id:5b8e");
    assertThat(merged.provenance().records()).isEqualTo(2);
    assertThat(merged.provenance().sources())
        .containsExactly("gateway gateway/litellm.jsonl:12", "trace traces/spans.jsonl:3");
    // the last message alone is part of the prompt: no text conflict; two tenant names are one
    assertThat(merged.provenance().conflicts()).containsExactly(
        "tenant: kept 'org-acme' (gateway gateway/litellm.jsonl:12), also 'team-blue' (trace traces/spans.jsonl:3)");
  }

  @Test
  void timesComeFromOneClockAndTheFirstTokenFromTheShortestMeasurement() {
    RequestRecord merged = RequestMerge.merge(List.of(gateway(), trace()));

    assertThat(merged.startTime()).isEqualTo(T0);
    assertThat(merged.endTime()).isEqualTo(T0 + 4_000);
    assertThat(merged.ttftMillis()).as("700 ms measured by the trace, on the gateway's start").isEqualTo(700L);
    RequestRecord unmeasured = trace().toBuilder().firstTokenTime(null).build();
    assertThat(RequestMerge.merge(List.of(gateway(), unmeasured)).ttftMillis()).isEqualTo(900L);
  }

  @Test
  void aShortForgedSpanChangesNothingAndIsKeptAsConflicts() {
    RequestRecord forged = RequestRecord.builder("chatcmpl-abc123").engineRid("abc123").tenant("org-acme")
        .startTime(T0 - 60_000).firstTokenTime(T0 - 60_000 + 30_000).endTime(T0 + 60_000).statusCode(200)
        .promptTokens(5L).promptText("hello").responseText("Nothing to see.")
        .sourceFile("client/otel.jsonl").sourceLine(1).origin(RecordOrigin.TRACE).build();

    RequestRecord merged = RequestMerge.merge(List.of(gateway(), forged));

    RequestRecord alone = gateway();
    assertThat(merged.promptTokens()).isEqualTo(alone.promptTokens());
    assertThat(merged.promptText()).isEqualTo(alone.promptText());
    assertThat(merged.responseText()).isEqualTo(alone.responseText());
    assertThat(merged.startTime()).isEqualTo(alone.startTime());
    assertThat(merged.ttftMillis()).isEqualTo(alone.ttftMillis());
    assertThat(merged.provenance().conflicts()).containsExactly(
        "prompt_tokens: kept 712765 (gateway gateway/litellm.jsonl:12), also 5 (trace client/otel.jsonl:1)",
        "prompt_text: kept " + alone.promptText().length()
            + " chars (gateway gateway/litellm.jsonl:12), also 5 chars that is not part of it (trace client/otel.jsonl:1)",
        "response_text: kept " + alone.responseText().length()
            + " chars (gateway gateway/litellm.jsonl:12), also 15 chars that is not part of it (trace client/otel.jsonl:1)");
    assertThat(String.join("\n", merged.provenance().conflicts())).as("texts are never quoted")
        .doesNotContain("hello").doesNotContain("Nothing to see");
  }

  @Test
  void aLongerTextOfTheSameOriginThatContinuesTheKeptOneIsTheMoreCompleteCopy() {
    RequestRecord cut = gateway().toBuilder().responseText("Clause 14 limits liability").build();
    RequestRecord full = gateway().toBuilder().sourceFile("gateway/litellm.jsonl.1").build();

    RequestRecord merged = RequestMerge.merge(List.of(cut, full));

    assertThat(merged.responseText()).isEqualTo(full.responseText());
    assertThat(merged.provenance().conflicts()).noneMatch(c -> c.startsWith("response_text"));
    assertThat(RequestMerge.disagreeing(List.of(cut, full))).isEmpty();
  }

  /**
   * A trace that goes on past the gateway's reply (a client planting text into its own earlier
   * request) neither replaces nor extends it: the longer text is a copy beside the kept one.
   */
  @Test
  void aLowerOriginNeverExtendsTheKeptTextItIsKeptAsACopy() {
    String planted = gateway().responseText() + " Account 4417 1234 5678 9113 belongs to another customer.";
    RequestRecord plant = trace().toBuilder().responseText(planted).build();

    RequestRecord merged = RequestMerge.merge(List.of(gateway(), plant));

    assertThat(merged.responseText()).isEqualTo(gateway().responseText());
    assertThat(merged.provenance().conflicts()).contains("response_text: kept " + gateway().responseText().length()
        + " chars (gateway gateway/litellm.jsonl:12), also " + planted.length()
        + " chars that goes on past it (trace traces/spans.jsonl:3)");
    assertThat(RequestMerge.disagreeing(List.of(plant, gateway()))).containsExactly(new TextCopy("response_text", planted,
        "trace traces/spans.jsonl:3", "gateway gateway/litellm.jsonl:12", true));
  }

  /**
   * Two gateway lines of one call with different replies (a shipped duplicate, a retry logged under
   * the same id, a forged line): the longer is kept as before, and the other is kept beside it, so a
   * leak in either is found.
   */
  @Test
  void copiesOfOneOriginThatDisagreeAreEachKeptWithWhereTheyWereRead() {
    RequestRecord leaked = gateway();
    RequestRecord harmless = gateway().toBuilder().sourceFile("gateway/litellm-retry.jsonl").sourceLine(4)
        .responseText("I am sorry, I cannot summarise that clause without the full agreement in front of me.").build();

    List<TextCopy> copies = RequestMerge.disagreeing(List.of(leaked, harmless));
    RequestRecord merged = RequestMerge.merge(List.of(leaked, harmless));

    assertThat(merged.responseText()).isEqualTo(harmless.responseText());
    assertThat(copies).containsExactly(new TextCopy("response_text", leaked.responseText(),
        "gateway gateway/litellm.jsonl:12", "gateway gateway/litellm-retry.jsonl:4", false));
    assertThat(copies.getFirst().isReply()).isTrue();
    assertThat(merged.provenance().conflicts()).containsExactly("response_text: kept "
        + harmless.responseText().length() + " chars (gateway gateway/litellm-retry.jsonl:4), also "
        + leaked.responseText().length() + " chars that is not part of it (gateway gateway/litellm.jsonl:12)");
    assertThat(RequestMerge.disagreeing(List.of(leaked))).as("one record: nothing disagrees").isEmpty();
  }

  @Test
  void aFloodOfForgedCopiesKeepsABoundedNumber() {
    List<RequestRecord> records = new ArrayList<>(List.of(gateway()));
    for (int i = 0; i < 50; i++) {
      records.add(gateway().toBuilder().sourceLine(100 + i).responseText("forged reply number " + i).build());
    }

    List<TextCopy> copies = RequestMerge.disagreeing(records);

    assertThat(copies).hasSize(MergeRules.MAX_COPIES).allMatch(TextCopy::isReply);
    Collections.shuffle(records, new Random(3));
    assertThat(RequestMerge.disagreeing(records)).as("the same copies whatever the order").isEqualTo(copies);
  }

  @Test
  void identicalCopiesMergeWithoutConflictAndAreCounted() {
    RequestRecord copy = gateway().toBuilder().sourceFile("gateway/litellm.jsonl.1").sourceLine(40).build();

    RequestRecord merged = RequestMerge.merge(List.of(gateway(), copy));

    assertThat(merged.provenance().conflictCount()).isZero();
    assertThat(RequestMerge.copies(List.of(gateway(), copy, trace()))).isEqualTo(1);
    assertThat(merged.toBuilder().provenance(null).build()).isEqualTo(gateway());
  }

  @Test
  void theOrderRecordsArriveInNeverMatters() {
    List<RequestRecord> records = new ArrayList<>(List.of(gateway(), trace(),
        gateway().toBuilder().sourceFile("gateway/again.jsonl").tenant("org-other").promptTokens(1L).build(),
        trace().toBuilder().sourceLine(9).promptText("another text entirely").firstTokenTime(null).build()));
    RequestRecord expected = RequestMerge.merge(records);
    Random shuffle = new Random(7);
    for (int i = 0; i < 20; i++) {
      Collections.shuffle(records, shuffle);
      assertThat(RequestMerge.merge(records)).isEqualTo(expected);
    }
  }

  @Test
  void requestsAreKeyedByEngineRidElseTheirOwnId() {
    assertThat(RequestMerge.keyOf(gateway())).isEqualTo("abc123");
    assertThat(RequestMerge.keyOf(RequestRecord.builder("7d3f2a9c").build())).isEqualTo("7d3f2a9c");
  }
}
