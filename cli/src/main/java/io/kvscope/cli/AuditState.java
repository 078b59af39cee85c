package io.kvscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.index.store.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What incremental audits remember between runs, kept in the index folder: the last request they
 * saw, the ids of the failing findings and windows they already reported, and the ids of the
 * warnings they listed (not listed again).
 */
record AuditState(Instant watermark, Set<String> reported, Set<String> warned) {

  static final String FILE = "audit-state.json";
  static final AuditState NONE = new AuditState(null, Set.of(), Set.of());

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The stored form: plain strings, so the file reads well and needs no date module. */
  private record Stored(String watermark, List<String> reported, List<String> warned) {}

  AuditState {
    reported = Set.copyOf(reported);
    warned = Set.copyOf(warned);
  }

  static AuditState load(Path indexDir) throws IOException {
    Path file = indexDir.resolve(FILE);
    if (!Files.exists(file)) {
      return NONE;
    }
    try {
      Stored stored = JSON.readValue(file.toFile(), Stored.class);
      return new AuditState(stored.watermark() == null ? null : Instant.parse(stored.watermark()),
          stored.reported() == null ? Set.of() : Set.copyOf(stored.reported()),
          stored.warned() == null ? Set.of() : Set.copyOf(stored.warned()));
    } catch (IOException | RuntimeException unreadable) {
      throw new IOException("cannot read the audit state " + file + " (" + unreadable.getMessage()
          + "); move it away to start incremental audits afresh", unreadable);
    }
  }

  void save(Path indexDir) throws IOException {
    Stored stored = new Stored(watermark == null ? null : watermark.toString(), List.copyOf(new TreeSet<>(reported)),
        List.copyOf(new TreeSet<>(warned)));
    OwnerOnly.writeAtomically(indexDir.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(stored));
  }
}
