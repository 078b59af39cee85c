package io.kvscope.ingest.deployment;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kvscope.ingest.json.JsonSupport;
import java.io.IOException;
import java.io.InputStream;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads JSON or YAML files of objects (one JSON document, or YAML documents separated by
 * {@code ---}) one object at a time, each with the line it starts on. A list object's
 * {@code items} are handed out one by one with their own lines, so a large {@code kubectl get -o}
 * dump is never held whole and every record cites the line of its item.
 */
final class StructuredDocuments {

  /** One object and the 1-based line it starts on. */
  interface ObjectConsumer {
    void accept(JsonNode object, long line);
  }

  /** YAML is read with SnakeYAML's limits raised to what a cluster dump needs, aliases still bounded. */
  private static final int MAX_YAML_CODE_POINTS = 256 * 1024 * 1024;

  private final ObjectMapper json = new ObjectMapper(JsonSupport.newFactory());
  private final ObjectMapper yaml;

  StructuredDocuments() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(MAX_YAML_CODE_POINTS);
    JsonFactory factory = YAMLFactory.builder().loaderOptions(options)
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();
    yaml = new ObjectMapper(factory);
  }

  /**
   * Streams every object of {@code in}. Returns normally at the end; a syntax error is thrown as
   * {@link Malformed} with the line it was found on (the objects before it were handed out).
   */
  void read(InputStream in, boolean isYaml, ObjectConsumer consumer) throws IOException {
    ObjectMapper mapper = isYaml ? yaml : json;
    try (JsonParser parser = mapper.getFactory().createParser(in)) {
      parser.setCodec(mapper);
      JsonToken token;
      while ((token = next(parser)) != null) {
        if (token != JsonToken.START_OBJECT) {
          parser.skipChildren(); // a scalar or list document: nothing kvscope reads
          continue;
        }
        long line = parser.currentTokenLocation().getLineNr();
        ObjectNode root = mapper.createObjectNode();
        boolean listed = false;
        while ((token = next(parser)) == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = next(parser);
          if (field.equals("items") && value == JsonToken.START_ARRAY) {
            listed = true;
            while (next(parser) == JsonToken.START_OBJECT) {
              long itemLine = parser.currentTokenLocation().getLineNr();
              JsonNode item = tree(parser);
              consumer.accept(item, itemLine);
            }
          } else {
            root.set(field, tree(parser));
          }
        }
        if (!listed) {
          consumer.accept(root, line);
        }
      }
    }
  }

  private static JsonToken next(JsonParser parser) throws IOException {
    try {
      return parser.nextToken();
    } catch (JsonProcessingException e) {
      throw new Malformed(line(parser, e), JsonSupport.reason(e));
    }
  }

  private static JsonNode tree(JsonParser parser) throws IOException {
    try {
      return parser.readValueAsTree();
    } catch (JsonProcessingException e) {
      throw new Malformed(line(parser, e), JsonSupport.reason(e));
    }
  }

  private static long line(JsonParser parser, JsonProcessingException e) {
    if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
      return e.getLocation().getLineNr();
    }
    return Math.max(1, parser.currentLocation().getLineNr());
  }

  /** The file stops being readable at {@code line}; {@code reason} never quotes its content. */
  static final class Malformed extends IOException {
    private final long line;

    Malformed(long line, String reason) {
      super(reason);
      this.line = line;
    }

    long line() {
      return line;
    }
  }
}
