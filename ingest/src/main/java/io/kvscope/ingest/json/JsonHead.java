package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvscope.ingest.Sniff;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Looks at the first lines of a sniffed head for detection. The head is cut at
 * {@link Sniff#HEAD_BYTES}, so the last line (or the only one, when a prompt is megabytes long)
 * may end mid-value: everything here reads as far as the text goes and keeps what it saw.
 */
public final class JsonHead {

  private JsonHead() {}

  /** Up to {@code max} non-blank lines from the start of the head, without BOM or {@code \r}. */
  public static List<String> lines(Sniff sniff, int max) {
    String text = sniff.text();
    List<String> lines = new ArrayList<>(max);
    int start = 0;
    while (start < text.length() && lines.size() < max) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      String line = text.substring(start, end).strip();
      if (line.startsWith("\uFEFF")) {
        line = line.substring(1).strip();
      }
      if (!line.isEmpty()) {
        lines.add(line);
      }
      start = end + 1;
    }
    return lines;
  }

  /**
   * The names of the top-level fields of the JSON object on {@code line}, in order, as far as the
   * line can be read. Empty when the line does not start a JSON object.
   */
  public static Set<String> topLevelKeys(JsonFactory json, String line) {
    Set<String> keys = new LinkedHashSet<>();
    try (JsonParser parser = json.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return keys;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        keys.add(parser.currentName());
        parser.nextToken();
        parser.skipChildren();
      }
    } catch (IOException cutOrInvalid) {
      // keep the keys read before the cut (or before invalid JSON: detection weighs them)
    }
    return keys;
  }
}
