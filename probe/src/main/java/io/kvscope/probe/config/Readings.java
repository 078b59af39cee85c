package io.kvscope.probe.config;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Everything one node's endpoints showed, fact by fact, before the readings are combined. */
public final class Readings {

  private record Reading(Object value, Observation observation) {}

  private final Map<FactName, List<Reading>> byFact = new EnumMap<>(FactName.class);

  /** Records one reading; a null value is ignored (the endpoint did not show the fact). */
  public void add(FactName fact, Object value, Observation observation) {
    if (value != null) {
      byFact.computeIfAbsent(fact, f -> new ArrayList<>()).add(new Reading(value, observation));
    }
  }

  public boolean has(FactName fact) {
    return byFact.containsKey(fact);
  }

  /** The combined fact with every reading behind it. */
  @SuppressWarnings("unchecked")
  public <T> Fact<T> fact(FactName fact) {
    List<Reading> readings = byFact.getOrDefault(fact, List.of());
    List<Object> values = readings.stream().map(Reading::value).toList();
    return new Fact<>((T) fact.combine(values), readings.stream().map(Reading::observation).toList());
  }
}
