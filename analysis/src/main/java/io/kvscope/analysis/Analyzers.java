package io.kvscope.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The registered analyzers, found through {@link ServiceLoader}, in the order their needs impose. */
public final class Analyzers {

  private Analyzers() {}

  public static List<Analyzer> discover() {
    return ordered(ServiceLoader.load(Analyzer.class).stream().map(ServiceLoader.Provider::get).toList());
  }

  /**
   * Every analyzer after the ones it {@link Analyzer#requires()}, otherwise by name (so the order
   * is the same on every machine). Refuses a requirement that is not among {@code analyzers}, two
   * analyzers with one name, and requirements that go round in a cycle.
   *
   * @throws IllegalArgumentException naming the problem
   */
  public static List<Analyzer> ordered(List<Analyzer> analyzers) {
    return ordered(analyzers, Set.of());
  }

  /**
   * As {@link #ordered(List)}, but the analyzers named in {@code first} (those registered), and what
   * they require, come before every other: the facts a responder is told early are built early.
   */
  public static List<Analyzer> ordered(List<Analyzer> analyzers, Set<String> first) {
    Map<String, Analyzer> byName = new TreeMap<>();
    for (Analyzer analyzer : analyzers) {
      if (byName.put(analyzer.name(), analyzer) != null) {
        throw new IllegalArgumentException("two analyzers are named '" + analyzer.name() + "'");
      }
    }
    for (Analyzer analyzer : analyzers) {
      for (String needed : analyzer.requires()) {
        if (!byName.containsKey(needed)) {
          throw new IllegalArgumentException("analyzer '" + analyzer.name() + "' requires '" + needed
              + "', which is not registered");
        }
      }
    }
    List<Analyzer> order = new ArrayList<>();
    Map<String, Boolean> state = new LinkedHashMap<>(); // false: being visited, true: placed
    for (String name : new TreeSet<>(first)) {
      if (byName.containsKey(name)) {
        visit(name, byName, state, order, new ArrayList<>());
      }
    }
    for (String name : byName.keySet()) {
      visit(name, byName, state, order, new ArrayList<>());
    }
    return List.copyOf(order);
  }

  private static void visit(String name, Map<String, Analyzer> byName, Map<String, Boolean> state,
      List<Analyzer> order, List<String> path) {
    Boolean seen = state.get(name);
    if (Boolean.TRUE.equals(seen)) {
      return;
    }
    path.add(name);
    if (Boolean.FALSE.equals(seen)) {
      throw new IllegalArgumentException("analyzers require each other in a cycle: "
          + String.join(" -> ", path.subList(path.indexOf(name), path.size())));
    }
    state.put(name, false);
    for (String needed : new TreeSet<>(byName.get(name).requires())) {
      visit(needed, byName, state, order, path);
    }
    state.put(name, true);
    path.remove(path.size() - 1);
    order.add(byName.get(name));
  }
}
