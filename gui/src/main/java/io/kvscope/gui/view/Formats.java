package io.kvscope.gui.view;

import io.kvscope.analysis.report.CountNouns;
import io.kvscope.model.finding.FindingKind;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the views write times and numbers: UTC always (node clocks and reports are UTC). */
public final class Formats {

  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SECOND =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  private Formats() {}

  public static String minute(Instant t) {
    return t == null ? "-" : MINUTE.format(t);
  }

  public static String second(Instant t) {
    return t == null ? "-" : SECOND.format(t);
  }

  public static String millis(Long epochMillis) {
    return epochMillis == null ? "-" : second(Instant.ofEpochMilli(epochMillis));
  }

  public static String day(Instant t) {
    return DAY.format(t);
  }

  public static String hour(Instant t) {
    return HOUR.format(t);
  }

  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A sure count and the count with every possible one: {@code 3}, or {@code 3–7} when candidates add. */
  public static String range(long certain, long possible) {
    return possible > certain ? count(certain) + "\u2013" + count(possible) : count(certain);
  }

  /** {@link #range} with its noun: {@code 1 response}, but {@code 0–1 responses} and {@code 2 responses}. */
  public static String range(long certain, long possible, String noun) {
    return range(certain, possible) + " " + CountNouns.of(certain, possible, noun);
  }

  public static String count(Long n) {
    return n == null ? "-" : count(n.longValue());
  }

  public static String flag(Boolean b) {
    return b == null ? "unknown" : b ? "on" : "off";
  }

  /** A finding kind in a few words, for tables where several kinds share a cell. */
  public static String kind(FindingKind kind) {
    return switch (kind) {
      case CANARY_LEAK -> "canary";
      case CROSS_TENANT_OVERLAP -> "overlap";
      case RARE_IDENTIFIER_LEAK -> "identifier";
      case OVER_LENGTH_ACCEPTED -> "over-length";
      case PREFILL_UNDERRUN -> "underrun";
      case TIMING_ANOMALY -> "timing";
      case SAME_TENANT_REUSE -> "same-tenant";
      case CONFIG_POOL_BELOW_CONTEXT -> "pool < context";
      case CONFIG_UNPATCHED_ENGINE -> "unpatched engine";
      case CONFIG_MISSING_SAFEGUARD -> "safeguard off";
      default -> kind.id().replace('_', ' ');
    };
  }
}
