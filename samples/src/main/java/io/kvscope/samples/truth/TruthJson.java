package io.kvscope.samples.truth;

import static io.kvscope.ingest.KvscopeOutputs.TRUTH_VERSION_FIELD;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdScalarSerializer;
import io.kvscope.ingest.json.IsoInstantDeserializer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Maps {@link GroundTruth} to and from {@code truth.json}: the records' components in snake_case,
 * in declaration order (samples/README.md is the schema), times in UTC with milliseconds.
 */
final class TruthJson {

  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .addMixIn(GroundTruth.class, TruthMixIn.class)
      .addMixIn(GeneratorInfo.class, GeneratorMixIn.class)
      .addModule(new SimpleModule().addSerializer(Instant.class, new MillisSerializer())
          .addDeserializer(Instant.class, new IsoInstantDeserializer()))
      .withConfigOverride(List.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private TruthJson() {}

  // ---- writing ----

  static void write(GroundTruth t, Path file) throws IOException {
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    Files.deleteIfExists(file);
    if (posix) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      write(t, out);
    }
  }

  static void write(GroundTruth t, OutputStream out) throws IOException {
    try (JsonGenerator g = MAPPER.createGenerator(out)) {
      g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
      MAPPER.writeTree(g, nestPeriod(MAPPER.valueToTree(t)));
      g.writeRaw('\n');
    }
  }

  /** The record holds the period's bounds flat; truth.json nests them, after the version and generator. */
  private static ObjectNode nestPeriod(ObjectNode flat) {
    ObjectNode root = MAPPER.createObjectNode();
    root.set(TRUTH_VERSION_FIELD, flat.remove(TRUTH_VERSION_FIELD));
    root.set("generator", flat.remove("generator"));
    ObjectNode period = root.putObject("period");
    period.set("start", flat.remove("period_start"));
    period.set("end", flat.remove("period_end"));
    return root.setAll(flat);
  }

  // ---- reading ----

  static GroundTruth read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    }
  }

  static GroundTruth read(InputStream in) throws IOException {
    JsonNode root = MAPPER.readTree(in);
    int version = root.path(TRUTH_VERSION_FIELD).asInt();
    if (version != GroundTruth.VERSION) {
      throw new IOException("unsupported " + TRUTH_VERSION_FIELD + " " + version + " (expected " + GroundTruth.VERSION + ")");
    }
    return MAPPER.treeToValue(flatten((ObjectNode) root), GroundTruth.class);
  }

  /** The reverse of {@link #nestPeriod}; a section a hand-made file lacks reads as zeros and nulls, a list as []. */
  private static ObjectNode flatten(ObjectNode root) {
    root.set("period_start", root.path("period").get("start"));
    root.set("period_end", root.path("period").get("end"));
    for (String section : List.of("generator", "summary")) {
      if (!root.path(section).isObject()) {
        root.putObject(section);
      }
    }
    return root;
  }

  private abstract static class TruthMixIn {
    @JsonProperty(TRUTH_VERSION_FIELD)
    abstract int version();
  }

  private abstract static class GeneratorMixIn {
    @JsonSerialize(using = ThreeDecimals.class)
    abstract double charsPerToken();
  }

  /** Always three digits of milliseconds, unlike {@link Instant#toString()}. */
  private static final class MillisSerializer extends StdScalarSerializer<Instant> {
    MillisSerializer() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator g, SerializerProvider provider) throws IOException {
      g.writeString(ISO.format(value));
    }
  }

  /** A ratio rounded for reading: 5.629, not 5.62913385826771. */
  private static final class ThreeDecimals extends StdScalarSerializer<Double> {
    ThreeDecimals() {
      super(Double.class);
    }

    @Override
    public void serialize(Double value, JsonGenerator g, SerializerProvider provider) throws IOException {
      g.writeNumber(Math.round(value * 1000) / 1000.0);
    }
  }
}
