package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The free-form values of a report (finding evidence, run parameters) to and from JSON.
 *
 * <p>Written: strings, booleans, numbers, null, maps and lists of them; an {@link Instant} as its
 * ISO-8601 string, an enum as its lower-case name; non-finite doubles as null (JSON has none).
 * Read back: integers as {@link Long} (or {@link BigInteger} when too big), decimals as
 * {@link Double}, objects as insertion-ordered maps. So a value built from those types round-trips
 * exactly; an {@code Integer} comes back as a {@code Long}.
 */
final class JsonValues {

  private static final JsonFactory COMPACT = JsonFactory.builder().build();

  private JsonValues() {}

  static void write(JsonGenerator g, Object value) throws IOException {
    switch (value) {
      case null -> g.writeNull();
      case CharSequence s -> g.writeString(s.toString());
      case Boolean b -> g.writeBoolean(b);
      case Long l -> g.writeNumber(l);
      case Integer i -> g.writeNumber(i.longValue());
      case Short s -> g.writeNumber(s.longValue());
      case Byte b -> g.writeNumber(b.longValue());
      case BigInteger bi -> g.writeNumber(bi);
      case BigDecimal bd -> g.writeNumber(bd);
      case Double d -> writeDouble(g, d);
      case Float f -> writeDouble(g, f.doubleValue());
      case Instant t -> g.writeString(t.toString());
      case Enum<?> e -> g.writeString(e.name().toLowerCase(Locale.ROOT));
      case Map<?, ?> map -> {
        g.writeStartObject();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          g.writeFieldName(String.valueOf(entry.getKey()));
          write(g, entry.getValue());
        }
        g.writeEndObject();
      }
      case Iterable<?> items -> {
        g.writeStartArray();
        for (Object item : items) {
          write(g, item);
        }
        g.writeEndArray();
      }
      case Object[] items -> write(g, List.of(items));
      case long[] items -> {
        g.writeStartArray();
        for (long item : items) {
          g.writeNumber(item);
        }
        g.writeEndArray();
      }
      case int[] items -> {
        g.writeStartArray();
        for (int item : items) {
          g.writeNumber((long) item);
        }
        g.writeEndArray();
      }
      case double[] items -> {
        g.writeStartArray();
        for (double item : items) {
          writeDouble(g, item);
        }
        g.writeEndArray();
      }
      default -> throw new IllegalArgumentException(
          "a " + value.getClass().getName() + " is not a JSON value; evidence and parameters take strings, numbers, booleans, lists and maps");
    }
  }

  /** A map with its keys sorted, so the same values always print the same. */
  static void writeSorted(JsonGenerator g, Map<String, ?> map) throws IOException {
    write(g, new TreeMap<>(map));
  }

  private static void writeDouble(JsonGenerator g, double d) throws IOException {
    if (Double.isFinite(d)) {
      g.writeNumber(d);
    } else {
      g.writeNull();
    }
  }

  /** The value as one line of JSON (CSV and Arrow cells). */
  static String compact(Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = PrintableJson.configure(COMPACT.createGenerator(out))) {
      write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** The Java value of a JSON node, as described above. */
  static Object read(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isArray()) {
      List<Object> items = new ArrayList<>(node.size());
      node.forEach(item -> items.add(read(item)));
      return items;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    node.properties().forEach(entry -> map.put(entry.getKey(), read(entry.getValue())));
    return map;
  }

  /** An object node as a map, keeping the key order of the file. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> readObject(JsonNode node) {
    Object value = read(node);
    return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }
}
