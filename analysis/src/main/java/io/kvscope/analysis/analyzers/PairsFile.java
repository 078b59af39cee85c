package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.Printable;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.util.StringHelper;

/**
 * The general join's candidate pairs as the Spark job computed them on the cluster, written by
 * its driver for the analysis of the index it built: an Arrow IPC file of (recipient, source)
 * document ids of that index with their shared fingerprint counts, sorted by recipient then
 * source, as the Lucene join emits them. The job wrote it; the analysis reads it a batch at a time.
 *
 * <p>The file names what it belongs to, in its schema's metadata: the index commit (Lucene's id of
 * the commit, which any later write to the index changes), the job that wrote it, and the join's
 * settings and reach horizon. A file of another index or commit, or of other settings, is refused
 * in words, never used: its document ids would name other requests. It also carries the job's
 * histogram of the shared fingerprints by tenant frequency (stage 5), so the analysis learns its
 * boilerplate cut-off from it instead of walking every fingerprint term of the index.
 *
 * <p>The file is read through the same pair filter as the Lucene join (the analysed range, the
 * focused recipients, the analysis' reach), so pairs the job let through on a looser reach (it
 * counts every request as having written KV) are dropped here. An index with text copies (a merged
 * request whose records disagree on a text) has candidates the job does not compute: then the
 * analysis runs the index's own join and says so in its parameters.
 */
public final class PairsFile implements CandidatePairs {

  /** Where the job writes it: beside the index, in the job's output folder. */
  public static final String FILE_NAME = "pairs.arrow";
  /** Bumped when the columns or the metadata change meaning; another version is refused. */
  static final String FORMAT = "2";
  /** Recipient and source document, then the fingerprints shared with the source's prompt and response. */
  private static final List<String> COLUMNS = List.of("recipient_doc", "source_doc", "shared_prompt", "shared_response");

  /** What the schema's metadata holds, each under {@code kvscope.pairs.<name>}. */
  private enum Meta {
    FORMAT, INDEX_COMMIT, JOB, JOIN, HORIZON_MS, SHARED_FINGERPRINTS, SKIPPED_BOILERPLATE, TENANT_FREQUENCIES,
    MAX_DOC_FREQUENCY;

