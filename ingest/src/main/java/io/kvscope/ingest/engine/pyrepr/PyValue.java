package io.kvscope.ingest.engine.pyrepr;

import java.util.List;
import java.util.Map;

/** One value read from Python {@code repr()} text. */
public sealed interface PyValue {

  /** A quoted string; {@code text} is {@code null} when it was longer than the reader keeps. */
  record Str(String text, int length) implements PyValue {}

  /** An int or float literal, kept as written ({@code 12}, {@code 0.25}, {@code 1e-05}). */
  record Num(String literal) implements PyValue {}

  record Bool(boolean value) implements PyValue {}

  /** A list, tuple or set; {@code truncated} when the logger elided its middle. */
  record Seq(List<PyValue> items, boolean truncated) implements PyValue {}

  /** A dict with its keys as text ({@code 'a'} and {@code a} both become {@code a}). */
  record Dict(Map<String, PyValue> entries) implements PyValue {}

  /** A dataclass or object repr: {@code Name(positional, key=value, ...)}. */
  record Call(String name, List<PyValue> args, Map<String, PyValue> keywords) implements PyValue {}

  /** A bare word or any other unquoted text ({@code prefill}, {@code torch.float16}, {@code <obj>}). */
  record Raw(String text) implements PyValue {}

  /** Python's {@code None}. */
  enum NoneValue implements PyValue { NONE }

  /** A value the caller did not ask for: it was scanned, not read. */
  enum Skipped implements PyValue { SKIPPED }

  /** The entry {@code key} of a dict or the keyword {@code key} of a call, else {@code null}. */
  default PyValue get(String key) {
    if (this instanceof Dict d) {
      return d.entries().get(key);
    }
    if (this instanceof Call c) {
      return c.keywords().get(key);
    }
    return null;
  }

  /** The text of a string, bare word or number; {@code null} for anything else or an elided string. */
  default String text() {
    return switch (this) {
      case Str s -> s.text();
      case Raw r -> r.text();
      case Num n -> n.literal();
      case Bool b -> b.value() ? "True" : "False";
      default -> null;
    };
  }

  /** The value as a whole number when it is one ({@code 12}, {@code 12.0}, {@code '12'}). */
  default Long asLong() {
    String t = this instanceof Num || this instanceof Str || this instanceof Raw ? text() : null;
    if (t == null || t.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(t.strip());
    } catch (NumberFormatException notAnInt) {
      Double d = asDouble();
      if (d != null && !d.isInfinite() && !d.isNaN() && d == Math.rint(d)
          && Math.abs(d) < 9.0e15) {
        return d.longValue();
      }
      return null;
    }
  }

  /** The value as a number when it is one. */
  default Double asDouble() {
    String t = this instanceof Num || this instanceof Str || this instanceof Raw ? text() : null;
    if (t == null || t.isBlank()) {
      return null;
    }
    try {
      return Double.parseDouble(t.strip());
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }

  /** {@code True}/{@code False} (also as text); {@code null} for {@code None} and anything else. */
  default Boolean asBoolean() {
    if (this instanceof Bool b) {
      return b.value();
    }
    String t = this instanceof Str || this instanceof Raw ? text() : null;
    if (t == null) {
      return null;
    }
    return switch (t.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> null;
    };
  }

  default boolean isNone() {
    return this == NoneValue.NONE;
  }
}
