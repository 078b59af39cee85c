package io.kvscope.gui.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FindingFilterTest {

  static final Instant T = Instant.parse("2026-08-28T10:00:00Z");

  @Test
  void theFilterMatchesTenantsOnEitherSideNodesOnEitherRoleAndSearchHitsByIdOrRid() {
    Finding f = new Finding("x", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "chatcmpl-1", "1", "globex", T,
        "prefill-0", "decode-3", List.of(new Source("s", null, "acme", 5, List.of(), Attribution.SOLE)), Map.of());

    assertThat(FindingFilter.NONE.withTenant("acme").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withTenant("globex").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withTenant("initech").test(f)).isFalse();
    assertThat(FindingFilter.NONE.withNode("decode-3").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withKind(FindingKind.CANARY_LEAK).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withRange(TimeRange.hoursCovering(T, T)).test(f)).isTrue();
    assertThat(FindingFilter.NONE.withRange(new TimeRange(T.plusSeconds(1), T.plusSeconds(60))).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withSearch("q", Set.of("1")).test(f)).isTrue();
    assertThat(FindingFilter.NONE.withSearch("q", Set.of()).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withTenant(" ").isNeutral()).isTrue();
  }

  @Test
  void anUnresolvedTenantIsPickedByTheNameTheTenantTableGivesIt() {
    Finding unknownRecipient = new Finding("y", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "chatcmpl-2",
        "2", null, T, "prefill-0", "decode-3", List.of(), Map.of());
    Finding unknownSource = new Finding("z", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "chatcmpl-3", "3",
        "globex", T, "prefill-0", "decode-3", List.of(new Source("s", null, null, 5, List.of(), Attribution.SOLE)), Map.of());
    Finding config = new Finding("c", FindingKind.CONFIG_POOL_BELOW_CONTEXT, Confidence.CONFIRMED, null, null, null, T,
        "prefill-0", null, List.of(), Map.of());

    FindingFilter unknown = FindingFilter.NONE.withTenant(Tenants.UNKNOWN);

    assertThat(unknown.test(unknownRecipient)).isTrue();
    assertThat(unknown.test(unknownSource)).isTrue();
    assertThat(unknown.test(config)).as("a config finding is no tenant's").isFalse();
  }
}
