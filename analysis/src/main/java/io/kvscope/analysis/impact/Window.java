package io.kvscope.analysis.impact;

import java.time.Instant;

/**
 * A stretch of time: {@code vulnerable} (a node ran a config that admits leaks) or
 * {@code exposure} (leaked responses were actually served).
 *
 * @param node the node (vulnerable windows) or null
 * @param deployment the deployment or decode node group (exposure windows) or null
 * @param count findings inside the window (exposure) or requests served in it (vulnerable)
 * @param reason why it is vulnerable (e.g. pool 681280 < context 1048576), or null
 * @param engineVersion for vulnerable windows, the engine release the node ran, or
 *     {@link #UNKNOWN_VERSION} when no deployment record told it (the window is then vulnerable
 *     unless the engine was patched, which the logs cannot show); null for exposure windows
 */
public record Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason,
    String engineVersion) {

  /** What a vulnerable window's engine version says when no record told it. */
  public static final String UNKNOWN_VERSION = "unknown";

  /** A window without an engine version (exposure windows). */
  public Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason) {
    this(kind, node, deployment, start, end, count, reason, null);
  }

  public enum Kind {
    VULNERABLE, EXPOSURE;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public Window {
    if (kind == null || start == null) {
      throw new IllegalArgumentException("a window needs a kind and a start");
    }
    if (end != null && end.isBefore(start)) {
      throw new IllegalArgumentException("window ends before it starts: " + start + " > " + end);
    }
  }

  /** True for a vulnerable window whose engine version no record told. */
  public boolean versionUnknown() {
    return UNKNOWN_VERSION.equals(engineVersion);
  }

  /** True while the window is still open (no end seen yet): "is it over?" answered no. */
  public boolean open() {
    return end == null;
  }
}
