package io.kvscope.probe.config;

import java.util.List;

/**
 * A configuration fact of one node (pool size, context length, version, ...) and every raw value
 * it was derived from; {@code value} is null when no endpoint showed it.
 */
public record Fact<T>(T value, List<Observation> observed) {

  public Fact {
    observed = observed == null ? List.of() : List.copyOf(observed);
  }

  public static <T> Fact<T> unknown() {
    return new Fact<>(null, List.of());
  }

  public boolean known() {
    return value != null;
  }
}
