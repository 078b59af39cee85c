package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import java.io.IOException;

/**
 * The loop every JSON-lines reader shares: each non-blank line with its number, a blank one
 * counted as skipped, and a line that is not what the reader expects counted malformed with the
 * reason (a JSON syntax error, or the message of an {@link IllegalArgumentException}) before the
 * next is read. Only a failure to read the file itself stops the loop.
 */
public final class JsonLines {

  /** Reads one line; throws {@link IllegalArgumentException} with the reason when it is bad. */
  @FunctionalInterface
  public interface Reader {
    void read(String line, long number) throws IOException;
  }

  private JsonLines() {}

  public static void forEach(InputFile file, RecordSink sink, Reader reader) throws IOException {
    try (LineReader lines = file.lines(sink)) {
      String line;
      while ((line = lines.next()) != null) {
        if (line.isBlank()) {
          sink.skipped();
          continue;
        }
        long number = lines.lineNumber();
        try {
          reader.read(line, number);
        } catch (JsonProcessingException e) {
          sink.malformed(new BadInput(file.name(), number, JsonSupport.reason(e)), line);
        } catch (IllegalArgumentException e) {
          sink.malformed(new BadInput(file.name(), number, e.getMessage()), line);
        }
      }
    }
  }
}
