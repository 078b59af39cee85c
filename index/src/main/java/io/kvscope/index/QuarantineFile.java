package io.kvscope.index;

import io.kvscope.index.store.OwnerOnly;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * One ingest run's bad records, {@code quarantine/bad-records-<started>.jsonl} inside the index: one
 * JSON object per bad input with its file, line, reason and, when there is one, the raw line. It
 * holds raw lines, prompts among them, so it is created owner-only from the first byte, and only
 * when the first bad input comes. The Spark job's driver writes the cluster's bad lines into the index
 * it builds with this too, so both paths leave the same file.
 */
public final class QuarantineFile implements AutoCloseable {

  private final Path index;
  private final long startedAt;
  private Path file;
  private OutputStream out;
  private JsonGenerator json;

  /** The file of a run into {@code index} that started at {@code startedAt} (UTC ms), named by that time. */
  public QuarantineFile(Path index, long startedAt) {
    this.index = index;
    this.startedAt = startedAt;
  }

  /** Where the bad records went; null while there were none. */
  public Path file() {
    return file;
  }

  /** Adds {@code bad}, with its {@code raw} line when there is one (null otherwise). */
  public void write(BadInput bad, String raw) {
    try {
      JsonGenerator g = open();
      g.writeStartObject();
      g.writeStringField("file", bad.file());
      g.writeNumberField("line", bad.line());
      g.writeStringField("reason", bad.reason());
      if (raw != null) {
        g.writeStringField("raw", raw);
      }
      g.writeEndObject();
      g.writeRaw('\n');
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot write the quarantine file " + file, e);
    }
  }

  private JsonGenerator open() throws IOException {
    if (json == null) {
      Path dir = OwnerOnly.directory(index.resolve("quarantine"));
      file = dir.resolve("bad-records-" + startedAt + ".jsonl");
      out = java.nio.channels.Channels.newOutputStream(Files.newByteChannel(file,
          Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
          OwnerOnly.fileAttributes()));
      OwnerOnly.file(file);
      json = PrintableJson.configure(new JsonFactory().createGenerator(out));
    }
    return json;
  }

  @Override
  public void close() throws IOException {
    if (json != null) {
      json.close();
      out.close();
    }
  }
}
