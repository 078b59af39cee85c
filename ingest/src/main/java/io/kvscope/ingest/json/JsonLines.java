package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineBatch;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

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
        read(file.name(), line, lines.lineNumber(), sink, reader);
      }
    }
  }

  /**
   * The same loop over lines already read: a {@link LineBatch} of a file parsed in pieces. A
   * reader's {@link IOException} other than a JSON error (which ends a file's parse) ends the
   * batch's, as an {@link UncheckedIOException}.
   */
  public static void forEach(LineBatch batch, RecordSink sink, Reader reader) {
    List<String> lines = batch.lines();
    try {
      for (int i = 0; i < lines.size(); i++) {
        read(batch.fileName(), lines.get(i), batch.lineNumber(i), sink, reader);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void read(String fileName, String line, long number, RecordSink sink, Reader reader)
      throws IOException {
    if (line.isBlank()) {
      sink.skipped();
      return;
    }
    try {
      reader.read(line, number);
    } catch (JsonProcessingException e) {
      sink.malformed(new BadInput(fileName, number, JsonSupport.reason(e)), line);
    } catch (IllegalArgumentException e) {
      sink.malformed(new BadInput(fileName, number, e.getMessage()), line);
    }
  }
}
