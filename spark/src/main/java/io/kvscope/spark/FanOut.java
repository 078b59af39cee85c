package io.kvscope.spark;

import io.kvscope.index.Checkpoint;
import io.kvscope.index.IndexIngest;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.Compression;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineBatch;
import io.kvscope.ingest.LineParser;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.Ingested;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Huge files of a line-by-line format, fanned out: one task reads such a file and cuts its lines
 * into batches, which are dealt round-robin to as many parsing tasks as the input's shuffles take
 * ({@link ShufflePartitions#of}), each running the format's {@link LineParser}. A batch carries its
 * file's name and the number of its first line, so every record and bad line cites the line it
 * came from, wherever it is parsed; the batches together give the records and bad lines of the whole
 * file ({@link LineParser}'s contract). What the reading task itself finds (damaged data, a line
 * too long) is quarantined with its line, as {@link LineReader} reports it on one machine.
 *
 * <p>Only a compressed file's batches carry their lines through the shuffle ({@link Batch}): its
 * bytes can be read only from its start. A plain file's batch is where its lines lie ({@link Span}),
 * and the parsing task reads them from the file itself: at 4 GB the lines shuffled were a gigabyte
 * of compressed, Java-serialized text, each written, read and deserialized once more.
 *
 * <p>The file's checkpoint is put together on the driver from one part per batch (records, bad lines,
 * last line) and the reading task's part (size, time, head hash, SHA-256, whether the data ended
 * early), so it says what the single-machine ingest's checkpoint of the file says.
 */
final class FanOut {

  /** Files this large on disk, of a format with a line parser, are fanned out. */
  static final long FILE_BYTES = 32L << 20;
  /**
   * A batch closes once its lines hold this many chars (a {@link Span}'s: bytes): small against a
   * task, large against a row's overhead.
   */
  static final int BATCH_CHARS = 1 << 20;

  private FanOut() {}

  /** What the reading task hands on, dealt round-robin to the parsing tasks. */
  sealed interface Piece extends Serializable {}

  /** Consecutive lines of one file for its format's line parser, the first numbered {@code firstLine}. */
  sealed interface Lines extends Piece {
    String format();

    String name();

    long firstLine();

    /** How many lines: to say what is lost when they cannot be read. */
    int count();

    List<String> lines(HadoopFiles.Settings hadoop) throws IOException;
  }

  /** Lines carried whole: a compressed file's. */
  record Batch(String format, String name, long firstLine, ArrayList<String> lines) implements Lines {
    @Override
    public int count() {
      return lines.size();
    }

    @Override
    public List<String> lines(HadoopFiles.Settings hadoop) {
      return lines;
    }
  }

  /**
   * Lines where they lie in a plain file: {@code count} lines in bytes {@code from} to {@code to}
   * of {@code uri}, read and decoded by the parsing task as {@link LineReader} decodes them, if
   * those bytes still hold the lines the reading task passed ({@code digest}). A log that grew
   * since is read as it was; one rewritten or cut short under the span is not read.
   */
  record Span(String format, String name, long firstLine, int count, String uri, long from, long to, long digest)
      implements Lines {
    @Override
    public List<String> lines(HadoopFiles.Settings hadoop) throws IOException {
      byte[] bytes = HadoopFiles.range(uri, hadoop, from, Math.toIntExact(to - from));
      List<String> lines = new ArrayList<>(count);
      long found = 0;
      for (int at = 0; at < bytes.length; ) {
        int newline = LineReader.indexOfNewline(bytes, at, bytes.length);
        int end = newline < 0 ? bytes.length : newline;
        found = digest(found, LineReader.checksum(bytes, at, end));
        lines.add(LineReader.decode(bytes, at, end, firstLine + lines.size()));
        at = end + 1;
      }
      if (lines.size() != count || found != digest) {
        throw new IOException("changed since it was read: bytes " + from + "-" + to
            + " no longer hold the lines read there");
      }
      return lines;
    }

    /** {@code digest} with one more line's {@link LineReader#lineChecksum()} folded in. */
    static long digest(long digest, int lineChecksum) {
      return digest * 0x100000001B3L + Integer.toUnsignedLong(lineChecksum);
    }
  }

  /** A line the reading task could not hand on (damaged data, too long), as it is quarantined. */
  record Bad(String name, long line, String reason, String raw) implements Piece {}

  /** The file as read: what its checkpoint says beside the counts. */
  record End(String name, String format, long size, long modified, String headHash, String sha256, boolean complete)
      implements Piece {}

