package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.index.join.BootstrapHosts;
import io.kvscope.index.join.EngineFactsAtWrite;
import io.kvscope.index.join.LinkSummary;
import io.kvscope.index.join.Linker;
import io.kvscope.index.join.MergeSummary;
import io.kvscope.index.join.RequestMerger;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.store.DocumentWriters;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.Sniff;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.DirectoryReader;

/**
 * Reads files into the index: walks the inputs, detects each file's format, and streams its
 * records through a {@link FileSink} (which checkpoints the file in the same commit as its records)
 * into the {@link IndexStore}, keeping the run's counts and bad inputs in an {@link IngestTally}.
 * Then it merges the records of each request ({@link RequestMerger}) and joins engine facts onto
 * requests ({@link Linker}).
 *
 * <p>Exactness after a crash does not depend on the checkpoints: every document has a stable id,
 * so re-reading anything replaces what is there, and the merge depends only on the records held.
 * Checkpoints only save the re-reading.
 */
public final class IndexIngest {

  private static final int HEAD_HASH_BYTES = 64 * 1024;
  /** Lines of one file a parser may fail on before the file is given up (see {@link #parse}). */
  static final int MAX_LINE_FAILURES = 64;

  private final IndexStore store;
  private final Ingestors ingestors;
  private final IngestOptions options;
  private final IngestProgress progress;
  private final Clock clock;
  private final int writerThreads;

  /** Writes documents on {@link DocumentWriters#defaultWorkers()} threads. */
  public IndexIngest(IndexStore store, Ingestors ingestors, IngestOptions options, IngestProgress progress, Clock clock) {
    this(store, ingestors, options, progress, clock, DocumentWriters.defaultWorkers());
  }

  /**
   * @param writerThreads threads that build and write documents while the calling thread parses;
   *     0 does everything on the calling thread
   */
  public IndexIngest(IndexStore store, Ingestors ingestors, IngestOptions options, IngestProgress progress, Clock clock,
      int writerThreads) {
    if (writerThreads < 0) {
      throw new IllegalArgumentException("writerThreads must not be negative, was " + writerThreads);
    }
    this.store = store;
    this.ingestors = ingestors;
    this.options = options;
    this.progress = progress;
    this.clock = clock;
    this.writerThreads = writerThreads;
  }

  /** Ingests every regular file under {@code inputs} (files or folders, recursively), then links. */
  public IngestSummary run(List<Path> inputs) throws IOException {
    long started = clock.millis();
    QuarantineFile quarantine = new QuarantineFile(store.path(), clock.millis());
    IngestTally run = new IngestTally(progress, quarantine);
    List<Path> files = InputFiles.engineFactsFirst(InputFiles.list(inputs, store.path(), run), ingestors, options);
    long totalBytes = 0;
    for (Path file : files) {
      totalBytes += InputFiles.sizeOrZero(file);
    }
    progress.started(files.size(), totalBytes);
    Map<String, Checkpoint> checkpoints = readCheckpoints();
    try (DocumentWriters writers = new DocumentWriters(store, writerThreads, DocumentWriters.DEFAULT_MAX_CHARS_IN_FLIGHT)) {
      run.writers = writers;
      for (Path file : files) {
        run.bytesBefore += ingestFile(file, checkpoints.get(Checkpoint.idFor(InputFiles.identity(file))), run);
        progress.advanced(run.bytesBefore);
      }
      writers.flush();
      run.closeFacts();
      MergeSummary merge;
      LinkSummary link;
      // The caller closes the store next, which would abort any merge these commits start.
      try (java.io.Closeable paused = store.mergesPaused()) {
        userAliases();
        store.commit();
        merge = new RequestMerger(store, writers).run();
        store.commit();
        learnAliases();
        link = new Linker(store, writers, run.decodedEvents).run();
        store.commit();
      }

      return new IngestSummary(files.size(), run.filesIngested, run.filesUnchanged, run.unrecognized,
          run.recordsByFormat, run.itemsByType, run.badRecords, run.badSamples,
          run.requestsRead, merge, run.bytesIngested, clock.millis() - started, link,
          quarantine.file(), run.problems(), run.ownOutputs);
    } catch (IOException | java.io.UncheckedIOException indexFailed) {
      // Inputs that cannot be read are problems of their files; what ends up here is the index
      // (or its quarantine file) that cannot be written, typically a full disk.
      IOException cause = indexFailed instanceof java.io.UncheckedIOException u ? u.getCause() : (IOException) indexFailed;
      throw new IOException("cannot write to the index at " + store.path() + " (" + InputFiles.describe(cause)
          + "); free some space or choose another --index, then run again: files already checkpointed are not read again",
          cause);
    } finally {
      run.closeFacts();
      quarantine.close();
      progress.finished();
    }
  }

  /** The user's {@code --node-alias ALIAS=NODE} settings, kept in the index like any other alias. */
  private void userAliases() throws IOException {
    for (io.kvscope.ingest.record.NodeAlias alias : io.kvscope.ingest.UserAliases.records(options.nodeAliases())) {
      store.put(Documents.of(alias));
    }
  }

  /** Names of nodes the requests reveal ({@link BootstrapHosts}), before the link uses them. */
  private void learnAliases() throws IOException {
    List<io.kvscope.ingest.record.NodeAlias> learned;
    try (DirectoryReader reader = store.openReader()) {
      learned = BootstrapHosts.learn(reader);
    }
    for (io.kvscope.ingest.record.NodeAlias alias : learned) {
      store.put(Documents.of(alias));
    }
    store.commit();
  }


