package io.kvscope.analysis;

import io.kvscope.ingest.record.ReleaseNumber;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares engine versions by their numeric release parts ({@code 0.5.21} < {@code 0.5.22} <
 * {@code 0.5.22.post1}); a pre-release ({@code 0.5.22rc1}, {@code 0.5.22.dev3}) sorts before its
 * release, as PEP 440 has it. Parts are compared as digit strings, so a part of any length
 * ({@code 99999999999999999999}) compares without overflow.
 */
public final class VersionOrder {

  private static final Pattern RELEASE = Pattern.compile("^v?(\\d+(?:\\.\\d+)*)(.*)$");

  private VersionOrder() {}

  /**
   * True when {@code version} is at least {@code fixed}; false when it is unknown or no release
   * number ({@link ReleaseNumber}): what cannot be read is never taken for patched.
   */
  public static boolean atLeast(String version, String fixed) {
    return ReleaseNumber.readable(version) && compare(version, fixed) >= 0;
  }

  public static int compare(String a, String b) {
    Matcher ma = RELEASE.matcher(a.strip());
    Matcher mb = RELEASE.matcher(b.strip());
    if (!ma.matches() || !mb.matches()) {
      return a.compareTo(b);
    }
    String[] pa = ma.group(1).split("\\.");
    String[] pb = mb.group(1).split("\\.");
    for (int i = 0; i < Math.max(pa.length, pb.length); i++) {
      int c = compareDigits(i < pa.length ? pa[i] : "0", i < pb.length ? pb[i] : "0");
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(suffixRank(ma.group(2)), suffixRank(mb.group(2)));
  }

  /** Two runs of decimal digits by their value: without leading zeros, the longer is larger. */
  static int compareDigits(String x, String y) {
    String a = withoutLeadingZeros(x);
    String b = withoutLeadingZeros(y);
    return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : Integer.signum(a.compareTo(b));
  }

  private static String withoutLeadingZeros(String digits) {
    int i = 0;
    while (i < digits.length() - 1 && digits.charAt(i) == '0') {
      i++;
    }
    return digits.substring(i);
  }

  /** Pre-releases before the release, post-releases after. */
  private static int suffixRank(String suffix) {
    String s = suffix.toLowerCase(Locale.ROOT);
    if (s.isEmpty()) {
      return 0;
    }
    if (s.contains("post")) {
      return 1;
    }
    return s.matches(".*(rc|a|b|alpha|beta|dev).*") ? -1 : 0;
  }
}
