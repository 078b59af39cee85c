package io.kvscope.analysis.analyzers;

import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.Printable;
import io.kvscope.model.evidence.Mechanism;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.TextRange;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The runs the Spark job verified for the candidate pairs of its {@link PairsFile}, where the
 * texts lie (stage 10): for each pair and side the parts of the runs the recipient's response
 * shares with the source's prompt or response, at the general join's minimum (2T), and the ranges
 * of each recipient's response its own prompt holds, down to {@link PassageRules#MIN_WORDS}. An
 * Arrow IPC file beside {@code pairs.arrow}, in the index's document ids, parts in the verifier's
 * order.
 *
 * <p>Its metadata names what it belongs to, as the pairs file's does: the index commit, the job,
 * the join's settings, and the minimum the runs were found at with the fingerprint scheme. A file
 * of another commit, job or minimum is refused in words, never used. With it the analysis reads a
 * recipient's texts only once a passage is found.
 */
public final class RunsFile {

  /** Where the job writes it: beside the pairs file. */
  public static final String FILE_NAME = "runs.arrow";
  /** Bumped when the columns or the metadata change meaning; another version is refused. */
  static final String FORMAT = "1";
  /**
   * The recipient and source document, the side, then the recipient's and the source's token and
   * char ranges; the source's are null for the own prompt.
   */
  private static final List<String> COLUMNS = List.of("recipient_doc", "source_doc", "side", "recipient_token_start",
      "recipient_token_end", "recipient_char_start", "recipient_char_end", "source_token_start", "source_token_end",
      "source_char_start", "source_char_end");
  private static final int FIRST_SOURCE_RANGE = 7;

  /** What the schema's metadata holds, each under {@code kvscope.runs.<name>}. */
  private enum Meta {
    FORMAT, INDEX_COMMIT, JOB, JOIN, MIN_WORDS, OWN_PROMPT_MIN_WORDS, SCHEME;

    String key() {
      return "kvscope.runs." + name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Which text of the pair a run lies in. */
  public enum Side {
    /** The source's prompt. */
    SOURCE_PROMPT,
    /** The source's response. */
    SOURCE_RESPONSE,
    /** The recipient's own prompt (the source is the recipient). */
    OWN_PROMPT
  }

  /**
   * One part of a run (one range of the own prompt): {@code source} is null for {@link Side#OWN_PROMPT}.
   */
  public record Run(int recipientDoc, int sourceDoc, Side side, TextRange recipient, TextRange source) {

    public Run {
      if ((source == null) != (side == Side.OWN_PROMPT)) {
        throw new IllegalArgumentException("a run of the " + side + " has " + (source == null ? "no" : "a")
            + " source range");
      }
    }

    /** A part of a run shared with the source's response ({@code reply}) or prompt. */
    public static Run withSource(int recipientDoc, int sourceDoc, boolean reply, SpanMatch part) {
      return new Run(recipientDoc, sourceDoc, reply ? Side.SOURCE_RESPONSE : Side.SOURCE_PROMPT, part.recipient(),
          part.source());
    }

    /** A range of the recipient's response its own prompt holds. */
    public static Run withOwnPrompt(int recipientDoc, TextRange range) {
      return new Run(recipientDoc, recipientDoc, Side.OWN_PROMPT, range, null);
    }
  }

  /**
   * What a runs file belongs to and was found with.
   *
   * @param job the job that wrote it (Spark's application id), the one of its pairs file
   * @param index the index commit its document ids are of ({@link PairsFile#indexCommit})
   * @param join the pairs' join settings ({@link PairsFile#joinSettings})
   * @param minWords the shortest run kept with a source: {@link PassageRules#minimumWords} of a
   *     response not decoded over foreign KV, 2T
   * @param ownPromptMinWords the shortest run kept with the own prompt
   * @param scheme the verifier's fingerprint scheme ({@link io.kvscope.model.fingerprint.FingerprintConfig#schemeId})
   */
  public record Header(String job, String index, String join, int minWords, int ownPromptMinWords, String scheme) {}

  private final Path file;

  /**
   * The shortest run the file keeps with a source under {@code --min-span} {@code minSpan}: the
   * general join's minimum, {@link PassageRules#minimumWords} of a response not decoded over
   * foreign KV (the focused pass takes those, and verifies on the index).
   */
  public static int minWords(int minSpan) {
    return PassageRules.minimumWords(Mechanism.none(), minSpan);
  }

  private RunsFile(Path file) {
    this.file = file;
  }

  /** The runs of the file at {@code file}, checked against the analysis when it starts. */
  public static RunsFile at(Path file) {
    return new RunsFile(file);
  }

  /**
   * Writes {@code runs} (grouped by recipient, then source, each pair's parts in the verifier's
   * order) to {@code file} under {@code header}, owner-only, replacing the file only once it is
   * whole. Returns the runs written.
   */
  public static long write(Path file, Header header, Iterator<Run> runs) throws IOException {
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(KvscopeOutputs.ARROW_MARK, "runs"); // never read back as evidence by an ingest
    metadata.put(Meta.FORMAT.key(), FORMAT);
    metadata.put(Meta.INDEX_COMMIT.key(), header.index());
    metadata.put(Meta.JOB.key(), header.job());
    metadata.put(Meta.JOIN.key(), header.join());
    metadata.put(Meta.MIN_WORDS.key(), Integer.toString(header.minWords()));
    metadata.put(Meta.OWN_PROMPT_MIN_WORDS.key(), Integer.toString(header.ownPromptMinWords()));
    metadata.put(Meta.SCHEME.key(), header.scheme());
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < COLUMNS.size(); i++) {
      ArrowType type = new ArrowType.Int(32, true);
      fields.add(new Field(COLUMNS.get(i), i < FIRST_SOURCE_RANGE ? FieldType.notNullable(type)
          : FieldType.nullable(type), null));
    }
    return JobArrowFile.write(file, new Schema(fields, metadata), runs, (columns, row, run) -> {
      columns.get(0).setSafe(row, run.recipientDoc());
      columns.get(1).setSafe(row, run.sourceDoc());
      columns.get(2).setSafe(row, run.side().ordinal());
      set(columns, 3, row, run.recipient());
      set(columns, FIRST_SOURCE_RANGE, row, run.source());
    });
  }

