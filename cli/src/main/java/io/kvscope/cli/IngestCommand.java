package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.MissingEvidence;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestSummary;
import io.kvscope.index.join.LinkSummary;
import io.kvscope.index.join.MergeSummary;
import io.kvscope.index.join.RoleJoin;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.Printable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = "Read gateway logs, traces and engine logs into an index. Formats are detected by content "
        + "(plain, .gz or .zst). Re-running adds nothing twice; an interrupted run resumes where it stopped. "
        + "Bad lines are reported as file:line and kept in <index>/quarantine; they fail the run only with "
        + "--strict. Exits 2 when the index still holds neither requests nor engine logs afterwards.")
final class IngestCommand implements Callable<Integer> {

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or folders (searched recursively).")
  List<Path> inputs;

  @Mixin
  IndexOption index;

  @Mixin
  IngestOptionsMixin ingestOptions;

  @Option(names = "--strict", description = "Exit 1 when any input was bad (default: report and go on).")
  boolean strict;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar and no bad-line messages on stderr "
      + "(the summary still counts them and lists the files).")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    IngestOptions options = ingestOptions.toOptions(this);
    Integer refused = refuse(inputs, index.path);
    if (refused != null) {
      return refused;
    }
    IngestSummary summary = ingest(index.path, inputs, options,
        new ProgressBarReporter(ProgressBarReporter.Steps.INGEST, System.err, quiet));
    print(summary, System.out);
    NodeSummary.print(index.path, System.out);
    List<MissingEvidence.Gap> gaps;
    try (IndexSearch search = IndexSearch.open(index.path)) {
      gaps = MissingEvidence.of(search, AnalysisOptions.defaults());
    }
    gaps.forEach(gap -> System.err.println("warning: " + Printable.text(gap.message())));
    var missing = gaps.stream().map(MissingEvidence.Gap::kind).toList();
    if (missing.contains(MissingEvidence.Kind.NO_REQUESTS) && missing.contains(MissingEvidence.Kind.NO_ENGINE_LOGS)) {
      System.err.println("kvscope: nothing usable was ingested from " + summary.filesSeen() + " file"
          + (summary.filesSeen() == 1 ? "" : "s") + (summary.unrecognized().isEmpty() ? ""
          : " (" + summary.unrecognized().size() + " in no format kvscope reads)"));
      return ExitCodes.ERROR;
    }
    return strict && summary.badRecords() > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
  }

  /**
   * Why {@code inputs} cannot be ingested into {@code indexDir}, said on stderr, as the exit code;
   * null when they can. Checked before the index is created: a typo must not leave an empty index
   * behind, and no data is not "no leak".
   */
  static Integer refuse(List<Path> inputs, Path indexDir) throws java.io.IOException {
    for (Path input : inputs) {
      if (!Files.exists(input)) {
        throw new NoSuchFileException(input.toString(), null, "no such file or folder to ingest");
      }
    }
    if (holdAnything(inputs)) {
      return null;
    }
    System.err.println("kvscope: nothing to ingest: " + (inputs.size() == 1 ? Printable.text(inputs.getFirst())
        + " holds" : "the " + inputs.size() + " folders hold") + " no files (folders are searched recursively); "
        + (IndexStore.exists(indexDir) ? "the index " + Printable.text(indexDir) + " is unchanged"
        : "no index was created"));
    return ExitCodes.ERROR;
  }

  /** Whether any input is, or holds at any depth, something other than a folder (a file, a link). */
  private static boolean holdAnything(List<Path> inputs) throws java.io.IOException {
    for (Path input : inputs) {
      if (!Files.isDirectory(input, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
      try (var tree = Files.walk(input)) {
        if (tree.anyMatch(p -> !Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Ingests and links; shared by {@code demo}. */
  static IngestSummary ingest(Path indexDir, List<Path> inputs, IngestOptions options, ProgressBarReporter progress)
      throws java.io.IOException {
    try (IndexStore store = IndexStore.open(indexDir)) {
      return new IndexIngest(store, Ingestors.discover(), options, progress, Clock.systemUTC()).run(inputs);
    }
  }

  /** Files listed on the problem list; the rest are counted (all bad lines are in quarantine). */
  static final int MAX_PROBLEM_FILES = 50;

  /** The per-file problem list: every file with bad lines or skipped whole, one line each. */
  private static void printProblems(IngestSummary s, PrintStream out) {
    if (s.problems().isEmpty()) {
      return;
    }
    out.printf("Problems by file (%,d file%s):%n", s.problems().size(), s.problems().size() == 1 ? "" : "s");
    s.problems().stream().limit(MAX_PROBLEM_FILES)
        .forEach(p -> out.println("  " + Printable.text(p.file()) + ": " + Printable.text(p.describe())));
    if (s.problems().size() > MAX_PROBLEM_FILES) {
      out.printf("  ... and %,d more files%n", s.problems().size() - MAX_PROBLEM_FILES);
    }
  }

  private static String joined(List<String> values) {
    return String.join(", ", values.stream().map(Printable::text).toList());
  }

  /** Records of one request from several files or sources: merged, never replacing each other. */
  private static void printMerge(MergeSummary m, PrintStream out) {
    out.printf("  records merged into requests already read: %,d (exact copies %,d; requests that gained records %,d)%n",
        m.recordsMerged(), m.identicalCopies(), m.requestsMerged());
    if (m.requestsWithConflicts() > 0) {
      out.printf("  requests whose records disagree: %,d (kept by the merge rules; search merge_conflicts:[1 TO *])%n",
          m.requestsWithConflicts());
      m.conflictSamples().forEach(sample -> out.println("    " + Printable.text(sample)));
    }
  }

  static void print(IngestSummary s, PrintStream out) {
    out.printf("Ingested %d of %d files (%d unchanged since last run) in %.1f s%s%n",
        s.filesIngested(), s.filesSeen(), s.filesUnchanged(), s.elapsedMillis() / 1000.0,
        s.bytesRead() == 0 ? "" : String.format(", %.1f MB read at %.1f MB/s", s.bytesRead() / 1e6, s.megabytesPerSecond()));
    for (Map.Entry<String, Long> format : s.recordsByFormat().entrySet()) {
      out.printf("  %-20s %,12d records%n", format.getKey(), format.getValue());
    }
    // Sorted by name: the same order every run, so two runs' outputs compare line by line.
    out.printf("  written: %s%n", new java.util.TreeMap<>(s.itemsByType()).entrySet().stream()
        .map(e -> String.format("%,d %s", e.getValue(), e.getKey())).collect(java.util.stream.Collectors.joining(", ")));
    printMerge(s.merge(), out);
    out.printf("  bad records: %,d%s%n", s.badRecords(),
        s.quarantine() == null ? "" : " (raw lines in " + Printable.text(s.quarantine()) + ")");
    if (!s.unrecognized().isEmpty()) {
      out.printf("  unrecognized files (no format matched): %d, e.g. %s%n", s.unrecognized().size(),
          s.unrecognized().subList(0, Math.min(3, s.unrecognized().size())).stream().map(Printable::text).toList());
    }
    if (!s.ownOutputs().isEmpty()) {
      out.printf("  kvscope output, not evidence: %,d skipped, e.g. %s%n", s.ownOutputs().size(),
          joined(s.ownOutputs().subList(0, Math.min(3, s.ownOutputs().size()))));
    }
    printProblems(s, out);
    LinkSummary link = s.link();
    if (link != null) {
      // No request, no rate: "0 of 0 (100.0%)" would read as a perfect join.
      out.printf("Join gateway <-> engine: %,d of %,d %s%s; gateway-only %,d, engine-only rids %,d%n",
          link.joined(), link.requests(), link.requests() == 1 ? "request" : "requests",
          link.requests() == 0 ? "" : String.format(" (%.1f%%)", 100 * link.joinRate()), link.gatewayOnly(),
          link.engineOnlyRids());
      printRoles(link, out);
      if (!link.gatewayOnlySample().isEmpty()) {
        out.println("  gateway-only sample: " + joined(link.gatewayOnlySample()));
      }
      if (!link.engineOnlySample().isEmpty()) {
        out.println("  engine-only sample: " + joined(link.engineOnlySample()));
      }
    }
  }

  /** The join per engine role: which side reached the requests, how, and what no request claimed. */
  private static void printRoles(LinkSummary link, PrintStream out) {
    RoleJoin roles = link.byRole();
    out.printf("  decode side: %,d requests by the gateway's rid%n", roles.decodeByRid());
    out.printf("  prefill side: %,d through the bootstrap room, %,d by the same rid%n", roles.prefillByRoom(),
        roles.prefillByRid());
    if (roles.unifiedByRid() > 0) {
      out.printf("  unified (not disaggregated): %,d by the gateway's rid%n", roles.unifiedByRid());
    }
    if (link.ambiguousRooms() > 0) {
      out.printf("  ambiguous bootstrap rooms (more rids than one pair, or a rid another request claims;"
          + " every unclaimed rid joined): %,d%n",
          link.ambiguousRooms());
    }
    roles.unmatchedRids().forEach((role, count) -> out.printf("  unmatched %s rids: %,d, e.g. %s%n",
        role.name().toLowerCase(java.util.Locale.ROOT), count, joined(roles.unmatchedSample().get(role))));
  }
}
