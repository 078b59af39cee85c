#!/usr/bin/env bash
# The driver's analysis of a `kvscope scope` output folder, before and after it took the cluster's
# candidate pairs and boilerplate histogram: the standard analysis of OUT/index in one of three modes,
# alternating, in a JVM of its own each, the JVM's CPU around the analysis and /usr/bin/time's:
#   index  the index's own Lucene join and frequency walk (what `kvscope analyze --index OUT/index` runs)
#   walk   the job's OUT/pairs.arrow for the pairs, the index's walk for the cut-off (`scope` before 2026-12-07, later)
#   pairs  the job's OUT/pairs.arrow for both, the candidates verified on the index's texts (`scope` before stage 10)
#   runs   as pairs, with the candidates' runs from the job's OUT/runs.arrow (what `scope` runs since 2026-12-07, session 15)
#   scope  what `scope` runs after its job: the pairs file's analysis (with OUT/runs.arrow when it is there), the
#          exposure summary and every report file (AnalyzeCommand.analyzeAndReport, redacted, to OUT/bench-pairs/scope-RUN/)
#   minimums  no analysis: every (pair, side) of OUT/pairs.arrow verified at the general join's minimum
#          (2T) and at the focused pass's (PassageRules.MIN_WORDS, then the runs of 2T or more kept);
#          prints how many give the same runs (docs/spark.md, "10. Span verification")
#   histogram  no analysis: the cut-off's histogram alone, from the index's walk and from the file,
#          alternating, 5 times each in one JVM (after loading the request columns), CPU per call
#
#   bench/scope-pairs.sh OUT [RUNS] [MODES]   e.g. ./kvscope scope INCIDENT --out /tmp/scoped; bench/scope-pairs.sh /tmp/scoped 2 'walk pairs'
#
# SCOPE_PAIRS_JAR=FILE runs another build's kvscope.jar (a copy with its lib/ beside it) for before/after pairs,
# SCOPE_PAIRS_THREADS=N the analysis on N threads (AnalysisOptions.withThreads, where the build has it) and
# SCOPE_PAIRS_TAG=NAME names the runs' files NAME-MODE-RUN instead of MODE-RUN.
#
# With SCOPE_PAIRS_PROFILE=1 each run is also recorded by JFR (settings=profile, OUT/bench-pairs/MODE-RUN.jfr)
# and watched by bench/thread-cpu.sh (MODE-RUN.cpu: CPU s per thread group), and bench/jfr-phases.py
# prints the main thread's samples by phase of the analysis.
#
# Prints per run: where the candidates came from, the analysis' CPU and wall seconds, the process's
# CPU seconds and max RSS, and the report's own breakdown (cross-tenant-overlap.cpu_seconds, .join,
# .candidate_pairs). The reports go to OUT/bench-pairs/, for comparing the two.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$(cd "$1" && pwd)"
runs="${2:-2}"
modes="${3:-index walk pairs}"
source "$here/cli/src/dist/bin/jdk.sh"
kvscope_find_jdk || { echo "scope-pairs.sh: needs a JDK 21 or newer" >&2; exit 2; }
"$here/kvscope" --version >/dev/null # builds the CLI when its sources changed
work="$out/bench-pairs"
mkdir -p "$work"
cat > "$work/ScopePairs.java" <<'JAVA'
import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.JoinStats;
import java.util.LinkedHashMap;
import java.util.Map;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

