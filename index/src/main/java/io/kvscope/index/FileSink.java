package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.join.EngineFactsAtWrite;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.Plausibility;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.Optional;

/**
 * Receives one file's records and hands them to the run's writers, checkpointing the file in the
 * same commit as its records as it goes. An implausible record is a bad input of its line.
 */
final class FileSink implements RecordSink {

  /** Documents buffered between commits; bounds the work a crash can lose. */
  static final int COMMIT_EVERY_DOCS = 50_000;

  /** What identifies the file a checkpoint is for, as it was when its reading began. */
  record FileState(long size, long modified, String headHash) {}

  private final IndexStore store;
  private final IngestProgress progress;
  private final IngestTally run;
  private InputFile input;
  private final String format;
  private final FileState state;
  private long records;
  /** What earlier runs read of a file this one resumes: the checkpoint counts the whole file. */
  private final long recordsBefore;
  private final long badBefore;
  private long lastLine;

  FileSink(IndexStore store, IngestProgress progress, IngestTally run, InputFile input, String format, FileState state,
      Checkpoint resumed) {
    this.store = store;
    this.progress = progress;
    this.run = run;
    this.input = input;
    this.format = format;
    this.state = state;
    this.recordsBefore = resumed == null ? 0 : resumed.records();
    this.badBefore = resumed == null ? 0 : resumed.bad();
    this.lastLine = input.resumeAfterLine();
  }

  /** The parse goes on from a new reading of the same file. */
  void readingFrom(InputFile next) {
    input = next;
  }

  /** Records accepted from this file in this run. */
  long records() {
    return records;
  }

  /** The last line a record or bad input came from. */
  long lastLine() {
    return lastLine;
  }

  @Override
  public void accept(Ingested item) {
    Optional<String> implausible = Plausibility.problem(item);
    if (implausible.isPresent()) {
      malformed(new BadInput(input.name(), item.sourceLine(), implausible.get()), null);
      return;
    }
    EngineFactsAtWrite facts = run.facts;
    run.writers.submit(Documents.routeOf(item), Documents.textChars(item),
        () -> facts == null ? Documents.of(item) : facts.document(item));
    records++;
    run.recordsByFormat.merge(format, 1L, Long::sum);
    run.itemsByType.merge(Documents.typeOf(item), 1L, Long::sum);
    if (item instanceof RequestRecord) {
      run.requestsRead++;
    }
    lastLine = Math.max(lastLine, item.sourceLine());
    if (++run.docsSinceCommit >= COMMIT_EVERY_DOCS) {
      checkpoint(false);
    }
    if ((records & 1023) == 0) {
      progress.advanced(run.bytesBefore + input.rawBytesRead());
    }
  }

  @Override
  public void malformed(BadInput bad, String raw) {
    lastLine = Math.max(lastLine, bad.line());
    run.bad(bad, raw);
  }

  /**
   * Records progress in the index. Mid-file, the line being read may still have records to
   * come, so the checkpoint stops one line short of it.
   */
  void checkpoint(boolean complete) {
    long done = complete ? lastLine : Math.max(0, lastLine - 1);
    run.writers.flush(); // the checkpoint may only commit records that are in the writer
    try {
      store.put(new Checkpoint(InputFiles.identity(input.path()), state.size(), state.modified(), state.headHash(),
          format, done, recordsBefore + records, complete, badBefore + run.badIn(input.name()), input.sha256())
          .toDocument());
      // A file read to its end goes into the next commit (every COMMIT_EVERY_DOCS documents, and
      // the run's end): each commit flushes new segments, which merges then write again, and a
      // commit for every file of a few thousand documents was a tenth of an ingest's CPU.
      if (!complete) {
        store.commit();
        run.docsSinceCommit = 0;
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot commit to the index at " + store.path(), e);
    }
  }
}
