package io.kvscope.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Records written by hand from the upstream sources (see {@code docs/formats.md} for the file and
 * function behind each field), kept readable under {@code fixtures/}: LiteLLM payloads as
 * {@code json.dumps(indent=4)} prints them, OTLP export lines pretty-printed. A test compacts a
 * fixture to the one line the JSONL writers produce.
 */
public final class Fixtures {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Fixtures() {}

  /** The fixture's text as it is. */
  public static String text(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("fixtures/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A pretty-printed JSON fixture. */
  public static JsonNode tree(String name) {
    try {
      return JSON.readTree(text(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JSON fixture on one line, as a JSON-lines writer puts it. */
  public static String line(String name) {
    return tree(name).toString();
  }
}
