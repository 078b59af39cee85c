package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.index.doc.Documents;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestProgress;
import io.kvscope.index.join.LinkSummary;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.Plausibility;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.finding.Tenants;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import io.kvscope.model.order.RequestOrder;
import io.kvscope.model.reach.ReachRule;
import io.kvscope.samples.GenerationSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark stages on a generated incident (0.25x, with damaged gateway lines and a forged engine
 * line) give what kvscope's single-machine path gives on the same files: the same records of
 * every kind, the same quarantine, after the merge the same requests, one per simulated request,
 * the index's engine facts on each, then the model's fingerprints of those requests, the shared
 * fingerprints and the boilerplate cut-off of the Lucene join, and its candidate pairs under the
 * same reach.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScopeJobTest {

  private GenerationSummary generated;
  private Path incident;
  private String out;
  private ScopeJob.Summary summary;
  private SingleMachine reference;
  /** {@code kvscope ingest}'s index of the same files, and what its join of engine lines did. */
  private Path index;
  private LinkSummary link;

  @BeforeAll
  void runTheStagesOnAGeneratedIncident(@TempDir Path dir) throws IOException {
    LocalRun run = LocalRun.shared();
    generated = run.generated();
    incident = run.incident();
    out = run.out();
    summary = run.summary();
    reference = SingleMachine.ingest(incident);
    index = dir.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      link = new IndexIngest(store, Ingestors.discover(), IngestOptions.defaults(), IngestProgress.NONE,
          Clock.systemUTC()).run(List.of(incident)).link();
    }
  }

  private static SparkSession spark() {
    return SharedSpark.session();
  }

  @Test
  void everyFileIsPlannedWithTheFormatItsContentShows() {
    List<PlannedFile> planned = spark().read().schema(InputPlan.ROWS.schema()).parquet(out + "/" + InputPlan.FOLDER)
        .collectAsList().stream().map(InputPlan.ROWS::fromRow).toList();

    Map<String, String> formats = planned.stream().filter(f -> f.format() != null)
        .collect(Collectors.toMap(PlannedFile::name, PlannedFile::format));
    assertThat(formats).isEqualTo(reference.formats);
    assertThat(formats).as("the generated files, the damaged gateway file and the fragment log")
        .hasSize(generated.files().size() + 2);
    assertThat(planned).filteredOn(f -> f.name().endsWith("truth.json")).singleElement()
        .satisfies(f -> assertThat(f.skippedBecause()).startsWith("kvscope's own output"));
    assertThat(summary.read()).isEqualTo(formats.size());
  }

  @Test
  void ingestGivesTheSingleMachineRecordsOfEveryKind() {
    for (IngestOutput output : List.of(IngestOutput.RECORDS, IngestOutput.ENGINE_EVENTS, IngestOutput.EPOCHS,
        IngestOutput.NODE_ACTIVITY, IngestOutput.NODE_ALIASES, IngestOutput.VERSIONS)) {
      List<Object> expected = reference.items.stream().filter(i -> IngestOutput.of(i) == output)
          .sorted(BY_SOURCE).map(Object.class::cast).toList();
      assertThat(sorted(read(output))).as(output.folder()).isEqualTo(expected);
    }
    Map<EngineEvent.Kind, Long> kinds = read(IngestOutput.ENGINE_EVENTS).stream()
        .collect(Collectors.groupingBy(e -> ((EngineEvent) e).kind(), TreeMap::new, Collectors.counting()));
    assertThat(kinds).containsKeys(EngineEvent.Kind.RECEIVED, EngineEvent.Kind.FINISHED, EngineEvent.Kind.REJECTED);
    assertThat(read(IngestOutput.RECORDS)).hasSize((int) (generated.litellmRecords() + generated.otlpSpans()) + 1);
  }

  @Test
  void badLinesAreQuarantinedWithTheirTextAsOnASingleMachine() {
    List<Quarantined> quarantined = read(IngestOutput.QUARANTINE).stream().map(Quarantined.class::cast)
        .sorted(Comparator.comparing(Quarantined::file).thenComparingLong(Quarantined::line)).toList();

    assertThat(quarantined).isEqualTo(reference.quarantined);
    assertThat(quarantined).filteredOn(q -> q.file().endsWith("late/litellm-damaged.jsonl"))
        .extracting(Quarantined::line).containsExactly(1L, 2L);
  }

  /**
   * The index the driver built keeps the bad lines where {@code kvscope ingest}'s index keeps them,
   * line for line (raw text included), and as many per file as its checkpoints count.
   */
  @Test
  void theJobsIndexHoldsTheIngestsQuarantineFile() throws IOException {
    List<String> expected = quarantineLines(index);
    List<String> job = quarantineLines(summary.index());

    assertThat(job).hasSize(reference.quarantined.size()).isEqualTo(expected);
    Map<String, Long> perFile = job.stream().map(line -> {
      try {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(line).get("file").asText();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }).collect(Collectors.groupingBy(file -> file, TreeMap::new, Collectors.counting()));
    Map<String, Long> counted = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(summary.index())) {
      Checkpoint.all(search.reader()).stream().filter(c -> c.bad() > 0).forEach(c -> counted.put(c.path(), c.bad()));
    }
    assertThat(counted.keySet()).anyMatch(file -> file.endsWith("late/litellm-damaged.jsonl"));
    assertThat(perFile).containsAllEntriesOf(counted);
  }

  /** The lines of the one quarantine file in {@code index}, sorted; the file is owner-only. */
  private static List<String> quarantineLines(Path index) throws IOException {
    List<Path> files;
    try (Stream<Path> listed = Files.list(index.resolve("quarantine"))) {
      files = listed.toList();
    }
    assertThat(files).singleElement().satisfies(file -> assertThat(Files.getPosixFilePermissions(file))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    return Files.readAllLines(files.getFirst()).stream().sorted().toList();
  }

  /** What the merge sets aside for itself and the shards: the records of each key with several, as read. */
  @Test
  void theMergedRecordsAreTheRecordsOfEachKeyWithMoreThanOne() {
    List<Object> aside = spark().read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.MERGED_RECORDS)
        .collectAsList().stream().map(RequestRows::fromRow).map(Object.class::cast).toList();

    List<Object> expected = reference.items.stream().filter(RequestRecord.class::isInstance).map(RequestRecord.class::cast)
        .collect(Collectors.groupingBy(RequestMerge::keyOf)).values().stream().filter(records -> records.size() > 1)
        .flatMap(List::stream).sorted(BY_SOURCE).map(Object.class::cast).toList();
    assertThat(sorted(aside)).isEqualTo(expected).hasSizeGreaterThan((int) summary.mergedKeys());
    assertThat(summary.mergedKeys()).isPositive();
  }

  @Test
  void mergeGivesOneRequestPerSimulatedRequestAsTheSingleMachineMergeDoes() {
    List<RequestRecord> merged = spark().read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER)
        .collectAsList().stream().map(RequestRows::fromRow).sorted(BY_REQUEST).toList();

    List<RequestRecord> expected = reference.merged().stream().sorted(BY_REQUEST).toList();
    assertThat(merged).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(merged.get(i)).usingRecursiveComparison().isEqualTo(expected.get(i));
    }
    assertThat(merged).filteredOn(r -> r.provenance() != null).hasSize((int) summary.mergedKeys()).isNotEmpty();
    assertThat(merged).hasSize((int) generated.requests());
    // The damaged file's copy names the same response, so it joined its original.
    assertThat(merged).filteredOn(r -> r.provenance() != null
            && r.provenance().sources().stream().anyMatch(s -> s.endsWith("late/litellm-damaged.jsonl:3")))
        .singleElement().satisfies(r -> assertThat(r.provenance().records()).isEqualTo(2));
  }

  @Test
  void fingerprintsAreTheModelsOfTheMergedRequestsNumberedInRequestOrder() {
    List<RequestRecord> inOrder = reference.merged().stream().sorted(Comparator
        .comparing((RequestRecord r) -> RequestOrder.of(r.startTime(), r.requestId())).thenComparing(RequestMerge::keyOf))
        .toList();
    List<String> tenants = inOrder.stream().map(r -> Tenants.nameOf(r.tenant())).distinct().sorted().toList();
    Fingerprinter fingerprinter = new Fingerprinter(FingerprintConfig.defaults());
    List<Fingerprint> expected = new ArrayList<>();
    for (int ordinal = 0; ordinal < inOrder.size(); ordinal++) {
      RequestRecord request = inOrder.get(ordinal);
      int tenant = tenants.indexOf(Tenants.nameOf(request.tenant()));
      for (byte side : new byte[] {FingerprintStage.PROMPT, FingerprintStage.RESPONSE}) {
        String text = side == FingerprintStage.PROMPT ? request.promptText() : request.responseText();
        for (long hash : fingerprinter.fingerprint(text).distinctHashes()) {
          expected.add(new Fingerprint(hash, side, ordinal, tenant));
        }
      }
    }
    expected.sort(Fingerprint.ORDER);

    List<Row> order = spark().read().parquet(out + "/" + FingerprintStage.ORDER_FOLDER).orderBy("ordinal").collectAsList();
    assertThat(order).extracting(r -> r.<String>getAs("request_id")).isEqualTo(inOrder.stream().map(RequestRecord::requestId).toList());
    assertThat(order).extracting(r -> r.<Integer>getAs("ordinal")).isEqualTo(IntStream.range(0, inOrder.size()).boxed().toList());
    assertThat(order).extracting(r -> r.<Long>getAs(MergeStage.TEXT_BYTES))
        .isEqualTo(inOrder.stream().map(r -> utf8Bytes(r.promptText()) + utf8Bytes(r.responseText())).toList());
    List<Fingerprint> rows = spark().read().parquet(out + "/" + FingerprintStage.FINGERPRINT_FOLDER).collectAsList()
        .stream().map(r -> new Fingerprint(r.getAs("hash"), r.getAs("side"), r.getAs("request"), r.getAs("tenant")))
        .sorted(Fingerprint.ORDER).toList();
    assertThat(rows).hasSize(expected.size()).isEqualTo(expected);
    assertThat(summary.fingerprintRows()).isEqualTo(expected.size());

    // Per hash: responses, prompts, requests and tenants that have it, for those some response has and two requests.
    Map<Long, List<Fingerprint>> byHash = expected.stream().collect(Collectors.groupingBy(Fingerprint::hash));
    Map<Long, List<Long>> sharedExpected = new TreeMap<>();
    byHash.forEach((hash, holders) -> {
      long responses = holders.stream().filter(f -> f.side() == FingerprintStage.RESPONSE).count();
      long docs = holders.stream().map(Fingerprint::request).distinct().count();
      if (responses > 0 && docs >= 2) {
        sharedExpected.put(hash, List.of(responses, holders.size() - responses, docs,
            holders.stream().map(Fingerprint::tenant).distinct().count()));
      }
    });
    Map<Long, List<Long>> shared = new TreeMap<>();
    for (Row r : spark().read().parquet(out + "/" + FingerprintStage.FREQUENCY_FOLDER).collectAsList()) {
      shared.put(r.getAs("hash"), List.of(r.getAs("n_resp"), r.getAs("n_prompt"), r.getAs("docs"), r.getAs("tenants")));
    }
    assertThat(shared).isNotEmpty().isEqualTo(sharedExpected);
  }

  /**
   * The single-machine path on the same files: {@code kvscope ingest}'s index, and the Lucene join's
   * frequency walk with the analysis' own tenant ordinals, as {@code CrossTenantOverlap} learns the cut-off.
   */
  @Test
  void theSharedFingerprintsAndTheLearnedCutoffAreTheLuceneJoins() throws IOException {
    FrequencyHistogram lucene = BoilerplateCutoff.histogram();
    try (IndexSearch search = IndexSearch.open(index)) {
      RequestColumns columns = RequestColumns.load(new AnalysisContext(search, AnalysisOptions.defaults()));
      new FingerprintJoin(search.reader(), doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1)
          .frequencies(lucene, 1);
    }

    assertThat(lucene.totalTerms()).isPositive();
    assertThat(summary.sharedFingerprints()).isEqualTo(lucene.totalTerms());
    assertThat(summary.boilerplateCutoff()).isEqualTo(BoilerplateCutoff.learn(lucene));
    FrequencyHistogram spark = BoilerplateCutoff.histogram();
    for (Row r : spark().read().parquet(out + "/" + FingerprintStage.FREQUENCY_FOLDER).collectAsList()) {
      spark.onSharedTerm((int) r.getLong(r.fieldIndex("docs")), (int) r.getLong(r.fieldIndex("tenants")));
    }
    assertThat(spark.counts()).isEqualTo(lucene.counts());
    assertThat(spark.maxDocFrequency()).isEqualTo(lucene.maxDocFrequency());
  }

  /**
   * Each request's engine facts are those the single-machine index joined onto it, field by field:
   * the Spark requests with their facts are written to an index of their own by the index's document
   * code ({@code Documents.linkedRequest}), and both indexes are read back as the analysis reads them.
   */
  @Test
  void engineFactsAreTheSingleMachineIndexsRequestByRequest(@TempDir Path sparkIndex) throws IOException {
    Map<String, EngineFacts> facts = new TreeMap<>();
    long ambiguousRooms = 0;
    for (Row row : spark().read().schema(EngineFactsStage.SCHEMA).parquet(out + "/" + EngineFactsStage.FOLDER)
        .collectAsList()) {
      facts.put(row.getAs(MergeStage.KEY), EngineFactsStage.FACTS.fromRow(row.getAs("facts")));
      ambiguousRooms += row.<Integer>getAs("ambiguous_rooms");
    }
    try (IndexStore store = IndexStore.open(sparkIndex)) {
      for (Row row : spark().read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER).collectAsList()) {
        RequestRecord request = RequestRows.fromRow(row);
        EngineFacts joined = facts.get(RequestMerge.keyOf(request));
        store.put(joined == null ? Documents.of(request) : Documents.linkedRequest(request, joined));
      }
      store.commit();
    }
    Map<String, Linked> spark = requestsOf(sparkIndex);
    Map<String, Linked> single = requestsOf(index);

    assertThat(spark.keySet()).isEqualTo(single.keySet());
    single.forEach((key, expected) ->
        assertThat(spark.get(key)).as(key).usingRecursiveComparison().isEqualTo(expected));
    assertThat((long) facts.size()).isEqualTo(link.joined()).isEqualTo(summary.linkedRequests())
        .isGreaterThan(generated.requests() / 2);
    assertThat(ambiguousRooms).isEqualTo(link.ambiguousRooms()).as("the forged line's room").isPositive();
    try (IndexSearch search = IndexSearch.open(index)) {
      assertThat(Epochs.load(search.reader()).setAside()).as("the fragment's start, on both paths").hasSize(1);
    }
    // Not only one rid for both sides: prefill lines, under a rid of their own, joined through the room.
    assertThat(link.byRole().prefillByRoom()).isPositive();
    assertThat(facts.values()).filteredOn(f -> f.prefillNode() != null && f.decodeNode() != null
        && !f.prefillNode().equals(f.decodeNode())).hasSizeGreaterThan((int) link.byRole().prefillByRoom() / 2);
  }

  /**
   * The index the driver builds of the job's Lucene shards holds the documents of {@code kvscope
   * ingest}'s index, field for field: the requests with their engine facts, the records of merged
   * requests and their text copies, engine lines, epochs, node hours, aliases, versions, node clocks
   * and a checkpoint per file read (the same path, size, hashes, records and bad lines).
   */
  @Test
  void theShardsHoldTheSingleMachineIndexsDocuments() throws IOException {
    Map<String, List<String>> spark = storedDocuments(summary.index());
    Map<String, List<String>> single = storedDocuments(index);

    assertThat(spark.keySet()).isEqualTo(single.keySet());
    single.forEach((id, fields) -> assertThat(spark.get(id)).as(id).isEqualTo(fields));
    Map<String, Long> types = single.values().stream().collect(Collectors.groupingBy(List::getFirst, TreeMap::new,
        Collectors.counting()));
    assertThat(types).containsKeys(Schema.DOC_TYPE + "=" + Schema.TYPE_REQUEST, Schema.DOC_TYPE + "=" + Schema.TYPE_REQUEST_SOURCE,
        Schema.DOC_TYPE + "=" + Schema.TYPE_ENGINE_EVENT, Schema.DOC_TYPE + "=" + Schema.TYPE_EPOCH,
        Schema.DOC_TYPE + "=" + Schema.TYPE_CHECKPOINT, Schema.DOC_TYPE + "=" + Schema.TYPE_NODE_CLOCK);
    assertThat(summary.shards()).first().asString().startsWith(ShardStage.REQUESTS);
    assertThat(summary.shards()).filteredOn(s -> s.startsWith(ShardStage.REQUESTS)).hasSizeGreaterThan(1);
  }

  /**
   * The requests' shards are cut where the merged requests' work, in request order, is halved (a
   * request weighing its texts' UTF-8 bytes and {@link ShardBounds#REQUEST_BYTES}): each shard holds the
   * request documents of its range.
   */
  @Test
  void theRequestsShardsAreCutByText() throws IOException {
    List<RequestRecord> inOrder = reference.merged().stream().sorted(Comparator
        .comparing((RequestRecord r) -> RequestOrder.of(r.startTime(), r.requestId())).thenComparing(RequestMerge::keyOf))
        .toList();
    long[] weights = inOrder.stream().mapToLong(r -> utf8Bytes(r.promptText()) + utf8Bytes(r.responseText()) + ShardBounds.REQUEST_BYTES).toArray();
    List<String> shards = ShardStage.requestShards(spark(), out);
    ShardBounds bounds = ShardBounds.cut(weights, 1, SharedSpark.session().sparkContext().defaultParallelism());
    long[] expected = new long[shards.size()];
    IntStream.range(0, inOrder.size()).forEach(ordinal -> expected[bounds.shardOf(ordinal)]++);

    long[] held = new long[shards.size()];
    for (int i = 0; i < shards.size(); i++) {
      try (org.apache.lucene.store.Directory directory = org.apache.lucene.store.FSDirectory.open(
              Path.of(out, ShardStage.FOLDER, shards.get(i)));
          org.apache.lucene.index.DirectoryReader reader = org.apache.lucene.index.DirectoryReader.open(directory)) {
        held[i] = new org.apache.lucene.search.IndexSearcher(reader).count(new org.apache.lucene.search.TermQuery(
            new org.apache.lucene.index.Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)));
      }
    }
    assertThat(held).containsExactly(expected);
  }

  /**
   * On their way to their shard the requests' texts cross one shuffle, the one into request order,
   * and meet no join by key with the merged requests' records: joined to them, the texts went
   * through a sort-merge join's shuffle by key whenever the planner could not see how few records
   * that is (4x), and adaptive execution made it a broadcast only after that shuffle was written.
   */
  @Test
  void theTextsCrossOneShuffleOnTheirWayToTheirShard() {
    SparkSession session = SharedSpark.session();
    int shards = session.sparkContext().defaultParallelism();
    org.apache.spark.sql.execution.SparkPlan plan = ShardStage.inRequestOrder(session, out,
        ShardBounds.of(session, out, shards), shards).queryExecution().executedPlan();
    if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec adaptive) {
      plan = adaptive.inputPlan(); // as planned, before adaptive execution changes a join whose sides already moved
    }
    assertThat(shufflesAboveScansOf(plan, MergeStage.FOLDER, 0)).containsExactly(1);
    assertThat(scanned(plan)).as("the merged requests' records are read from the few the merge set aside")
        .contains(MergeStage.MERGED_RECORDS).doesNotContain(IngestOutput.RECORDS.folder());
    assertThat(joinsOf(plan, MergeStage.FOLDER, MergeStage.MERGED_RECORDS)).isZero();
    assertThat(joinsOf(plan, MergeStage.FOLDER, FingerprintStage.ORDER_FOLDER)).as("not vacuous").isPositive();
  }

  /** For each scan of the folder {@code name} in {@code plan}, the shuffles between it and the root. */
  private static List<Integer> shufflesAboveScansOf(org.apache.spark.sql.execution.SparkPlan plan, String name,
      int above) {
    if (plan instanceof org.apache.spark.sql.execution.FileSourceScanExec) {
      return scanned(plan).contains(name) ? List.of(above) : List.of();
    }
    int shuffles = above + (plan instanceof org.apache.spark.sql.execution.exchange.ShuffleExchangeExec ? 1 : 0);
    return children(plan).stream().flatMap(child -> shufflesAboveScansOf(child, name, shuffles).stream()).toList();
  }

  /** The joins in {@code plan} with scans of both folders beneath them. */
  private static long joinsOf(org.apache.spark.sql.execution.SparkPlan plan, String one, String other) {
    long own = plan instanceof org.apache.spark.sql.execution.joins.BaseJoinExec
        && scanned(plan).containsAll(List.of(one, other)) ? 1 : 0;
    return own + children(plan).stream().mapToLong(child -> joinsOf(child, one, other)).sum();
  }

  /** The folders the scans in {@code plan} read, by name. */
  private static Set<String> scanned(org.apache.spark.sql.execution.SparkPlan plan) {
    Set<String> folders = new HashSet<>();
    if (plan instanceof org.apache.spark.sql.execution.FileSourceScanExec scan) {
      scala.jdk.javaapi.CollectionConverters.asJava(scan.relation().location().rootPaths())
          .forEach(path -> folders.add(path.getName()));
    }
    children(plan).forEach(child -> folders.addAll(scanned(child)));
    return folders;
  }

  private static List<org.apache.spark.sql.execution.SparkPlan> children(org.apache.spark.sql.execution.SparkPlan plan) {
    return scala.jdk.javaapi.CollectionConverters.asJava(plan.children());
  }

  private static long utf8Bytes(String text) {
    return text == null ? 0 : text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }

  /**
   * What the stored fields cannot show: every document's indexed terms are the single-machine
   * index's too, term for term with their positions (the words of the texts), their frequencies
   * and the documents they are in: the fingerprints, the identifiers, the keywords and the numbers'
   * points aside. Documents differ by id in what the failure names.
   */
  @Test
  void theShardsIndexTheSingleMachineIndexsTermsDocumentForDocument() throws IOException {
    Map<String, Map<String, Long>> spark = indexedTerms(summary.index());
    Map<String, Map<String, Long>> single = indexedTerms(index);

    assertThat(spark.keySet()).isEqualTo(single.keySet());
    single.forEach((id, fields) -> assertThat(spark.get(id)).as(id).isEqualTo(fields));
    // Not vacuous: requests carry words, fingerprints and identifiers.
    Set<String> indexed = single.values().stream().flatMap(fields -> fields.keySet().stream()).collect(Collectors.toSet());
    assertThat(indexed).contains(Schema.PROMPT_TEXT, Schema.RESPONSE_TEXT, Schema.IDENT_PROMPT, Schema.IDENT_RESPONSE,
        io.kvscope.index.fingerprint.FingerprintFields.PROMPT, io.kvscope.index.fingerprint.FingerprintFields.RESPONSE);
  }

  /**
   * For each live document (by id), each indexed field's hash of its terms in term order, with each
   * term's frequency and positions where the field keeps them, and of its point values: equal when
   * the document was indexed alike, whatever its document number.
   */
  private static Map<String, Map<String, Long>> indexedTerms(Path index) throws IOException {
    Map<String, Map<String, Long>> documents = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      for (org.apache.lucene.index.LeafReaderContext context : search.reader().leaves()) {
        org.apache.lucene.index.LeafReader leaf = context.reader();
        org.apache.lucene.util.Bits live = leaf.getLiveDocs();
        org.apache.lucene.index.StoredFields stored = leaf.storedFields();
        List<Map<String, Long>> byDoc = new ArrayList<>();
        for (int doc = 0; doc < leaf.maxDoc(); doc++) {
          Map<String, Long> fields = new TreeMap<>();
          byDoc.add(fields);
          if (live == null || live.get(doc)) {
            assertThat(documents.put(stored.document(doc, Set.of(Schema.ID)).get(Schema.ID), fields)).isNull();
          }
        }
        for (org.apache.lucene.index.FieldInfo field : leaf.getFieldInfos()) {
          addPoints(leaf, field.name, byDoc);
          org.apache.lucene.index.Terms terms = leaf.terms(field.name);
          if (terms == null) {
            continue;
          }
          boolean positions = field.getIndexOptions().compareTo(org.apache.lucene.index.IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
          org.apache.lucene.index.TermsEnum each = terms.iterator();
          org.apache.lucene.index.PostingsEnum postings = null;
          for (org.apache.lucene.util.BytesRef term = each.next(); term != null; term = each.next()) {
            long termHash = term.hashCode();
            postings = each.postings(postings, positions ? org.apache.lucene.index.PostingsEnum.POSITIONS
                : org.apache.lucene.index.PostingsEnum.FREQS);
            for (int doc = postings.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                doc = postings.nextDoc()) {
              long hash = termHash * 31 + postings.freq();
              for (int i = 0; positions && i < postings.freq(); i++) {
                hash = hash * 31 + postings.nextPosition();
              }
              long posting = hash;
              byDoc.get(doc).merge(field.name, posting, (sum, next) -> sum * 1_000_003 + next);
            }
          }
        }
      }
    }
    return documents;
  }

  /** Adds each document's point values of {@code field} (the fingerprints), in the ascending order a 1-D tree holds them. */
  private static void addPoints(org.apache.lucene.index.LeafReader leaf, String field, List<Map<String, Long>> byDoc)
      throws IOException {
    org.apache.lucene.index.PointValues points = leaf.getPointValues(field);
    if (points == null) {
      return;
    }
    points.intersect(new org.apache.lucene.index.PointValues.IntersectVisitor() {
      @Override
      public void visit(int doc) {
        throw new AssertionError("every value is asked for with its doc");
      }

      @Override
      public void visit(int doc, byte[] packed) {
        long value = java.util.Arrays.hashCode(packed);
        byDoc.get(doc).merge(field, value, (sum, next) -> sum * 1_000_003 + next);
      }

      @Override
      public org.apache.lucene.index.PointValues.Relation compare(byte[] min, byte[] max) {
        return org.apache.lucene.index.PointValues.Relation.CELL_CROSSES_QUERY;
      }
    });
  }

  /**
   * {@code kvscope analyze} on the index of the job's shards writes the report.json it writes on
   * {@code kvscope ingest}'s index: the same findings (kind, request, confidence, sources and their
   * attribution), summary, windows, tenants, coverage and evidence. Only when it was made, from which
   * index, and the parameters the analysis records (its timings among them) may differ.
   */
  @Test
  void theAnalysisOfTheShardsWritesTheSingleMachineReport(@TempDir Path reports) throws IOException {
    com.fasterxml.jackson.databind.JsonNode single = SameReport.assertSame(index, summary.index(), reports);

    assertThat(single.get("findings")).as("an incident with findings").hasSizeGreaterThan(10);
    assertThat(single.get("windows")).isNotEmpty();
  }

  /** Each live document's stored fields as {@code name=value}, in the order they were added, by id. */
  private static Map<String, List<String>> storedDocuments(Path index) throws IOException {
    Map<String, List<String>> documents = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      org.apache.lucene.index.IndexReader reader = search.reader();
      org.apache.lucene.util.Bits live = org.apache.lucene.index.MultiBits.getLiveDocs(reader);
      org.apache.lucene.index.StoredFields stored = reader.storedFields();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        org.apache.lucene.document.Document document = stored.document(doc);
        List<String> fields = document.getFields().stream().map(f -> f.name() + "="
            + (f.numericValue() != null ? f.numericValue() : f.stringValue())).toList();
        assertThat(documents.put(document.get(Schema.ID), fields)).as("one document of id " + document.get(Schema.ID))
            .isNull();
      }
    }
    return documents;
  }

  /**
   * The candidate pairs and their shared counts are the Lucene join's under the analysis' own
   * options and the same reach: kvscope's {@code FingerprintJoin} on the single-machine index, its
   * pair filter asking the model's {@code ReachRule} of the analysis' request columns (start, decode
   * node, each node's restarts on the gateway's clock as the index learned its clocks). Every request
   * counts as having written KV, as the Spark stage has it until the mechanisms come.
   */
  @Test
  void candidatePairsAreTheLuceneJoinsUnderTheSameReach() throws IOException {
    Map<Integer, String> keyOfOrdinal = new TreeMap<>();
    for (Row row : spark().read().parquet(out + "/" + FingerprintStage.ORDER_FOLDER).collectAsList()) {
      keyOfOrdinal.put(row.getAs("ordinal"), row.getAs(MergeStage.KEY));
    }
    Set<List<Object>> pairs = new HashSet<>();
    for (Row row : spark().read().parquet(out + "/" + PairStage.FOLDER).collectAsList()) {
      pairs.add(List.of(keyOfOrdinal.get(row.<Integer>getAs("recipient")), keyOfOrdinal.get(row.<Integer>getAs("source")),
          row.<Long>getAs("shared_prompt"), row.<Long>getAs("shared_response")));
    }

    Set<List<Object>> lucene = new HashSet<>();
    long withoutReach;
    try (IndexSearch search = IndexSearch.open(index)) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      RequestColumns columns = RequestColumns.load(context);
      long[][] restarts = new long[columns.nodeCount()][];
      for (int node = 0; node < restarts.length; node++) {
        restarts[node] = context.epochs().restarts(columns.nodeName(node));
      }
      ReachRule rule = new ReachRule(AnalysisOptions.DEFAULT_HORIZON.toMillis(), restarts);
      FingerprintJoin join = new FingerprintJoin(search.reader(), doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1);
      JoinOptions options = CrossTenantOverlap.generalJoin(summary.boilerplateCutoff());
      List<Candidate> candidates = new ArrayList<>();
      join.run(options, (recipient, source) -> columns.isRecipient(recipient) && columns.isRequest(source)
          && rule.reaches(columns.start(source), columns.decodeNode(source), true, columns.start(recipient),
              columns.decodeNode(recipient)), candidates::add);
      for (Candidate c : candidates) {
        lucene.add(List.of(keyOf(columns, c.recipientDoc()), keyOf(columns, c.sourceDoc()),
            (long) c.sharedWithSourcePrompt(), (long) c.sharedWithSourceResponse()));
      }
      withoutReach = join.run(options, PairFilter.ALL, candidate -> { }).candidates();
    }

    assertThat(lucene).isNotEmpty();
    assertThat(pairs).hasSize(lucene.size()).isEqualTo(lucene);
    assertThat(summary.join().pairs()).isEqualTo(lucene.size());
    assertThat(withoutReach).as("the reach rule removes pairs").isGreaterThan(lucene.size());
    assertThat(summary.join().salted()).as("popular fingerprints salted").isPositive();
  }

  private static String keyOf(RequestColumns columns, int doc) throws IOException {
    return RequestMerge.keyOf(RequestRecord.builder(columns.requestId(doc)).engineRid(columns.engineRid(doc)).build());
  }

  /** A request document read back as the analysis reads it: the record, and the engine facts joined on. */
  private record Linked(RequestRecord request, EngineFacts facts) {}

  private static Map<String, Linked> requestsOf(Path index) throws IOException {
    Map<String, Linked> requests = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      TypedDocs.forEach(search.reader(), Schema.TYPE_REQUEST, doc -> {
        RequestRecord request = Documents.readRequest(doc);
        requests.put(RequestMerge.keyOf(request), new Linked(request, Documents.readFacts(doc)));
      });
    }
    return requests;
  }

  /** A row of {@code fingerprints/}. */
  private record Fingerprint(long hash, byte side, int request, int tenant) {
    static final Comparator<Fingerprint> ORDER = Comparator.comparingInt(Fingerprint::request)
        .thenComparingInt(Fingerprint::side).thenComparingLong(Fingerprint::hash);
  }

  private List<Object> read(IngestOutput output) {
    return spark().read().schema(output.schema()).parquet(out + "/" + output.folder()).collectAsList().stream()
        .map(output::fromRow).toList();
  }

  private static List<Object> sorted(List<Object> items) {
    return items.stream().map(Ingested.class::cast).sorted(BY_SOURCE).map(Object.class::cast).toList();
  }

  /** Records of all kinds by where they were read; toString tells apart several from one line. */
  private static final Comparator<Ingested> BY_SOURCE = Comparator.comparing(Ingested::sourceFile)
      .thenComparingLong(Ingested::sourceLine).thenComparing(Object::toString);

  private static final Comparator<RequestRecord> BY_REQUEST = Comparator.comparing(RequestRecord::requestId)
      .thenComparing(r -> String.valueOf(r.sourceFile())).thenComparingLong(RequestRecord::sourceLine);

  /**
   * kvscope's ingest on one machine, file after file as {@code kvscope ingest} reads them: kvscope's
   * own outputs skipped, the format detected by content, implausible records quarantined.
   */
  private record SingleMachine(Map<String, String> formats, List<Ingested> items, List<Quarantined> quarantined) {

    /** The requests as the single-machine merge makes them. */
    List<RequestRecord> merged() {
      return items.stream().filter(RequestRecord.class::isInstance).map(RequestRecord.class::cast)
          .collect(Collectors.groupingBy(RequestMerge::keyOf)).values().stream().map(RequestMerge::merge).toList();
    }

    static SingleMachine ingest(Path root) throws IOException {
      Ingestors ingestors = Ingestors.discover();
      IngestOptions options = IngestOptions.defaults();
      Map<String, String> formats = new TreeMap<>();
      List<Ingested> items = new ArrayList<>();
      List<Quarantined> quarantined = new ArrayList<>();
      List<Path> files;
      try (Stream<Path> walk = Files.walk(root)) {
        files = walk.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path file : files) {
        InputFile input = new InputFile(file, file.toString(), 0);
        Sniff sniff = input.sniff();
        Optional<Ingestor> format = KvscopeOutputs.recognise(sniff).isPresent() ? Optional.empty()
            : ingestors.detect(sniff, options);
        if (format.isEmpty()) {
          continue;
        }
        formats.put(file.toString(), format.get().name());
        format.get().parse(input, options, new RecordSink() {
          @Override
          public void accept(Ingested item) {
            Plausibility.problem(item).ifPresentOrElse(
                problem -> malformed(new BadInput(input.name(), item.sourceLine(), problem), null), () -> items.add(item));
          }

          @Override
          public void malformed(BadInput bad, String raw) {
            quarantined.add(Quarantined.of(bad, raw));
          }
        });
      }
      quarantined.sort(Comparator.comparing(Quarantined::file).thenComparingLong(Quarantined::line));
      return new SingleMachine(formats, items, quarantined);
    }
  }

}
