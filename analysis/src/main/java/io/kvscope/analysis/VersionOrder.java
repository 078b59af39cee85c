package io.kvscope.analysis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares engine versions by their numeric release parts ({@code 0.5.21} < {@code 0.5.22} <
 * {@code 0.5.22.post1}); a pre-release ({@code 0.5.22rc1}, {@code 0.5.22.dev3}) sorts before its
 * release, as PEP 440 has it.
 */
public final class VersionOrder {

  private static final Pattern RELEASE = Pattern.compile("^v?(\\d+(?:\\.\\d+)*)(.*)$");

  private VersionOrder() {}

  /** True when {@code version} is at least {@code fixed}; false when it cannot be read. */
  public static boolean atLeast(String version, String fixed) {
    return version != null && compare(version, fixed) >= 0;
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
      long x = i < pa.length ? Long.parseLong(pa[i]) : 0;
      long y = i < pb.length ? Long.parseLong(pb[i]) : 0;
      if (x != y) {
        return Long.compare(x, y);
      }
    }
    return Integer.compare(suffixRank(ma.group(2)), suffixRank(mb.group(2)));
  }

  /** Pre-releases before the release, post-releases after. */
  private static int suffixRank(String suffix) {
    String s = suffix.toLowerCase(java.util.Locale.ROOT);
    if (s.isEmpty()) {
      return 0;
    }
    if (s.contains("post")) {
      return 1;
    }
    return s.matches(".*(rc|a|b|alpha|beta|dev).*") ? -1 : 0;
  }
}
