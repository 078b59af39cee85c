package io.kvscope.gui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeScaleTest {

  private final Instant from = Instant.parse("2026-08-27T00:00:00Z");
  private final Instant to = Instant.parse("2026-09-10T00:00:00Z");

  @Test
  void mapsTimesToPixelsAndBack() {
    TimeScale scale = new TimeScale(from, to, 100, 1100);
    Instant middle = Instant.parse("2026-09-03T00:00:00Z");

    assertThat(scale.x(from)).isEqualTo(100);
    assertThat(scale.x(to)).isEqualTo(1100);
    assertThat(scale.x(middle)).isEqualTo(600);
    assertThat(scale.instant(600)).isEqualTo(middle);
    assertThat(scale.instant(-50)).isEqualTo(from);
    assertThat(scale.hourWidth()).isEqualTo(1000.0 / (14 * 24));
  }

  @Test
  void ticksAreWholeDaysForLongDomainsAndRoundHoursForShortOnes() {
    TimeScale weeks = new TimeScale(from, to, 0, 1000);
    assertThat(weeks.ticks(60)).allSatisfy(t -> assertThat(t.getEpochSecond() % 86_400).isZero())
        .hasSizeBetween(7, 15);

    TimeScale hours = new TimeScale(Instant.parse("2026-08-27T10:30:00Z"), Instant.parse("2026-08-28T04:00:00Z"), 0, 1000);
    // 17.5 hours over 1000 px: 57 px an hour, so every 3 hours keeps ticks 60 px apart.
    assertThat(hours.ticks(60)).isNotEmpty().allSatisfy(t -> assertThat(t.getEpochSecond() % (3 * 3_600)).isZero());
    assertThat(hours.ticks(60).get(0)).isEqualTo(Instant.parse("2026-08-27T12:00:00Z"));
    assertThat(hours.ticks(40).get(0)).isEqualTo(Instant.parse("2026-08-27T11:00:00Z"));
  }

  @Test
  void anyDomainGetsAFewTicksAndFinitePositions() {
    for (String far : new String[] {"2026-08-28T00:00:00Z", "2027-08-27T00:00:00Z", "+50000-01-01T00:00:00Z",
        "+300000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59Z"}) {
      TimeScale scale = new TimeScale(from, Instant.parse(far), 100, 1100);
      assertThat(scale.ticks(60)).as(far).hasSizeBetween(1, 1000 / 60 + 2);
      assertThat(scale.x(Instant.parse(far))).as(far).isCloseTo(1100, org.assertj.core.data.Offset.offset(1e-6));
      assertThat(scale.x(from)).isEqualTo(100);
    }
  }
}
