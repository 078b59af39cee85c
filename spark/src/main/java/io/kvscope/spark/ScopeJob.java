package io.kvscope.spark;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.UserAliases;
import io.kvscope.ingest.record.NodeAlias;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.spark.sql.SparkSession;

/**
 * The stages built so far, in order: plan the inputs, ingest, merge, the PD join with each
 * request's engine facts, the request order, the requests' Lucene shards with their fingerprints
 * (one pass over the texts), the fingerprints' frequencies and the learned boilerplate cut-off,
 * what the reach rule reads of each request, the fingerprint self-join with that rule pushed in,
 * and the other outputs' Lucene shards; the reach and the other shards run beside the texts' pass
 * ({@link BesideStages}). Each writes under the output folder, which is created owner-only
 * (its quarantine and records hold prompts). When that folder is on the driver's file system, the
 * driver then adds the shards into one kvscope index, {@code OUT/index}, with the quarantine beside
 * them as an ingest keeps it, which {@code kvscope scope} analyses. Spark's task metrics for each stage go to {@code OUT/metrics/stages.csv} ({@link StageMetrics}).
 *
 * <p>{@link #main} runs them: {@code ScopeJob INPUT... --out DIR [--master URL]} with the ingest
 * options of {@link JobArguments} prints each stage's wall and CPU seconds (the whole JVM's CPU: exact in {@code local[N]}). Under
 * {@code spark-submit} the master is submit's own {@code --master}.
 */
public final class ScopeJob {

  private final SparkSession spark;
  private final IngestSettings settings;
  /** The user's {@code --node-alias} settings, which join the aliases read from the files. */
  private final List<NodeAlias> userAliases;
  private final long saltWork;

  public ScopeJob(SparkSession spark, IngestOptions options) {
    this(spark, options, PairStage.SALT_WORK);
  }

  /** @param saltWork pair updates one group of the self-join takes before a fingerprint is salted */
  public ScopeJob(SparkSession spark, IngestOptions options, long saltWork) {
    this.spark = spark;
    this.settings = IngestSettings.of(options);
    this.userAliases = UserAliases.records(options.nodeAliases());
    this.saltWork = saltWork;
  }

  /**
   * What a run did: files per outcome, keys merged, requests with engine facts, requests,
   * fingerprint rows, shared fingerprints, the learned boilerplate cut-off, what the self-join did,
   * and the seconds of each stage.
   */
  public record Summary(int files, int read, int skipped, int unreadable, long mergedKeys, long linkedRequests, long requests,
      long fingerprintRows, long sharedFingerprints, int boilerplateCutoff, PairStage.Result join,
      List<String> shards, java.nio.file.Path index, Map<String, StageTime> stages) {}

  /** Wall and CPU seconds of one stage. */
  public record StageTime(double wallSeconds, double cpuSeconds) {}

  public Summary run(List<String> inputs, String out) throws IOException {
    ownerOnlyFolder(out);
    StageMetrics metrics = StageMetrics.listen(spark.sparkContext());
    try {
      return run(inputs, out, metrics);
    } finally {
      metrics.close();
    }
  }

  /** The stages, each timed and its tasks counted under its name; then the metrics file. */
  private Summary run(List<String> inputs, String out, StageMetrics metrics) throws IOException {
    Map<String, StageTime> times = new LinkedHashMap<>();
    Clock clock = new Clock();
    metrics.begin("plan");
    List<PlannedFile> planned = InputPlan.run(spark, inputs, settings, out);
    times.put("plan", clock.lap());
    try (ShufflePartitions sized = ShufflePartitions.sizeTo(spark, planned)) {
      return run(planned, out, metrics, times, clock);
    }
  }

