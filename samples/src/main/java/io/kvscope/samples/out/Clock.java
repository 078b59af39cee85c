package io.kvscope.samples.out;

/** Allocation-free formatting of epoch milliseconds as UTC calendar time. */
public final class Clock {

  private Clock() {}

  /**
   * Appends {@code yyyy-MM-dd HH:mm:ss}: SGLang's log prefix ({@code configure_logger},
   * {@code datefmt="%Y-%m-%d %H:%M:%S"}) has no milliseconds.
   */
  public static void appendLog(StringBuilder sb, long ms) {
    appendDate(sb, ms);
    sb.append(' ');
    appendTime(sb, ms, false);
  }

  /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ}. */
  public static String iso(long ms) {
    StringBuilder sb = new StringBuilder(24);
    appendDate(sb, ms);
    sb.append('T');
    appendTime(sb, ms, true);
    return sb.append('Z').toString();
  }

  /** {@code yyyy-MM-dd} of the UTC day containing {@code ms}. */
  public static String day(long ms) {
    StringBuilder sb = new StringBuilder(10);
    appendDate(sb, ms);
    return sb.toString();
  }

  private static void appendDate(StringBuilder sb, long ms) {
    long days = Math.floorDiv(ms, 86_400_000L);
    // Civil-from-days (Howard Hinnant), proleptic Gregorian.
    long z = days + 719_468;
    long era = Math.floorDiv(z, 146_097);
    long doe = z - era * 146_097;
    long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    long y = yoe + era * 400;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long d = doy - (153 * mp + 2) / 5 + 1;
    long m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) {
      y++;
    }
    sb.append(y).append('-');
    two(sb, (int) m);
    sb.append('-');
    two(sb, (int) d);
  }

  private static void appendTime(StringBuilder sb, long ms, boolean millis) {
    long inDay = Math.floorMod(ms, 86_400_000L);
    int h = (int) (inDay / 3_600_000L);
    int mi = (int) (inDay / 60_000L % 60);
    int s = (int) (inDay / 1000 % 60);
    int milli = (int) (inDay % 1000);
    two(sb, h);
    sb.append(':');
    two(sb, mi);
    sb.append(':');
    two(sb, s);
    if (!millis) {
      return;
    }
    sb.append('.');
    if (milli < 100) {
      sb.append('0');
    }
    two(sb, milli);
  }

  private static void two(StringBuilder sb, int v) {
    if (v < 10) {
      sb.append('0');
    }
    sb.append(v);
  }
}