  /** Whether {@code file} is read by a fan-out: large enough, and its format parses lines apart. */
  static boolean fansOut(PlannedFile file, IngestOptions options, long fileBytes) {
    return file.format() != null && file.size() >= fileBytes && Ingestors.discover().byName(file.format())
        .flatMap(ingestor -> ingestor.lineParser(options)).isPresent();
  }

  /**
   * The one-pass rows of {@code files}, each extended by its part of a checkpoint ({@link
   * IngestStage#PART}); {@code parsers} tasks parse the batches.
   */
  static JavaRDD<Row> rows(JavaSparkContext context, List<PlannedFile> files, IngestSettings settings,
      HadoopFiles.Settings hadoop, int parsers) {
    return rows(context, files, settings, hadoop, parsers, BATCH_CHARS);
  }

  /** @param batchChars a batch closes once its lines hold this many chars */
  static JavaRDD<Row> rows(JavaSparkContext context, List<PlannedFile> files, IngestSettings settings,
      HadoopFiles.Settings hadoop, int parsers, int batchChars) {
    return context.parallelize(files, files.size())
        .flatMap(file -> BoundedRows.<Piece>of(pieces -> read(file, hadoop, batchChars, pieces)))
        .repartition(parsers)
        .mapPartitions(pieces -> parse(pieces, settings, hadoop));
  }

  /** Reads one file into batches. Runs in the reading task. */
  static void read(PlannedFile file, HadoopFiles.Settings hadoop, int batchChars, Consumer<Piece> pieces) {
    RecordSink damage = new RecordSink() {
      @Override
      public void accept(Ingested item) {
        throw new IllegalStateException("a line reader emits no records");
      }

      @Override
      public void malformed(BadInput bad, String raw) {
        pieces.accept(new Bad(bad.file(), bad.line(), bad.reason(), raw));
      }
    };
    try (HadoopFiles.LocalFile local = HadoopFiles.local(file.uri(), hadoop, Long.MAX_VALUE)) {
      long size = Files.size(local.path());
      long modified = Files.getLastModifiedTime(local.path()).toMillis();
      String headHash = IndexIngest.headHash(local.path());
      InputFile input = new InputFile(local.path(), file.name(), 0);
      try (LineReader lines = input.lines(damage)) {
        if (input.compression() == Compression.NONE) {
          spans(file, lines, batchChars, pieces);
        } else {
          batches(file, lines, batchChars, pieces);
        }
      }
      pieces.accept(new End(file.name(), file.format(), size, modified, headHash, input.sha256(), !input.endedEarly()));
    } catch (IOException unreadable) {
      pieces.accept(new Bad(file.name(), 0, "cannot read file (" + Stages.describe(unreadable) + ")", null));
    }
  }

  /** A plain file's lines as spans of its bytes, never decoded here. */
  private static void spans(PlannedFile file, LineReader lines, int batchBytes, Consumer<Piece> pieces) {
    long first = 0;
    int count = 0;
    long from = 0;
    long to = 0;
    long digest = 0;
    while (lines.advance()) {
      long number = lines.lineNumber();
      // A skipped line (too long) breaks the run: a span holds consecutive lines only.
      if (count > 0 && (number != first + count || to - from >= batchBytes)) {
        pieces.accept(new Span(file.format(), file.name(), first, count, file.uri(), from, to, digest));
        count = 0;
      }
      if (count == 0) {
        first = number;
        from = lines.lineStart();
        digest = 0;
      }
      count++;
      to = lines.lineEnd();
      digest = Span.digest(digest, lines.lineChecksum());
    }
    if (count > 0) {
      pieces.accept(new Span(file.format(), file.name(), first, count, file.uri(), from, to, digest));
    }
  }

  /** A compressed file's lines, decoded here and carried in their batches. */
  private static void batches(PlannedFile file, LineReader lines, int batchChars, Consumer<Piece> pieces) {
    ArrayList<String> batch = new ArrayList<>();
    long first = 0;
    long chars = 0;
    String line;
    while ((line = lines.next()) != null) {
      long number = lines.lineNumber();
      // A skipped line (too long) breaks the run: a batch holds consecutive lines only.
      if (!batch.isEmpty() && (number != first + batch.size() || chars >= batchChars)) {
        pieces.accept(new Batch(file.format(), file.name(), first, batch));
        batch = new ArrayList<>();
        chars = 0;
      }
      if (batch.isEmpty()) {
        first = number;
      }
      batch.add(line);
      chars += line.length();
    }
    if (!batch.isEmpty()) {
      pieces.accept(new Batch(file.format(), file.name(), first, batch));
    }
  }