  /** Ingests one file; returns its size (for progress), 0 when it could not be read. */
  private long ingestFile(Path path, Checkpoint checkpoint, IngestTally run) throws IOException {
    String name = path.toString();
    long size;
    long modified;
    String headHash;
    Optional<Ingestor> detected;
    try {
      if (!Files.isReadable(path)) {
        throw new java.nio.file.AccessDeniedException(name);
      }
      size = Files.size(path);
      modified = Files.getLastModifiedTime(path).toMillis();
      Sniff sniff = new InputFile(path, name, 0).sniff();
      Optional<String> own = KvscopeOutputs.recognise(sniff);
      if (own.isPresent()) {
        // Checked before the checkpoint: a file an older kvscope read as evidence is named again.
        run.ownOutput(name, own.get() + (checkpoint != null ? "; an earlier ingest read it as evidence, so ingest"
            + " the logs again into a new index" : ""));
        return size;
      }
      headHash = headHash(path);
      if (checkpoint != null && checkpoint.unchanged(size, modified, headHash)) {
        run.filesUnchanged++;
        return size;
      }
      detected = ingestors.detect(sniff, options);
    } catch (IOException unreadable) {
      // Unreadable, vanished (rotated away) or undecodable: a problem of this file, not of the run.
      run.bad(new BadInput(name, 0, "cannot read file (" + InputFiles.describe(unreadable) + ")"), null);
      return 0;
    }
    if (detected.isEmpty()) {
      run.unrecognized.add(name);
      run.skipped(name, size == 0 ? "empty file; nothing to read" : "no format recognized; skipped");
      return size;
    }
    Ingestor ingestor = detected.get();
    long resumeAfter = checkpoint != null && ingestor.resumableByLine()
        && checkpoint.sameFile(headHash, ingestor.name(), size) ? checkpoint.linesDone() : 0;
    if (ingestor.carriesRequests() && run.facts == null) {
      run.writers.flush(); // the engine files before this one, visible to the lookup
      run.facts = EngineFactsAtWrite.open(store, run.decodedEvents);
    }
    progress.file(name, ingestor.name());
    run.filesIngested++;
    run.bytesIngested += size;
    InputFile input = new InputFile(path, name, resumeAfter);
    FileSink sink = new FileSink(store, progress, run, input, ingestor.name(),
        new FileSink.FileState(size, modified, headHash), resumeAfter > 0 ? checkpoint : null);
    boolean complete = parse(ingestor, input, sink, run);
    run.recordsOf(name, sink.records());
    sink.checkpoint(complete);
    return size;
  }

  /**
   * Parses one file into {@code sink}; returns whether it was read to its end with nothing lost. A
   * parser that throws on a line of a line-by-line format costs that line only: it is reported and
   * the parse goes on after it (at most {@value #MAX_LINE_FAILURES} times a file, since each
   * restart skips the lines before). Anything else ends the file, reported with its line; such a
   * file, or one whose data ended early, is not checkpointed as complete, so the next run reads it
   * again instead of calling it unchanged.
   */
  private boolean parse(Ingestor ingestor, InputFile first, FileSink sink, IngestTally run) throws IOException {
    InputFile input = first;
    for (int failures = 0; ; failures++) {
      try {
        ingestor.parse(input, options, sink);
        run.writers.flush(); // a failure building this file's last documents belongs to this file
        return !input.endedEarly();
      } catch (java.io.UncheckedIOException indexWriteFailed) {
        // The index, not the input, failed (a full disk, say): stop with the cause.
        throw indexWriteFailed.getCause();
      } catch (IOException | RuntimeException failure) {
        long line = input.lineReached();
        boolean oneLine = failure instanceof RuntimeException && ingestor.resumableByLine()
            && line > input.resumeAfterLine() && failures < MAX_LINE_FAILURES;
        settle(run);
        if (!oneLine) {
          // An unreadable file or a parser bug must not end the run or lose the other files.
          run.bad(new BadInput(input.name(), line > 0 ? line : sink.lastLine() + 1, "reading stopped: " + what(failure)),
              null);
          return false;
        }
        run.bad(new BadInput(input.name(), line, "cannot be read (" + what(failure) + "); reading goes on after it"), null);
        input = new InputFile(input.path(), input.name(), line);
        sink.readingFrom(input);
      }
    }
  }

  /** A failure in words that never quote the input (a parser's message may hold prompt text). */
  private static String what(Exception failure) {
    return failure instanceof IOException io && !(failure instanceof com.fasterxml.jackson.core.JsonProcessingException)
        ? InputFiles.describe(io) : io.kvscope.ingest.FailureWords.of(failure);
  }

  /**
   * Waits for a file's documents after it stopped early: more of its documents failing on the
   * writer threads is the same stop, already reported; the index failing still ends the run.
   */
  private static void settle(IngestTally run) throws IOException {
    while (true) {
      try {
        run.writers.flush();
        return;
      } catch (java.io.UncheckedIOException indexWriteFailed) {
        throw indexWriteFailed.getCause();
      } catch (RuntimeException sameStop) {
        // reported with the file above
      }
    }
  }

  /** The {@link Checkpoint#headHash} of a file: a digest of its first bytes. */
  public static String headHash(Path path) throws IOException {
    try (InputStream in = Files.newInputStream(path)) {
      return Documents.digest(java.util.HexFormat.of().formatHex(in.readNBytes(HEAD_HASH_BYTES)));
    }
  }

  private Map<String, Checkpoint> readCheckpoints() throws IOException {
    Map<String, Checkpoint> result = new HashMap<>();
    try (DirectoryReader reader = store.openReader()) {
      TypedDocs.forEach(reader, Schema.TYPE_CHECKPOINT, doc -> result.put(doc.get(Schema.ID), Checkpoint.fromDocument(doc)));
    }
    return result;
  }
}
