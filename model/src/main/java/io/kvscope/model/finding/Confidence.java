package io.kvscope.model.finding;

import java.util.Locale;

/**
 * How sure a finding is (docs/overlap-method.md says which facts give which): {@code confirmed} (a canary, or a verified verbatim span from
 * another tenant of at least the threshold), {@code probable} (rare identifiers, or over-length
 * accepted plus underrun without text proof), {@code suspect} (weak evidence only: a timing anomaly, or
 * an answer other tenants also received to the same question). Config findings are
 * facts read from logs and are {@code confirmed}.
 */
public enum Confidence {
  CONFIRMED,
  PROBABLE,
  SUSPECT;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Confidence fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }

  /** Confirmed and probable findings are what the summary counts. */
  public boolean counts() {
    return this != SUSPECT;
  }
}
