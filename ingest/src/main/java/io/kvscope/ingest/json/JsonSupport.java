package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.kvscope.ingest.LineReader;

/** Jackson set up for log lines that may hold secrets and multi-megabyte prompts. */
public final class JsonSupport {

  private JsonSupport() {}

  /**
   * A factory whose errors never carry the source text (it may be a prompt) and whose string
   * limit matches the longest line {@link LineReader} hands out. Thread-safe; one per ingestor.
   */
  public static JsonFactory newFactory() {
    return JsonFactory.builder()
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxStringLength(LineReader.MAX_LINE_CHARS)
            .build())
        .build();
  }

  /**
   * Why a line is not JSON, in words that describe the problem and not the content: Jackson's own
   * messages quote the offending token, which may be part of a prompt.
   */
  public static String reason(JsonProcessingException e) {
    if (e instanceof JsonEOFException) {
      return "JSON ends early (the line is cut short)";
    }
    if (e instanceof StreamConstraintsException) {
      return "JSON exceeds a parser limit (nesting depth, number or string length)";
    }
    JsonLocation where = e.getLocation();
    if (where != null && where.getColumnNr() > 0) {
      return "not valid JSON (error at column " + where.getColumnNr() + ")";
    }
    return "not valid JSON";
  }
}
