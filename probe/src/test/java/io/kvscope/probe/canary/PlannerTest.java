package io.kvscope.probe.canary;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.config.Limits;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {

  private static final Limits INCIDENT = new Limits(681_280L, "prefill-a0", 1_048_576L, "prefill-a0", 64);

  @Test
  void theIncidentsLimitsGivePromptsJustPastEachInterleavedWithNormalOnes() {
    Plan plan = Planner.plan(ProbeOptions.builder(URI.create("http://h")).build(), INCIDENT, List.of(Api.CHAT, Api.GENERATE));
    assertThat(plan.fill()).hasSize(16).allMatch(r -> r.kind() == RequestKind.FILL);
    assertThat(plan.probes()).extracting(PlannedRequest::id).containsExactly(
        "over-pool-1", "normal-1", "over-context-1", "normal-2", "over-pool-2", "normal-3", "over-context-2", "normal-4");
    PlannedRequest overPool = plan.probes().get(0);
    assertThat(overPool.targetTokens()).isEqualTo(681_280L + (long) Math.ceil(681_280 * 0.02));
    assertThat(overPool.api()).isEqualTo(Api.CHAT);
    assertThat(plan.probes().get(4).api()).isEqualTo(Api.GENERATE);
    assertThat(plan.estimatedTokens()).isLessThanOrEqualTo(4_000_000L);
    assertThat(plan.testsOverLength()).isTrue();
    // Fill prompts spread around their base so first-token times have a slope.
    assertThat(plan.fill().get(0).targetTokens()).isLessThan(plan.fill().get(15).targetTokens());
  }

  @Test
  void aPoolThatHoldsTheContextHasNoOverPoolTestAndSaysWhy() {
    Plan plan = Planner.plan(ProbeOptions.builder(URI.create("http://h")).build(),
        new Limits(200_000L, "a", 131_072L, "a", 1), List.of(Api.CHAT));
    assertThat(plan.probes()).noneMatch(r -> r.kind() == RequestKind.OVER_POOL);
    assertThat(plan.skipped()).anyMatch(s -> s.reason().contains("holds the whole context"));
  }

  @Test
  void unknownLimitsMeanNoOverLengthTestAndTheOperatorIsToldWhatToGive() {
    Plan plan = Planner.plan(ProbeOptions.builder(URI.create("http://h")).build(),
        new Limits(null, null, null, null, null), List.of(Api.CHAT));
    assertThat(plan.testsOverLength()).isFalse();
    assertThat(plan.skipped()).extracting(Skipped::reason)
        .anyMatch(r -> r.contains("--pool-tokens")).anyMatch(r -> r.contains("--context-length"));
  }

  @Test
  void fillPromptsNeverReachALimitThemselves() {
    ProbeOptions.Builder b = ProbeOptions.builder(URI.create("http://h"));
    b.fillTokens = 5_000;
    Plan plan = Planner.plan(b.build(), new Limits(4_096L, "a", 8_192L, "a", 16), List.of(Api.CHAT));
    assertThat(plan.fill()).allMatch(r -> r.targetTokens() < 4_096);
    assertThat(plan.skipped()).anyMatch(s -> s.reason().startsWith("shortened to"));
  }
}