    String key() {
      return "kvscope.pairs." + name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * What a pairs file belongs to and was computed with.
   *
   * @param job the job that wrote it (Spark's application id)
   * @param index the index commit its document ids are of ({@link #indexCommit})
   * @param join the join settings ({@link #joinSettings})
   * @param horizonMillis the reach horizon the job's join applied
   * @param sharedFingerprints fingerprints the job joined
   * @param skippedBoilerplate fingerprints it skipped as boilerplate
   * @param tenantFrequencies the job's shared fingerprints per tenant frequency, the overflow bucket last
   *     ({@link FrequencyHistogram#counts()})
   * @param maxDocFrequency the highest document frequency among them
   */
  public record Header(String job, String index, String join, long horizonMillis, long sharedFingerprints,
      long skippedBoilerplate, List<Long> tenantFrequencies, long maxDocFrequency) {

    public Header {
      tenantFrequencies = List.copyOf(tenantFrequencies);
    }

    /** A header carrying the job's {@code frequencies}. */
    public Header(String job, String index, String join, long horizonMillis, long sharedFingerprints,
        long skippedBoilerplate, FrequencyHistogram frequencies) {
      this(job, index, join, horizonMillis, sharedFingerprints, skippedBoilerplate,
          Arrays.stream(frequencies.counts()).boxed().toList(), frequencies.maxDocFrequency());
    }

    /** The job's histogram, which the cut-off is learned from. */
    public FrequencyHistogram frequencies() {
      return FrequencyHistogram.of(tenantFrequencies.stream().mapToLong(Long::longValue).toArray(), maxDocFrequency);
    }
  }

  private final Path file;
  /** The runs the job verified for these pairs, or null: verified on the index's texts. */
  private final RunsFile runs;

  private PairsFile(Path file, RunsFile runs) {
    this.file = file;
    this.runs = runs;
  }

  /** The pairs of the file at {@code file}, checked against the analysis when it starts. */
  public static PairsFile at(Path file) {
    return new PairsFile(file, null);
  }

  /** These pairs with the runs the same job verified for them ({@link RunsFile}). */
  public PairsFile withRuns(RunsFile verified) {
    return new PairsFile(file, verified);
  }

  /** The identity of {@code reader}'s commit: Lucene's unique id of it, and its generation. */
  public static String indexCommit(DirectoryReader reader) throws IOException {
    IndexCommit commit = reader.getIndexCommit();
    SegmentInfos infos = SegmentInfos.readCommit(commit.getDirectory(), commit.getSegmentsFileName());
    return StringHelper.idToString(infos.getId()) + "/" + commit.getGeneration();
  }

  /** The settings that decide which pairs a join gives: two joins with equal settings give the same pairs. */
  public static String joinSettings(JoinOptions options) {
    return "tenants<=" + options.maxTenantFrequency() + " pairs/term<=" + options.maxPairsPerTerm() + " same-tenant="
        + options.includeSameTenant() + " own-prompt-explains=" + options.ownPromptExplains() + " shared>="
        + options.minSharedFingerprints();
  }

  /**
   * Writes {@code pairs} (sorted by recipient, then source) to {@code file} under {@code header},
   * a batch at a time, owner-only, replacing the file only once it is whole. Returns the pairs written.
   */
  public static long write(Path file, Header header, Iterator<Candidate> pairs) throws IOException {
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(KvscopeOutputs.ARROW_MARK, "pairs"); // never read back as evidence by an ingest
    metadata.put(Meta.FORMAT.key(), FORMAT);
    metadata.put(Meta.INDEX_COMMIT.key(), header.index());
    metadata.put(Meta.JOB.key(), header.job());
    metadata.put(Meta.JOIN.key(), header.join());
    metadata.put(Meta.HORIZON_MS.key(), Long.toString(header.horizonMillis()));
    metadata.put(Meta.SHARED_FINGERPRINTS.key(), Long.toString(header.sharedFingerprints()));
    metadata.put(Meta.SKIPPED_BOILERPLATE.key(), Long.toString(header.skippedBoilerplate()));
    metadata.put(Meta.TENANT_FREQUENCIES.key(), String.join(",",
        header.tenantFrequencies().stream().map(String::valueOf).toList()));
    metadata.put(Meta.MAX_DOC_FREQUENCY.key(), Long.toString(header.maxDocFrequency()));
    List<Field> fields = COLUMNS.stream()
        .map(name -> new Field(name, FieldType.notNullable(new ArrowType.Int(32, true)), null)).toList();
    return JobArrowFile.write(file, new Schema(fields, metadata), pairs, (columns, row, pair) -> {
      columns.get(0).setSafe(row, pair.recipientDoc());
      columns.get(1).setSafe(row, pair.sourceDoc());
      columns.get(2).setSafe(row, pair.sharedWithSourcePrompt());
      columns.get(3).setSafe(row, pair.sharedWithSourceResponse());
    });
  }

  /** The header of the file, read without its pairs. */
  public Header header() throws IOException {
    try (BufferAllocator allocator = new RootAllocator(); JobArrowFile.Opened<Header> reading = open(allocator)) {
      return reading.header;
    }
  }

  /**
   * The job's histogram, once the file is found to be of the analysed index. Where the index holds
   * text copies, which the job did not fingerprint, the index's terms are walked instead, as for
   * its pairs ({@link #start}).
   */
  @Override
  public FrequencyHistogram frequencies(AnalysisContext context, FingerprintJoin join) throws IOException {
    Header header = ofTheAnalysedIndex(context);
    if (context.requestColumns().hasCopies()) {
      return IndexJoin.walk(join);
    }
    int buckets = BoilerplateCutoff.histogram().counts().length;
    if (header.tenantFrequencies().size() != buckets) {
      throw new IllegalStateException(name() + " counts the shared fingerprints over " + header.tenantFrequencies()
          .size() + " tenant frequencies, this analysis over " + buckets + "; run kvscope scope again.");
    }
    return header.frequencies();
  }

  @Override
  public Started start(AnalysisContext context, FingerprintJoin join, JoinOptions options, PairFilter filter)
      throws IOException {
    Header header = ofTheAnalysedIndex(context);
    String settings = joinSettings(options);
    if (!header.join().equals(settings)) {
      throw new IllegalStateException(name() + " was joined with other settings (" + Printable.text(header.join())
          + ") than this analysis learned from the index (" + settings + "); run kvscope scope again.");
    }
    long horizon = context.options().sourceHorizon().toMillis();
    if (horizon > header.horizonMillis()) {
      throw new IllegalStateException("--horizon reaches further back (" + horizon + " ms) than the job's join did ("
          + header.horizonMillis() + " ms), so " + name() + " lacks pairs this analysis needs; analyze the index with"
          + " kvscope analyze instead.");
    }
    if (context.requestColumns().hasCopies()) {
      // The job fingerprints each request's kept texts only; the Lucene join also pairs the copies.
      return JoinAhead.instead(join, options, filter, "the index holds text copies, which the job's pairs do not cover");
    }
    return new FromFile(header, filter, context.reader().maxDoc());
  }

  /** The runs file given, once it is found to be of the analysed index and these pairs; none with text copies. */
  @Override
  public Optional<RunsFile> runs(AnalysisContext context) throws IOException {
    if (runs == null || context.requestColumns().hasCopies()) {
      return Optional.empty(); // the copies' candidates come from the index's join, verified there
    }
    runs.belongsTo(ofTheAnalysedIndex(context), indexCommit(context.reader()));
    return Optional.of(runs);
  }

  /** The file's header; refused when the file is not of the analysed index's commit. */
  private Header ofTheAnalysedIndex(AnalysisContext context) throws IOException {
    Header header = header();
    String analysed = indexCommit(context.reader());
    if (!header.index().equals(analysed)) {
      throw new IllegalStateException(name() + " holds the candidate pairs of another index or of an earlier state of"
          + " this one (commit " + header.index() + ", job " + Printable.text(header.job()) + "), not of the index"
          + " analysed (commit " + analysed + "): it is stale or foreign, and its document ids would name other"
          + " requests. Run kvscope scope again, or analyze the index on its own with kvscope analyze.");
    }
    return header;
  }

  private String name() {
    return Printable.text(file);
  }

  /** The file's pairs through the analysis' pair filter, streamed a batch at a time. */
  private final class FromFile implements Started {
    private final Header header;
    private final PairFilter filter;
    private final int maxDoc;
    private long inFile;
    private long taken;

    FromFile(Header header, PairFilter filter, int maxDoc) {
      this.header = header;
      this.filter = filter;
      this.maxDoc = maxDoc;
    }

    @Override
    public JoinStats emit(CandidateSink sink) throws IOException {
      try (BufferAllocator allocator = new RootAllocator(); JobArrowFile.Opened<Header> reading = open(allocator)) {
        if (!reading.header.equals(header)) {
          throw new IllegalStateException(name() + " changed while the analysis ran; run kvscope scope again.");
        }
        long previous = -1;
        while (reading.reader.loadNextBatch()) {
          VectorSchemaRoot root = reading.reader.getVectorSchemaRoot();
          List<IntVector> columns = JobArrowFile.columns(root, COLUMNS);
          for (int row = 0; row < root.getRowCount(); row++) {
            int recipient = columns.get(0).get(row);
            int source = columns.get(1).get(row);
            long pair = ((long) recipient << 32) | source;
            if (recipient < 0 || source < 0 || recipient >= maxDoc || source >= maxDoc || pair <= previous) {
              throw new IllegalStateException(name() + ", pair " + (inFile + 1) + ": recipient " + recipient
                  + ", source " + source + " is not a document of the index after the pair before it; the file is"
                  + " damaged. Run kvscope scope again.");
            }
            previous = pair;
            inFile++;
            if (filter.test(recipient, source)) {
              taken++;
              sink.accept(new Candidate(recipient, source, columns.get(2).get(row), columns.get(3).get(row)));
            }
          }
        }
      }
      return new JoinStats(0, header.sharedFingerprints(), header.skippedBoilerplate(), 0, 0, 0, 0, taken, 0);
    }

    @Override
    public long walkCpuNanos() {
      return 0;
    }

    @Override
    public Map<String, Object> origin() {
      Map<String, Object> origin = new LinkedHashMap<>();
      origin.put("from", "pairs file");
      origin.put("job", header.job());
      origin.put("pairs_in_file", inFile);
      origin.put("pairs_taken", taken);
      origin.put("tenant_frequencies", "pairs file");
      if (runs != null) {
        origin.put("runs", "runs file");
      }
      return origin;
    }

    @Override
    public void close() {}
  }

  /** The file opened: its reader and its header, its format and columns checked. */
  private JobArrowFile.Opened<Header> open(BufferAllocator allocator) throws IOException {
    return new JobArrowFile.Opened<>(file, KIND, allocator);
  }

  private static final JobArrowFile.Kind<Header> KIND = new JobArrowFile.Kind<>("candidate pairs", Meta.FORMAT.key(),
      FORMAT, COLUMNS, "the Spark job writes it beside its index. Run kvscope scope again, or analyze the index with"
      + " kvscope analyze.", metadata -> new Header(metadata.get(Meta.JOB.key()), metadata.get(Meta.INDEX_COMMIT.key()),
          metadata.get(Meta.JOIN.key()), Long.parseLong(metadata.get(Meta.HORIZON_MS.key())),
          Long.parseLong(metadata.get(Meta.SHARED_FINGERPRINTS.key())),
          Long.parseLong(metadata.get(Meta.SKIPPED_BOILERPLATE.key())),
          Arrays.stream(metadata.get(Meta.TENANT_FREQUENCIES.key()).split(",")).map(Long::valueOf).toList(),
          Long.parseLong(metadata.get(Meta.MAX_DOC_FREQUENCY.key()))));
}
