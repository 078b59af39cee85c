package io.kvscope.gui.audit;

/**
 * Compares engine versions such as {@code 0.5.22}, {@code 0.5.9.post1} or {@code v0.4.3rc2} by
 * their leading numeric parts; a pre-release or post suffix does not change the order of the
 * numbers it follows.
 */
public final class Versions {

  private Versions() {}

  /** Negative, zero or positive as {@code a} is older than, equal to or newer than {@code b}. */
  public static int compare(String a, String b) {
    long[] x = numbers(a);
    long[] y = numbers(b);
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      long p = i < x.length ? x[i] : 0;
      long q = i < y.length ? y[i] : 0;
      if (p != q) {
        return Long.compare(p, q);
      }
    }
    return 0;
  }

  public static boolean olderThan(String version, String fixed) {
    return compare(version, fixed) < 0;
  }

  private static long[] numbers(String version) {
    String v = version.strip();
    if (v.startsWith("v") || v.startsWith("V")) {
      v = v.substring(1);
    }
    String[] parts = v.split("\\.");
    long[] out = new long[parts.length];
    int n = 0;
    for (String part : parts) {
      int digits = 0;
      while (digits < part.length() && Character.isDigit(part.charAt(digits))) {
        digits++;
      }
      if (digits == 0) {
        break;
      }
      out[n++] = Long.parseLong(part.substring(0, Math.min(digits, 18)));
      if (digits < part.length()) {
        break; // "22rc1": the suffix ends the numeric part
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }
}
