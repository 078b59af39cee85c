#!/usr/bin/env bash
# The driver's analysis of a `kvscope scope` output folder, before and after it took the cluster's
# candidate pairs and boilerplate histogram: the standard analysis of OUT/index in one of three modes,
# alternating, in a JVM of its own each, the JVM's CPU around the analysis and /usr/bin/time's:
#   index  the index's own Lucene join and frequency walk (what `kvscope analyze --index OUT/index` runs)
#   walk   the job's OUT/pairs.arrow for the pairs, the index's walk for the cut-off (`scope` before 2026-12-07, later)
#   pairs  the job's OUT/pairs.arrow for both (what `scope` runs)
#   scope  what `scope` runs after its job: the pairs file's analysis, the exposure summary and every report
#          file (AnalyzeCommand.analyzeAndReport, redacted, to OUT/bench-pairs/scope-RUN/)
#   histogram  no analysis: the cut-off's histogram alone, from the index's walk and from the file,
#          alternating, 5 times each in one JVM (after loading the request columns), CPU per call
#
#   bench/scope-pairs.sh OUT [RUNS] [MODES]   e.g. ./kvscope scope INCIDENT --out /tmp/scoped; bench/scope-pairs.sh /tmp/scoped 2 'walk pairs'
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
      case "histogram", "scope" -> null;
      default -> throw new IllegalArgumentException("mode index, walk, pairs or histogram: " + args[1]);
    };
    if (args[1].equals("scope")) {
      scope(out, file, Path.of(args[2].replaceFirst("\\.json$", "")), os);
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
      report = Analysis.standard(pairs).run(search, AnalysisOptions.defaults(), Analysis.Progress.NONE);
    }
    System.out.printf("analysis %.1f CPU s, %.1f wall s; findings %d%n", (os.getProcessCpuTime() - cpu) / 1e9,
        (System.nanoTime() - wall) / 1e9, report.findings().size());
    for (String key : new String[] {"boilerplate_tenant_cutoff", "cpu_seconds", "join", "candidate_pairs"}) {
      System.out.println("  " + key + " " + report.parameters().get("cross-tenant-overlap." + key));
    }
    ReportJson.write(report, Path.of(args[2]));
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
    Object status = analyze.invoke(null, out.resolve("index"), AnalysisOptions.defaults(), file,
        redacted.invoke(null, reports), true);
    System.out.printf("analysis %.1f CPU s, %.1f wall s, with the summary and the report files; exit %s%n",
        (os.getProcessCpuTime() - cpu) / 1e9, (System.nanoTime() - wall) / 1e9, status);
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
for run in $(seq 1 "$runs"); do
  for mode in $modes; do
    profile=()
    watch=()
    if [ "${SCOPE_PAIRS_PROFILE:-0}" = 1 ]; then
      profile=("-XX:StartFlightRecording=filename=$work/$mode-$run.jfr,settings=profile")
      watch=("$here/bench/thread-cpu.sh" "$work/$mode-$run.cpu")
    fi
    ${watch[@]+"${watch[@]}"} /usr/bin/time -o "$work/$mode-$run.time" -f '%U %S %M' "$JAVA_HOME/bin/java" \
      "${flags[@]}" ${profile[@]+"${profile[@]}"} \
      --add-modules jdk.incubator.vector -cp "$here/cli/target/kvscope.jar" "$work/ScopePairs.java" \
      "$out" "$mode" "$work/$mode-$run.json" > "$work/$mode-$run.out" 2> "$work/$mode-$run.err"
    read -r user sys rss < "$work/$mode-$run.time"
    echo "run $run, mode $mode: $(grep -m1 -E '^(analysis|histogram) ' "$work/$mode-$run.out");" \
      "process $(echo "$user + $sys" | bc) CPU s, max RSS $((rss / 1024)) MB"
    grep -E '^  (boilerplate_tenant_cutoff|cpu_seconds|join|candidate_pairs) ' "$work/$mode-$run.out" || true
    if [ "${SCOPE_PAIRS_PROFILE:-0}" = 1 ]; then
      echo "  CPU s per thread group: $(head -6 "$work/$mode-$run.cpu" | awk '{ $1 = $1; print }' | paste -sd ';')"
      python3 "$here/bench/jfr-phases.py" "$work/$mode-$run.jfr" "$JAVA_HOME" | sed 's/^/  /'
    fi
  done
done
