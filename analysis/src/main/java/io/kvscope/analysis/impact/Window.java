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
 */
public record Window(Kind kind, String node, String deployment, Instant start, Instant end, long count, String reason) {

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

  /** True while the window is still open (no end seen yet): "is it over?" answered no. */
  public boolean open() {
    return end == null;
  }
}