  private Summary run(List<PlannedFile> planned, String out, StageMetrics metrics, Map<String, StageTime> times,
      Clock clock) throws IOException {
    metrics.begin("ingest");
    IngestStage.Pass ingested = IngestStage.run(spark, planned, settings, userAliases, out);
    // The other shards need only the ingest's outputs, the reach only the order: both run beside
    // the main line (BesideStages), on the cores it leaves idle.
    try (ingested; BesideStages beside = BesideStages.start(spark, metrics)) {
      ShardStage.clear(spark, out);
      times.put("ingest", clock.lap());
      Future<List<String>> others = beside.submit("other shards", () -> ShardStage.others(spark, out));
      metrics.begin("merge");
      long mergedKeys = MergeStage.run(spark, ingested.records(), out);
      ingested.close(); // the merge was its last reader
      times.put("merge", clock.lap());
      metrics.begin("engine facts");
      long linked = EngineFactsStage.run(spark, out);
      times.put("engine facts", clock.lap());
      metrics.begin("order");
      FingerprintStage.order(spark, out);
      times.put("order", clock.lap());
      Future<ReachStage.Nodes> reach = beside.submit("reach", () -> ReachStage.run(spark, out));
      // Each text is read once for its fingerprints and its request's document.
      metrics.begin("request shards");
      ShardStage.requests(spark, out);
      times.put("request shards", clock.lap());
      metrics.begin("frequencies");
      FingerprintStage.Result fingerprints = FingerprintStage.frequencies(spark, out);
      times.put("frequencies", clock.lap());
      ReachStage.Nodes nodes = BesideStages.result(reach);
      times.put("reach", clock.lap());
      metrics.begin("pairs");
      JoinOptions general = CrossTenantOverlap.generalJoin(fingerprints.cutoff());
      long horizon = AnalysisOptions.DEFAULT_HORIZON.toMillis();
      PairStage.Result join = PairStage.run(spark, out, general, nodes, horizon, saltWork, fingerprints.requests());
      times.put("pairs", clock.lap());
      // Stage 10: each pair's runs, found where its texts lie (the requests' shards), at the default --min-span.
      metrics.begin("verify");
      int minSpan = AnalysisOptions.DEFAULT_MIN_SPAN_TOKENS;
      VerifyStage.run(spark, out, minSpan);
      times.put("verify", clock.lap());
      List<String> shards = new ArrayList<>(ShardStage.requestShards(spark, out));
      shards.addAll(BesideStages.result(others));
      times.put("other shards", clock.lap());
      java.nio.file.Path index = null;
      if (ShardIndex.local(out)) {
        metrics.begin("index");
        index = ShardIndex.folderOf(out);
        ShardIndex.build(spark.sparkContext().hadoopConfiguration(), out, shards, nodes, index);
        IndexQuarantine.write(spark, out, index, System.currentTimeMillis());
        times.put("index", clock.lap());
        // The self-join's pairs in the index's document ids, for the analysis of that index.
        metrics.begin("pairs file");
        DriverPairs.IndexDocs docs = DriverPairs.IndexDocs.of(spark, out, index, fingerprints.requests());
        DriverPairs.write(spark, out, docs, general, horizon, join, fingerprints);
        times.put("pairs file", clock.lap());
        metrics.begin("runs file");
        DriverRuns.write(spark, out, docs, general, minSpan);
        times.put("runs file", clock.lap());
      }
      metrics.write(metrics.rows(times, join), out);
      return new Summary(planned.size(), (int) planned.stream().filter(f -> f.format() != null).count(),
          (int) planned.stream().filter(f -> f.skippedBecause() != null).count(),
          (int) planned.stream().filter(f -> f.unreadable() != null).count(), mergedKeys, linked, fingerprints.requests(),
          fingerprints.fingerprintRows(), fingerprints.histogram().totalTerms(), fingerprints.cutoff(), join, shards, index,
          times);
    }
  }

  private void ownerOnlyFolder(String out) throws IOException {
    Path folder = new Path(out);
    FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
    fs.mkdirs(folder);
    fs.setPermission(folder, new FsPermission((short) 0700));
  }

  /** Laps of wall time and of this JVM's CPU time. */
  private static final class Clock {
    private final com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wall = System.nanoTime();
    private long cpu = os.getProcessCpuTime();

    StageTime lap() {
      long nowWall = System.nanoTime();
      long nowCpu = os.getProcessCpuTime();
      StageTime time = new StageTime((nowWall - wall) / 1e9, (nowCpu - cpu) / 1e9);
      wall = nowWall;
      cpu = nowCpu;
      return time;
    }
  }

  /** Runs the stages on a session of its own; see the class comment. */
  public static void main(String[] args) throws IOException {
    JobArguments arguments;
    try {
      // spark-submit passes its --master to the driver as this property.
      arguments = JobArguments.parse(args, System.getProperty("spark.master", "local[*]"));
    } catch (IllegalArgumentException usage) {
      System.err.println("ScopeJob: " + usage.getMessage());
      System.err.println(JobArguments.USAGE);
      System.exit(2);
      return;
    }
    Clock clock = new Clock();
    SparkSession spark = Sessions.builder(arguments.master()).getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    StageTime start = clock.lap();
    try {
      Summary summary = new ScopeJob(spark, arguments.ingest(), arguments.saltWork()).run(arguments.inputs(), arguments.out());
      System.out.printf("files %d: read %d, skipped %d, unreadable %d; keys merged %d%n", summary.files(),
          summary.read(), summary.skipped(), summary.unreadable(), summary.mergedKeys());
      System.out.printf("requests %d, %d with engine facts; fingerprint rows %d, shared %d; boilerplate cut-off %d tenants%n",
          summary.requests(), summary.linkedRequests(), summary.fingerprintRows(), summary.sharedFingerprints(), summary.boilerplateCutoff());
      PairStage.Result join = summary.join();
      System.out.printf("pairs %d; fingerprints joined %d (salted %d), skipped as boilerplate %d, by the pair bound %d%n",
          join.pairs(), join.joined(), join.salted(), join.skippedBoilerplate(), join.skippedByPairs());
      System.out.printf("pair tests %d, pair updates %d; per stage: %s%n", join.tests(), join.updates(),
          arguments.out() + "/" + StageMetrics.FOLDER + "/" + StageMetrics.FILE);
      System.out.printf("shards %d; index %s%n", summary.shards().size(),
          summary.index() == null ? "not made (the output folder is not on this machine)" : summary.index());
      System.out.printf("%-13s %8.1f wall s %8.1f CPU s%n", "session", start.wallSeconds(), start.cpuSeconds());
      summary.stages().forEach((stage, time) ->
          System.out.printf("%-13s %8.1f wall s %8.1f CPU s%n", stage, time.wallSeconds(), time.cpuSeconds()));
    } finally {
      spark.stop();
    }
  }
}
