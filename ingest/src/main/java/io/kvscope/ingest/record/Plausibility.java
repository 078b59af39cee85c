package io.kvscope.ingest.record;

import java.time.Instant;
import java.util.Optional;

/**
 * The values no real log of LLM serving holds, whatever its format. A parser turns text into
 * numbers faithfully; a timestamp of {@code 1e300} then saturates to the year 292 million, NaN
 * becomes 1970, a year-300000 start makes every chart and timeline hours long, and a prompt of
 * 10^30 tokens outweighs every real one. Such a record is a bad record: counted and quarantined
 * with its file and line, never indexed, so nothing downstream has to survive it.
 *
 * <p>The bounds are wide on purpose: they reject corruption and forgery, not unusual traffic.
 */
public final class Plausibility {

  /** Earliest plausible time: 2000-01-01T00:00:00Z (LLM serving logs are far younger). */
  public static final long EARLIEST_MS = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
  /** Latest plausible time: 2100-01-01T00:00:00Z. */
  public static final long LATEST_MS = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();
  /** No count of tokens, characters or pages reaches 2^40 (about 10^12). */
  public static final long MAX_COUNT = 1L << 40;
  /** Clocks step; an end a little before its start is a clock, more is corruption. */
  public static final long CLOCK_STEP_MS = 1_000;

  private Plausibility() {}

  /** What is impossible about {@code item}, or empty when every value is plausible. */
  public static Optional<String> problem(Ingested item) {
    return Optional.ofNullable(switch (item) {
      case RequestRecord r -> request(r);
      case EngineEvent e -> event(e);
      case ConfigEpoch c -> epoch(c);
      case NodeActivity a -> time("hour", a.hourStart());
      case VersionRecord v -> first(time("from", v.from()), time("to", v.to()));
      case NodeAlias a -> null;
    });
  }

  private static String request(RequestRecord r) {
    String bad = first(time("start_time", r.startTime()), time("first_token_time", r.firstTokenTime()),
        time("end_time", r.endTime()), count("prompt_tokens", r.promptTokens()), count("prompt_chars", r.promptChars()),
        count("cached_tokens", r.cachedTokens()), count("completion_tokens", r.completionTokens()),
        count("engine_input_len", r.engineInputLen()));
    if (bad != null) {
      return bad;
    }
    if (before(r.endTime(), r.startTime())) {
      return "end_time " + iso(r.endTime()) + " is before start_time " + iso(r.startTime());
    }
    if (before(r.firstTokenTime(), r.startTime())) {
      return "first_token_time " + iso(r.firstTokenTime()) + " is before start_time " + iso(r.startTime());
    }
    if (before(r.endTime(), r.firstTokenTime())) {
      return "end_time " + iso(r.endTime()) + " is before first_token_time " + iso(r.firstTokenTime());
    }
    return null;
  }

  private static String event(EngineEvent e) {
    return first(time("time", e.time()), count("input len", e.inputLen()), count("requested length", e.requestedLen()),
        count("limit", e.limit()), count("cached length", e.cachedLen()), count("output len", e.outputLen()),
        amount("transfer MB", e.transferMb()), amount("transfer ms", e.transferMillis()),
        amount("e2e latency ms", e.e2eLatencyMillis()));
  }

  private static String epoch(ConfigEpoch c) {
    String bad = first(time("epoch start", c.start()), count("KV pool tokens", c.poolTokens()),
        count("context length", c.contextLength()), count("page size", c.pageSize() == null ? null : (long) c.pageSize()));
    if (bad != null) {
      return bad;
    }
    if (c.contextLength() != null && c.contextLength() == 0) {
      return "context length 0 is no limit a server runs with";
    }
    return null;
  }

  private static String time(String field, Long ms) {
    if (ms == null || (ms >= EARLIEST_MS && ms < LATEST_MS)) {
      return null;
    }
    return field + " " + iso(ms) + " is outside the plausible range 2000-01-01..2100-01-01"
        + " (an overflowing, non-finite or mis-scaled time)";
  }

  private static String count(String field, Long value) {
    if (value == null || (value >= 0 && value <= MAX_COUNT)) {
      return null;
    }
    return field + " " + value + (value < 0 ? " is negative" : " is beyond any real count (at most 2^40)");
  }

  private static String amount(String field, Double value) {
    if (value == null || (Double.isFinite(value) && value >= 0 && value <= MAX_COUNT)) {
      return null;
    }
    return field + " " + value + " is not a plausible amount";
  }

  private static boolean before(Long later, Long earlier) {
    return later != null && earlier != null && later < earlier - CLOCK_STEP_MS;
  }

  private static String iso(long ms) {
    return Instant.ofEpochMilli(ms).toString();
  }

  private static String first(String... problems) {
    for (String p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }
}
