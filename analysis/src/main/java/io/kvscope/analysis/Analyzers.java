package io.kvscope.analysis;

import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The registered analyzers, found through {@link ServiceLoader}, in {@link Analyzer#order()}. */
public final class Analyzers {

  private Analyzers() {}

  public static List<Analyzer> discover() {
    return ServiceLoader.load(Analyzer.class).stream()
        .map(ServiceLoader.Provider::get)
        .sorted(Comparator.comparingInt(Analyzer::order).thenComparing(Analyzer::name))
        .toList();
  }
}