  private static void set(List<IntVector> columns, int first, int row, TextRange range) {
    int[] values = range == null ? null
        : new int[] {range.tokenStart(), range.tokenEnd(), range.charStart(), range.charEnd()};
    for (int i = 0; i < 4; i++) {
      if (values == null) {
        columns.get(first + i).setNull(row);
      } else {
        columns.get(first + i).setSafe(row, values[i]);
      }
    }
  }

  /** The header of the file, read without its runs. */
  public Header header() throws IOException {
    try (BufferAllocator allocator = new RootAllocator(); JobArrowFile.Opened<Header> reading = open(allocator)) {
      return reading.header;
    }
  }

  /** Every run of the file, in file order; a run naming no document below {@code maxDoc} is refused. */
  public List<Run> runs(int maxDoc) throws IOException {
    List<Run> runs = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); JobArrowFile.Opened<Header> reading = open(allocator)) {
      while (reading.reader.loadNextBatch()) {
        VectorSchemaRoot root = reading.reader.getVectorSchemaRoot();
        List<IntVector> columns = JobArrowFile.columns(root, COLUMNS);
        for (int row = 0; row < root.getRowCount(); row++) {
          runs.add(run(columns, row, runs.size() + 1, maxDoc));
        }
      }
    }
    return runs;
  }

  private Run run(List<IntVector> columns, int row, long number, int maxDoc) {
    int recipient = columns.get(0).get(row);
    int source = columns.get(1).get(row);
    int side = columns.get(2).get(row);
    try {
      if (recipient < 0 || source < 0 || recipient >= maxDoc || source >= maxDoc || side < 0
          || side >= Side.values().length) {
        throw new IllegalArgumentException("recipient " + recipient + ", source " + source + ", side " + side
            + " is not a document pair of the index");
      }
      return new Run(recipient, source, Side.values()[side], range(columns, 3, row),
          columns.get(FIRST_SOURCE_RANGE).isNull(row) ? null : range(columns, FIRST_SOURCE_RANGE, row));
    } catch (IllegalArgumentException damaged) {
      throw new IllegalStateException(name() + ", run " + number + ": " + damaged.getMessage() + "; the file is"
          + " damaged. Run kvscope scope again.");
    }
  }

  private static TextRange range(List<IntVector> columns, int first, int row) {
    return new TextRange(columns.get(first).get(row), columns.get(first + 1).get(row), columns.get(first + 2).get(row),
        columns.get(first + 3).get(row));
  }

  /**
   * Refuses (in words) a file that does not go with {@code pairs}, the analysed index's pairs file:
   * of another index commit, another job, or other join settings.
   */
  void belongsTo(PairsFile.Header pairs, String analysedCommit) throws IOException {
    Header header = header();
    if (!header.index().equals(analysedCommit)) {
      throw new IllegalStateException(name() + " holds the runs of another index or of an earlier state of this one"
          + " (commit " + header.index() + ", job " + Printable.text(header.job()) + "), not of the index analysed"
          + " (commit " + analysedCommit + "): it is stale or foreign, and its document ids would name other requests."
          + " Run kvscope scope again, or analyze the index on its own with kvscope analyze.");
    }
    if (!header.job().equals(pairs.job()) || !header.join().equals(pairs.join())) {
      throw new IllegalStateException(name() + " holds the runs of job " + Printable.text(header.job()) + " ("
          + Printable.text(header.join()) + "), its pairs file those of job " + Printable.text(pairs.job()) + " ("
          + Printable.text(pairs.join()) + "): they do not go together. Run kvscope scope again.");
    }
  }

  /**
   * The file's runs for an analysis that keeps runs of {@code minWords} words or more with a source
   * under {@code scheme}; a file found at another minimum or scheme is refused in words.
   */
  VerifiedRuns verifiedRuns(int minWords, String scheme, int maxDoc) throws IOException {
    Header header = header();
    if (header.minWords() != minWords || header.ownPromptMinWords() != PassageRules.MIN_WORDS
        || !header.scheme().equals(scheme)) {
      throw new IllegalStateException(name() + " holds runs of " + header.minWords() + " words or more ("
          + header.ownPromptMinWords() + " with the own prompt, " + Printable.text(header.scheme()) + "), this analysis"
          + " keeps runs of " + minWords + " (" + PassageRules.MIN_WORDS + ", " + scheme + "): its --min-span is"
          + " not the one the job verified at. Run kvscope scope with the same --min-span, or analyze the index"
          + " with kvscope analyze.");
    }
    return new Loaded(runs(maxDoc), minWords);
  }

  private String name() {
    return Printable.text(file);
  }

  /** The file's runs held by pair and side, for the analysis' candidates. */
  private static final class Loaded implements VerifiedRuns {
    private final Map<Long, List<SpanMatch>> withSource = new HashMap<>();
    private final Map<Integer, List<TextRange>> withOwnPrompt = new HashMap<>();
    private final int minWords;

    Loaded(List<Run> runs, int minWords) {
      this.minWords = minWords;
      for (Run run : runs) {
        if (run.side() == Side.OWN_PROMPT) {
          withOwnPrompt.computeIfAbsent(run.recipientDoc(), doc -> new ArrayList<>()).add(run.recipient());
        } else {
          withSource.computeIfAbsent(key(run.recipientDoc(), run.sourceDoc(), run.side() == Side.SOURCE_RESPONSE),
              pair -> new ArrayList<>()).add(new SpanMatch(run.recipient(), run.source()));
        }
      }
    }

    private static long key(int recipient, int source, boolean reply) {
      return ((long) recipient << 32 | source) << 1 | (reply ? 1 : 0);
    }

    @Override
    public boolean verifies(PassageGatherer.Recipient recipient) {
      return true; // the job read the response: none there, no runs here
    }

    @Override
    public List<SpanMatch> withSource(PassageGatherer.Recipient recipient, int source, boolean reply, int minWords) {
      if (minWords != this.minWords) {
        // Only the general join's recipients are served from the file, and their minimum is 2T.
        throw new IllegalStateException("runs of " + minWords + " words asked of a file of runs of " + this.minWords);
      }
      return withSource.getOrDefault(key(recipient.doc, source, reply), List.of());
    }

    @Override
    public List<TextRange> withOwnPrompt(PassageGatherer.Recipient recipient) {
      return withOwnPrompt.getOrDefault(recipient.doc, List.of());
    }
  }

  /** The file opened: its reader and its header, its format and columns checked. */
  private JobArrowFile.Opened<Header> open(BufferAllocator allocator) throws IOException {
    return new JobArrowFile.Opened<>(file, KIND, allocator);
  }

  private static final JobArrowFile.Kind<Header> KIND = new JobArrowFile.Kind<>("runs", Meta.FORMAT.key(), FORMAT,
      COLUMNS, "the Spark job writes it beside its pairs file. Run kvscope scope again, or analyze the index with"
      + " kvscope analyze.", metadata -> new Header(metadata.get(Meta.JOB.key()), metadata.get(Meta.INDEX_COMMIT.key()),
          metadata.get(Meta.JOIN.key()), Integer.parseInt(metadata.get(Meta.MIN_WORDS.key())),
          Integer.parseInt(metadata.get(Meta.OWN_PROMPT_MIN_WORDS.key())), metadata.get(Meta.SCHEME.key())));
}
