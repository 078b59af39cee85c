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
  void aLongerTextThatContinuesTheKeptOneIsTheMoreCompleteCopy() {
    RequestRecord cut = gateway().toBuilder().responseText("Clause 14 limits liability").build();
    RequestRecord full = trace();

    RequestRecord merged = RequestMerge.merge(List.of(cut, full));

    assertThat(merged.responseText()).isEqualTo(full.responseText());
    assertThat(merged.provenance().conflicts()).noneMatch(c -> c.startsWith("response_text"));
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
