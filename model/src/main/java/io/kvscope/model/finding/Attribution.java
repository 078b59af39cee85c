package io.kvscope.model.finding;

import java.util.Locale;

/**
 * How sure a finding is of one source. {@code sole}: the only request within reach of the
 * recipient's decode pool that held the passage or identifier, so its pages are where it came
 * from. {@code candidate}: one of several that held it word for word; the logs cannot tell which
 * one's pages the response read, so each is named as possible, ranked by the mechanism.
 */
public enum Attribution {
  SOLE,
  CANDIDATE;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Attribution fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
