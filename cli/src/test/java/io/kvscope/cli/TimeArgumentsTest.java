package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class TimeArgumentsTest {

  private static final Clock NOON = Clock.fixed(Instant.parse("2026-09-03T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void durationsInShorthandAndIso() {
    assertThat(TimeArguments.duration("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(TimeArguments.duration("36h")).isEqualTo(Duration.ofHours(36));
    assertThat(TimeArguments.duration("2w")).isEqualTo(Duration.ofDays(14));
    assertThat(TimeArguments.duration("P7D")).isEqualTo(Duration.ofDays(7));
    assertThat(TimeArguments.duration("pt90m")).isEqualTo(Duration.ofMinutes(90));
    assertThatThrownBy(() -> TimeArguments.duration("7 days please")).isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("7d, 36h");
  }

  @Test
  void timesAbsoluteAndRelativeAreUtc() {
    assertThat(TimeArguments.time("2026-08-27", NOON)).isEqualTo(Instant.parse("2026-08-27T00:00:00Z"));
    assertThat(TimeArguments.time("2026-08-27 10:30", NOON)).isEqualTo(Instant.parse("2026-08-27T10:30:00Z"));
    assertThat(TimeArguments.time("2026-08-27T10:30:00+02:00", NOON)).isEqualTo(Instant.parse("2026-08-27T08:30:00Z"));
    assertThat(TimeArguments.time("yesterday", NOON)).isEqualTo(Instant.parse("2026-09-02T00:00:00Z"));
    assertThat(TimeArguments.time("today", NOON)).isEqualTo(Instant.parse("2026-09-03T00:00:00Z"));
    assertThat(TimeArguments.time("36h ago", NOON)).isEqualTo(Instant.parse("2026-09-02T00:00:00Z"));
    assertThat(TimeArguments.time("7d", NOON)).isEqualTo(Instant.parse("2026-08-27T12:00:00Z"));
    assertThatThrownBy(() -> TimeArguments.time("last tuesday", NOON)).isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("yesterday");
  }
}
