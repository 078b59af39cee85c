package io.kvscope.ingest.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.json.Times;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PlausibilityTest {

  private static final long T = Instant.parse("2026-08-27T10:00:00Z").toEpochMilli();

  private static RequestRecord.Builder request() {
    return RequestRecord.builder("r1").startTime(T).firstTokenTime(T + 300).endTime(T + 2_000).promptTokens(12L)
        .sourceFile("gw.jsonl").sourceLine(3);
  }

  @Test
  void realRecordsPass() {
    assertThat(Plausibility.problem(request().build())).isEmpty();
    assertThat(Plausibility.problem(request().endTime(T - 500).build())).as("a clock step, not corruption").isEmpty();
    assertThat(Plausibility.problem(request().promptTokens(2_000_000L).build())).isEmpty();
  }

  @Test
  void theTimesOfTheAttacksAreBadRecords() {
    // What the parsers make of 1e300, -1e300, Infinity and NaN seconds, and of years 300000, 50000, 9999 and 1970.
    for (long ms : new long[] {Times.fromEpochAuto(1e300), Times.fromEpochAuto(-1e300),
        Times.fromEpochAuto(Double.POSITIVE_INFINITY), Times.fromEpochAuto(Double.NaN),
        Instant.parse("+300000-01-01T00:00:00Z").toEpochMilli(), Instant.parse("+50000-01-01T00:00:00Z").toEpochMilli(),
        Instant.parse("9999-12-31T23:59:59Z").toEpochMilli(), 0}) {
      assertThat(Plausibility.problem(request().startTime(ms).build())).as("start %s", Instant.ofEpochMilli(ms)).isPresent()
          .get().asString().contains("start_time").contains("plausible range");
    }
    assertThat(Plausibility.problem(request().endTime(T - 86_400_000L).build())).get().asString()
        .contains("end_time").contains("before start_time");
    assertThat(Plausibility.problem(request().firstTokenTime(T - 60_000).build())).isPresent();
  }

  @Test
  void countsBeyondAnyRealOneAreBadRecords() {
    assertThat(Plausibility.problem(request().promptTokens(Long.MAX_VALUE).build())).get().asString()
        .contains("prompt_tokens").contains("beyond any real count");
    assertThat(Plausibility.problem(new ConfigEpoch("n", NodeRole.PREFILL, T, Long.MAX_VALUE, 1_048_576L, 64, null, null,
        null, null, null, null, null, "sglang-log", "n.log", 8))).isPresent();
    assertThat(Plausibility.problem(new ConfigEpoch("n", NodeRole.PREFILL, T, 681_280L, -1L, 64, null, null,
        null, null, null, null, null, "sglang-log", "n.log", 8))).get().asString().contains("negative");
    assertThat(Plausibility.problem(EngineEvent.of(EngineEvent.Kind.RECEIVED, "n", NodeRole.DECODE, "rid", Long.MIN_VALUE,
        "n.log", 9))).isPresent();
    assertThat(Plausibility.problem(new NodeActivity("n", NodeRole.DECODE, T - T % 3_600_000, 10, "n.log", 1))).isEmpty();
  }
}
