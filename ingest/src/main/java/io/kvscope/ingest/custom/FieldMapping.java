package io.kvscope.ingest.custom;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.EngineRids;
import io.kvscope.ingest.json.MessageText;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A loaded, checked mapping file: where each canonical field sits in a line, and the time unit.
 * Applying it to one parsed line gives a record builder.
 */
record FieldMapping(Path source, Map<CanonicalField, JsonPointer> pointers, TimeUnitSetting timeUnit) {

  /** Mapping files are a few hundred bytes; anything much larger is the wrong file. */
  private static final long MAX_MAPPING_BYTES = 1 << 20;

  FieldMapping {
    pointers = Collections.unmodifiableMap(new EnumMap<>(pointers));
  }

  JsonPointer requestIdPointer() {
    return pointers.get(CanonicalField.REQUEST_ID);
  }

  /**
   * Reads and checks {@code file}.
   *
   * @throws InvalidMappingException naming the file and the problem
   */
  static FieldMapping load(Path file, ObjectMapper mapper) {
    JsonNode root;
    try {
      if (Files.size(file) > MAX_MAPPING_BYTES) {
        throw new InvalidMappingException(file, "larger than 1 MiB; a mapping file is a small JSON object");
      }
      root = mapper.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw new InvalidMappingException(file, "not valid JSON (line " + e.getLocation().getLineNr()
          + ", column " + e.getLocation().getColumnNr() + ")", e);
    } catch (IOException e) {
      throw new InvalidMappingException(file, "cannot be read (" + e + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw new InvalidMappingException(file, "must be a JSON object with a \"fields\" object");
    }
    for (Map.Entry<String, JsonNode> setting : root.properties()) {
      String key = setting.getKey();
      if (!key.equals("fields") && !key.equals("time_unit")) {
        throw new InvalidMappingException(file, "unknown setting \"" + key + "\"; expected \"fields\" and optionally \"time_unit\"");
      }
    }
    JsonNode fields = root.get("fields");
    if (fields == null || !fields.isObject()) {
      throw new InvalidMappingException(file, "needs a \"fields\" object mapping canonical field names to JSON pointers");
    }
    Map<CanonicalField, JsonPointer> pointers = new EnumMap<>(CanonicalField.class);
    for (Map.Entry<String, JsonNode> entry : fields.properties()) {
      CanonicalField field = CanonicalField.byColumn(entry.getKey()).orElseThrow(() -> new InvalidMappingException(file,
          "unknown canonical field \"" + entry.getKey() + "\"; known fields: " + mappableNames()));
      if (field.isProvenance()) {
        throw new InvalidMappingException(file, "\"" + field.column() + "\" is set by kvscope and cannot be mapped");
      }
      JsonNode pointer = entry.getValue();
      if (!pointer.isTextual()) {
        throw new InvalidMappingException(file, "the pointer for \"" + field.column() + "\" must be a string like \"/req/id\"");
      }
      pointers.put(field, compile(file, field, pointer.textValue()));
    }
    if (!pointers.containsKey(CanonicalField.REQUEST_ID)) {
      throw new InvalidMappingException(file, "must map \"request_id\" (every record needs one)");
    }
    TimeUnitSetting unit = TimeUnitSetting.AUTO;
    JsonNode timeUnit = root.get("time_unit");
    if (timeUnit != null && !timeUnit.isNull()) {
      unit = TimeUnitSetting.of(timeUnit.asText()).orElseThrow(() -> new InvalidMappingException(file,
          "time_unit \"" + timeUnit.asText() + "\" is not one of "
              + Arrays.stream(TimeUnitSetting.values()).map(TimeUnitSetting::setting).collect(Collectors.joining(", "))));
    }
    return new FieldMapping(file, pointers, unit);
  }

  private static JsonPointer compile(Path file, CanonicalField field, String text) {
    if (text.isEmpty()) {
      throw new InvalidMappingException(file, "the pointer for \"" + field.column()
          + "\" is empty (that is the whole line); point at a field, like \"/id\"");
    }
    try {
      return JsonPointer.compile(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidMappingException(file, "the pointer for \"" + field.column() + "\" (\"" + text
          + "\") is not a JSON Pointer: it must start with '/' and escape '~' as ~0 and '/' as ~1");
    }
  }

  private static String mappableNames() {
    return Arrays.stream(CanonicalField.values()).filter(f -> !f.isProvenance()).map(CanonicalField::column)
        .collect(Collectors.joining(", "));
  }

  /**
   * The record fields found in {@code line}; absent pointers leave the field null.
   *
   * @throws IllegalArgumentException when a value has the wrong type (names the field, not the value)
   */
  RequestRecord.Builder apply(JsonNode line) {
    RequestRecord.Builder builder = new RequestRecord.Builder().origin(RecordOrigin.GATEWAY);
    for (Map.Entry<CanonicalField, JsonPointer> entry : pointers.entrySet()) {
      CanonicalField field = entry.getKey();
      JsonNode value = line.at(entry.getValue());
      if (value.isMissingNode() || value.isNull()) {
        continue;
      }
      field.set(builder, convert(field, value));
    }
    return builder;
  }

  private Object convert(CanonicalField field, JsonNode value) {
    String where = field.column() + " (" + pointers.get(field) + ")";
    return switch (field.type()) {
      case STRING -> {
        if (!value.isValueNode()) {
          throw new IllegalArgumentException(where + " is not a string or number");
        }
        String text = value.asText();
        yield field == CanonicalField.ENGINE_RID ? EngineRids.fromResponseId(text) : text;
      }
      case TEXT -> value.isValueNode() ? value.asText() : MessageText.of(value);
      case LONG -> whole(value, where);
      case INT -> {
        long v = whole(value, where);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(where + " is out of range");
        }
        yield (int) v;
      }
      case TIME -> timeUnit.toMillis(value, where);
    };
  }

  private static long whole(JsonNode value, String where) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber() && value.doubleValue() == Math.rint(value.doubleValue())) {
      return (long) value.doubleValue();
    }
    if (value.isTextual()) {
      try {
        return Long.parseLong(value.textValue().strip());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(where + " is not a whole number");
  }
}
