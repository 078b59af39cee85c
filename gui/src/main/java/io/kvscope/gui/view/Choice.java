package io.kvscope.gui.view;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/** A combo-box entry: what it shows and the filter value it stands for (null for "any"). */
public record Choice<T>(String label, T value) {

  @Override
  public String toString() {
    return label;
  }

  /** "any" first, then one entry per value. */
  public static <T> List<Choice<T>> list(String any, Collection<T> values, Function<T, String> label) {
    List<Choice<T>> out = new ArrayList<>();
    out.add(new Choice<>(any, null));
    values.forEach(v -> out.add(new Choice<>(label.apply(v), v)));
    return out;
  }
}