  /**
   * Parses the batches dealt to one task, one at a time: a batch's rows (about a megabyte of lines)
   * are what the task holds. Every other piece becomes its row. Runs in a parsing task, on the
   * task's own thread, which reads the shuffle.
   */
  private static Iterator<Row> parse(Iterator<Piece> pieces, IngestSettings settings, HadoopFiles.Settings hadoop) {
    IngestOptions options = settings.options();
    Map<String, LineParser> parsers = new HashMap<>();
    return new Iterator<>() {
      private Iterator<Row> current = java.util.Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext() && pieces.hasNext()) {
          List<Row> rows = new ArrayList<>();
          parse(pieces.next(), options, hadoop, parsers, rows::add);
          current = rows.iterator();
        }
        return current.hasNext();
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  private static void parse(Piece piece, IngestOptions options, HadoopFiles.Settings hadoop,
      Map<String, LineParser> parsers, Consumer<Row> rows) {
    switch (piece) {
      case Lines batch -> {
        LineParser parser = parsers.computeIfAbsent(batch.format(), format -> Ingestors.discover()
            .byName(format).flatMap(ingestor -> ingestor.lineParser(options)).orElseThrow());
        IngestStage.Rows sink = new IngestStage.Rows(batch.name(), row -> rows.accept(withPart(row, null)));
        try {
          parser.parse(new LineBatch(batch.name(), batch.firstLine(), batch.lines(hadoop)), sink);
        } catch (IOException unreadable) {
          sink.malformed(new BadInput(batch.name(), batch.firstLine(), "cannot read file (" + Stages.describe(unreadable)
              + "); its batch of " + batch.count() + " lines is lost"), null);
        } catch (RuntimeException failure) {
          // Not a bad line (the parser reports those and reads on): a failure of the parser itself.
          sink.malformed(new BadInput(batch.name(), batch.firstLine(), "cannot be read (" + Stages.what(failure)
              + "); the rest of its batch of " + batch.count() + " lines is lost"), null);
        }
        rows.accept(part(batch.name(), null, sink.records, sink.bad, sink.lastLine));
      }
      case Bad bad -> {
        rows.accept(withPart(IngestStage.onePassRow(Quarantined.of(new BadInput(bad.name(), bad.line(), bad.reason()),
            bad.raw())), null));
        rows.accept(part(bad.name(), null, 0, 1, bad.line()));
      }
      case End end -> rows.accept(part(end.name(), end, 0, 0, 0));
    }
  }

  private static Row part(String name, End end, long records, long bad, long lastLine) {
    Object[] part = end == null
        ? new Object[] {name, null, null, null, null, null, null, records, bad, lastLine}
        : new Object[] {name, end.format(), end.size(), end.modified(), end.headHash(), end.sha256(), end.complete(),
            records, bad, lastLine};
    return withPart(null, RowFactory.create(part));
  }

  /** A one-pass row (or none) extended by a checkpoint part (or none). */
  static Row withPart(Row onePass, Row part) {
    int outputs = IngestOutput.values().length;
    Object[] columns = new Object[outputs + 1];
    for (int i = 0; onePass != null && i < outputs; i++) {
      columns[i] = onePass.get(i);
    }
    columns[outputs] = part;
    return RowFactory.create(columns);
  }

  /**
   * The fanned files' checkpoints from their parts, as the single-machine ingest checkpoints a file
   * at its end: every record and bad line of it, and its lines done.
   */
  static List<Checkpoint> checkpoints(List<Row> parts) {
    Map<String, long[]> counts = new HashMap<>();
    Map<String, Row> ends = new HashMap<>();
    for (Row part : parts) {
      String name = part.getString(0);
      long[] count = counts.computeIfAbsent(name, n -> new long[3]);
      count[0] += part.getLong(7);
      count[1] += part.getLong(8);
      count[2] = Math.max(count[2], part.getLong(9));
      if (!part.isNullAt(1)) {
        ends.put(name, part);
      }
    }
    List<Checkpoint> checkpoints = new ArrayList<>();
    ends.forEach((name, end) -> {
      long[] count = counts.get(name);
      boolean complete = end.getBoolean(6);
      checkpoints.add(new Checkpoint(name, end.getLong(2), end.getLong(3), end.getString(4), end.getString(1),
          complete ? count[2] : Math.max(0, count[2] - 1), count[0], complete, count[1], end.getString(5)));
    });
    return checkpoints;
  }
}
