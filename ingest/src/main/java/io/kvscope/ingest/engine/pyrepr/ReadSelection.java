package io.kvscope.ingest.engine.pyrepr;

import java.util.Map;
import java.util.function.Predicate;

/**
 * Which parts of a value to read. The reader asks {@link #child} for every dict key and keyword
 * argument it meets; {@code null} means "scan past it without reading".
 */
public interface ReadSelection {

  /** What to read inside the entry {@code key}, or {@code null} to skip it. */
  ReadSelection child(String key);

  /** Whether positional arguments and unnamed items are read too. */
  default boolean everything() {
    return false;
  }

  /** Everything below this point (strings still capped by the reader). */
  static ReadSelection all() {
    return All.INSTANCE;
  }

  /** Only the named keys, each with its own want. */
  static ReadSelection keys(Map<String, ReadSelection> children) {
    Map<String, ReadSelection> copy = Map.copyOf(children);
    return copy::get;
  }

  /** The named keys read whole. */
  static ReadSelection keys(String... names) {
    java.util.Map<String, ReadSelection> children = new java.util.HashMap<>();
    for (String name : names) {
      children.put(name, all());
    }
    return keys(children);
  }

  /** Every key accepted by {@code test}, read whole. */
  static ReadSelection matching(Predicate<String> test) {
    return key -> test.test(key) ? all() : null;
  }

  /** The first non-null answer of this want, then of {@code other}. */
  default ReadSelection or(ReadSelection other) {
    ReadSelection self = this;
    return key -> {
      ReadSelection mine = self.child(key);
      return mine != null ? mine : other.child(key);
    };
  }

  /** Reads everything. */
  enum All implements ReadSelection {
    INSTANCE;

    @Override
    public ReadSelection child(String key) {
      return this;
    }

    @Override
    public boolean everything() {
      return true;
    }
  }
}
