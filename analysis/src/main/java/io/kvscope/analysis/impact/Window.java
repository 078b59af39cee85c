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
 * @param nodeStart for vulnerable windows, the first epoch's start as the node's own log states it,
 *     on the node's clock; null for exposure windows. {@code start} is the same moment on the
 *     gateway's clock, re-estimated from the requests each time more logs arrive, so it moves by
 *     milliseconds: this does not, which makes it the window's name ({@link #id()})
 */
public record Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason,
    String engineVersion, Instant nodeStart) {

  /** What a vulnerable window's engine version says when no record told it. */
  public static final String UNKNOWN_VERSION = "unknown";

  /** A window without an engine version (exposure windows). */
  public Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason) {
    this(kind, node, deployment, start, end, count, reason, null, null);
  }

  /** A window whose start on the node's clock is not known apart from {@code start}. */
  public Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason,
      String engineVersion) {
    this(kind, node, deployment, start, end, count, reason, engineVersion, null);
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

  /**
   * The window's name, the same in every run over more of the same incident's logs: its kind, its
   * node and its start as the node's own log says it (an audit remembers windows by this).
   */
  public String id() {
    return (kind == Kind.VULNERABLE ? "window:" : "exposure:") + node + ":" + (nodeStart != null ? nodeStart : start);
  }

  /** A copy with {@code count}. */
  public Window withCount(long newCount) {
    return new Window(kind, node, deployment, start, end, newCount, reason, engineVersion, nodeStart);
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
