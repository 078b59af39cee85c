package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.kvscope.ingest.LineReader;

/** Jackson set up for log lines that may hold secrets and multi-megabyte prompts. */
public final class JsonSupport {

  private JsonSupport() {}

  /**
   * A factory whose errors never carry the source text (it may be a prompt), whose string limit
   * matches the longest line {@link LineReader} hands out, and which refuses an object that names
   * one key twice: which of two values a reader takes is an accident of its code, and a record
   * whose {@code startTime} or {@code id} says two things is not evidence of either. Thread-safe;
   * one per ingestor.
   */
  public static JsonFactory newFactory() {
    return JsonFactory.builder()
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
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
    String duplicate = duplicateKey(e);
    if (duplicate != null) {
      return "the key " + duplicate + " appears twice in one object" + column(e)
          + "; the record says two things and is kept out of the index";
    }
    if (e instanceof InputCoercionException) {
      return "a number is out of range for its field" + column(e);
    }
    if (e instanceof StreamConstraintsException) {
      return "JSON exceeds a parser limit (nesting depth, number or string length)";
    }
    return "not valid JSON" + column(e);
  }

  /** Jackson's duplicate-key message names the key; a short printable name is shown, quoted. */
  private static String duplicateKey(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null || !message.startsWith("Duplicate field '")) {
      return null;
    }
    String key = message.substring("Duplicate field '".length(), Math.max(message.lastIndexOf('\''), "Duplicate field '".length()));
    return key.length() <= 40 && key.matches("[A-Za-z0-9_.:-]+") ? "\"" + key + "\"" : "(a " + key.length() + "-character name)";
  }

  private static String column(JsonProcessingException e) {
    JsonLocation where = e.getLocation();
    return where != null && where.getColumnNr() > 0 ? " (error at column " + where.getColumnNr() + ")" : "";
  }
}