public class ScopePairs {
  public static void main(String[] args) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Path out = Path.of(args[0]);
    PairsFile file = PairsFile.at(out.resolve(PairsFile.FILE_NAME));
    CandidatePairs pairs = switch (args[1]) {
      case "index" -> CandidatePairs.INDEX_JOIN;
      case "pairs" -> file;
      case "runs" -> file.withRuns(RunsFile.at(out.resolve(RunsFile.FILE_NAME)));
      case "walk" -> new CandidatePairs() { // the file's pairs, the index's frequency walk
        public FrequencyHistogram frequencies(AnalysisContext context, FingerprintJoin join) throws java.io.IOException {
          return CandidatePairs.INDEX_JOIN.frequencies(context, join);
        }

        public Started start(AnalysisContext context, FingerprintJoin join, JoinOptions options, PairFilter filter)
            throws java.io.IOException {
          Started started = file.start(context, join, options, filter);
          return new Started() {
            public JoinStats emit(CandidateSink sink) throws java.io.IOException {
              return started.emit(sink);
            }

            public long walkCpuNanos() {
              return started.walkCpuNanos();
            }

            public Map<String, Object> origin() {
              Map<String, Object> origin = new LinkedHashMap<>(started.origin());
              origin.put("tenant_frequencies", "index walk");
              return origin;
            }

            public void close() throws java.io.IOException {
              started.close();
            }
          };
        }
      };
      case "histogram", "scope", "minimums" -> null;
      default -> throw new IllegalArgumentException("mode index, walk, pairs, runs, scope, minimums or histogram: "
          + args[1]);
    };
    if (args[1].equals("minimums")) {
      minimums(out);
      return;
    }
    if (args[1].equals("scope")) {
      Path runs = out.resolve(RunsFile.FILE_NAME);
      scope(out, java.nio.file.Files.exists(runs) ? file.withRuns(RunsFile.at(runs)) : file,
          Path.of(args[2].replaceFirst("\\.json$", "")), os);
      return;
    }
    if (pairs == null) {
      histograms(out, file, os);
      return;
    }
    long cpu = os.getProcessCpuTime();
    long wall = System.nanoTime();
    Report report;
    try (IndexSearch search = IndexSearch.open(out.resolve("index"))) {
      report = Analysis.standard(pairs).run(search, options(), Analysis.Progress.NONE);
    }
    System.out.printf("analysis %.1f CPU s, %.1f wall s; findings %d%n", (os.getProcessCpuTime() - cpu) / 1e9,
        (System.nanoTime() - wall) / 1e9, report.findings().size());
    for (String key : new String[] {"boilerplate_tenant_cutoff", "cpu_seconds", "join", "candidate_pairs"}) {
      System.out.println("  " + key + " " + report.parameters().get("cross-tenant-overlap." + key));
    }
    ReportJson.write(report, Path.of(args[2]));
  }

  /** The defaults, on SCOPE_PAIRS_THREADS threads when set (by reflection: a build from before the option has none). */
  static AnalysisOptions options() throws Exception {
    String threads = System.getenv("SCOPE_PAIRS_THREADS");
    return threads == null || threads.isEmpty() ? AnalysisOptions.defaults()
        : (AnalysisOptions) AnalysisOptions.class.getMethod("withThreads", int.class)
            .invoke(AnalysisOptions.defaults(), Integer.parseInt(threads));
  }

  /** `scope`'s own step after the job, through the CLI's package-private entry point. */
  static void scope(Path out, PairsFile file, Path reports, com.sun.management.OperatingSystemMXBean os)
      throws Exception {
    Class<?> destination = Class.forName("io.kvscope.cli.ReportDestination");
    java.lang.reflect.Method redacted = destination.getDeclaredMethod("redacted", Path.class);
    redacted.setAccessible(true);
    java.lang.reflect.Method analyze = Class.forName("io.kvscope.cli.AnalyzeCommand").getDeclaredMethod(
        "analyzeAndReport", Path.class, AnalysisOptions.class, CandidatePairs.class, destination, boolean.class);
    analyze.setAccessible(true);
    long cpu = os.getProcessCpuTime();
    long wall = System.nanoTime();
    Object status = analyze.invoke(null, out.resolve("index"), options(), file,
        redacted.invoke(null, reports), true);
    System.out.printf("analysis %.1f CPU s, %.1f wall s, with the summary and the report files; exit %s%n",
        (os.getProcessCpuTime() - cpu) / 1e9, (System.nanoTime() - wall) / 1e9, status);
  }

  /** Whether the runs found at MIN_WORDS, cut to 2T, are the runs found at 2T, for the file's pairs. */
  static void minimums(Path out) throws Exception {
    try (IndexSearch search = IndexSearch.open(out.resolve("index"));
        org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
        java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(out.resolve(PairsFile.FILE_NAME));
        org.apache.arrow.vector.ipc.ArrowFileReader reader = new org.apache.arrow.vector.ipc.ArrowFileReader(channel,
            allocator)) {
      io.kvscope.model.fingerprint.FingerprintConfig config = search.fingerprints();
      int general = 2 * config.threshold();
      int focused = io.kvscope.model.evidence.PassageRules.MIN_WORDS;
      var verifier = new io.kvscope.model.fingerprint.SpanVerifier(config);
      var stored = search.reader().storedFields();
      long compared = 0, same = 0, runs = 0;
      while (reader.loadNextBatch()) {
        var root = reader.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          int recipient = ((org.apache.arrow.vector.IntVector) root.getVector("recipient_doc")).get(i);
          int source = ((org.apache.arrow.vector.IntVector) root.getVector("source_doc")).get(i);
          String reply = stored.document(recipient, java.util.Set.of(io.kvscope.index.doc.Schema.RESPONSE_TEXT))
              .get(io.kvscope.index.doc.Schema.RESPONSE_TEXT);
          if (reply == null) {
            continue;
          }
          var response = io.kvscope.model.fingerprint.WordTokenizer.tokenize(reply);
          for (String side : new String[] {"shared_prompt", "shared_response"}) {
            String field = side.equals("shared_prompt") ? io.kvscope.index.doc.Schema.PROMPT_TEXT
                : io.kvscope.index.doc.Schema.RESPONSE_TEXT;
            String text = ((org.apache.arrow.vector.IntVector) root.getVector(side)).get(i) == 0 ? null
                : stored.document(source, java.util.Set.of(field)).get(field);
            if (text == null) {
              continue;
            }
            var tokens = io.kvscope.model.fingerprint.WordTokenizer.tokenize(text);
            var atGeneral = parts(verifier.verify(response, tokens, general), general);
            var atFocused = parts(verifier.verify(response, tokens, focused), general);
            compared++;
            runs += atGeneral.size();
            same += atGeneral.equals(atFocused) ? 1 : 0;
          }
        }
      }
      System.out.printf("minimums: %d (pair, side) verified, %d give the same runs at %d as at %d cut to %d;"
          + " %d runs at %d%n", compared, same, general, focused, general, runs, general);
    }
  }

  static java.util.List<io.kvscope.model.fingerprint.SpanMatch> parts(
      java.util.List<io.kvscope.model.fingerprint.SharedSpan> spans, int min) {
    return spans.stream().flatMap(span -> span.parts().stream()).filter(part -> part.tokenCount() >= min)
        .sorted(java.util.Comparator.comparing(Object::toString)).toList();
  }

  static void histograms(Path out, PairsFile file, com.sun.management.OperatingSystemMXBean os) throws Exception {
    try (IndexSearch search = IndexSearch.open(out.resolve("index"))) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      RequestColumns columns = context.requestColumns();
      FingerprintJoin join = new FingerprintJoin(search.reader(),
          doc -> columns.isSource(doc) || columns.copy(doc) != null ? columns.tenant(doc) : -1);
      StringBuilder line = new StringBuilder("histogram CPU s per call:");
      for (int round = 0; round < 5; round++) {
        for (CandidatePairs from : new CandidatePairs[] {CandidatePairs.INDEX_JOIN, file}) {
          long cpu = os.getProcessCpuTime();
          FrequencyHistogram histogram = from.frequencies(context, join);
          line.append(String.format(" %s %.3f (%d);", from == file ? "file" : "walk",
              (os.getProcessCpuTime() - cpu) / 1e9, histogram.totalTerms()));
        }
      }
      System.out.println(line);
    }
  }
}
JAVA
mapfile -t flags < <(kvscope_jvm_flags)
jar="${SCOPE_PAIRS_JAR:-$here/cli/target/kvscope.jar}"
for run in $(seq 1 "$runs"); do
  for m in $modes; do
    mode="${SCOPE_PAIRS_TAG:+$SCOPE_PAIRS_TAG-}$m" # names the runs' files; $m is the analysis' mode
    profile=()
    watch=()
    if [ "${SCOPE_PAIRS_PROFILE:-0}" = 1 ]; then
      profile=("-XX:StartFlightRecording=filename=$work/$mode-$run.jfr,settings=profile")
      watch=("$here/bench/thread-cpu.sh" "$work/$mode-$run.cpu")
    fi
    ${watch[@]+"${watch[@]}"} /usr/bin/time -o "$work/$mode-$run.time" -f '%U %S %M' "$JAVA_HOME/bin/java" \
      "${flags[@]}" ${profile[@]+"${profile[@]}"} \
      --add-modules jdk.incubator.vector -cp "$jar" "$work/ScopePairs.java" \
      "$out" "$m" "$work/$mode-$run.json" > "$work/$mode-$run.out" 2> "$work/$mode-$run.err"
    read -r user sys rss < "$work/$mode-$run.time"
    echo "run $run, mode $mode: $(grep -m1 -E '^(analysis|histogram|minimums)[ :]' "$work/$mode-$run.out");" \
      "process $(echo "$user + $sys" | bc) CPU s, max RSS $((rss / 1024)) MB"
    grep -E '^  (boilerplate_tenant_cutoff|cpu_seconds|join|candidate_pairs) ' "$work/$mode-$run.out" || true
    if [ "${SCOPE_PAIRS_PROFILE:-0}" = 1 ]; then
      echo "  CPU s per thread group: $(head -6 "$work/$mode-$run.cpu" | awk '{ $1 = $1; print }' | paste -sd ';')"
      python3 "$here/bench/jfr-phases.py" "$work/$mode-$run.jfr" "$JAVA_HOME" | sed 's/^/  /'
    fi
  done
done
