#!/usr/bin/env bash
# The Spark job stage by stage, beside the single-machine path, on the same generated incidents.
#
#   bench/spark.sh [--scales 1x,4x] [--seed 1] [--master 'local[2]'] [--work DIR] [--corpus FILE]
#                  [--incident DIR ...] [--skip-single] [--keep]
#
# Per incident (one per --scales entry, generated with --seed and, when there is one, the corpus; and
# any --incident DIR given) it runs, one after the other:
#   single machine  ./kvscope analyze INCIDENT --index IDX --out REPORT -q    (ingest and analysis, one JVM)
#   Spark           ./kvscope scope INCIDENT --out OUT --master MASTER         (the job's JVM, then the analysis)
# each under /usr/bin/time, with the load average sampled every 5 s. It then prints a Markdown table
# per run from the job's own metrics file (OUT/metrics/stages.csv, written by io.kvscope.spark.StageMetrics
# from Spark's task metrics): per stage the wall and whole-JVM CPU seconds, the executors' task CPU
# and its seconds per GB of input, shuffle read and write, the largest task against its Spark
# stage's median task (skew), and for the self-join the reach rule's tests and the pair updates per
# GB. In local mode the whole-JVM CPU includes the executors; what it has beyond the tasks' CPU is
# Spark's fixed cost (scheduling, code generation, JIT, GC) and the driver's own work.
#
# Without --corpus the script looks for ../shared/corpus/dev-corpus.jsonl.zst beside the repository;
# when there is none it says so and generates incidents with the built-in text. Incidents are kept
# in the work folder (default ${TMPDIR:-/tmp}/kvscope-spark-bench) for the next run; the outputs are
# deleted unless --keep. Needs GNU time at /usr/bin/time and python3 (3.9+) for the tables.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scales="1x,4x"
seed=1
master='local[2]'
work="${TMPDIR:-/tmp}/kvscope-spark-bench"
corpus=""
single=1
keep=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --scales) scales="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --master) master="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --incident) extra+=("$(cd "$2" && pwd)"); shift 2 ;;
    --skip-single) single=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "spark.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "spark.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "spark.sh: needs python3 for the tables" >&2; exit 2; }
beside="$here/../shared/corpus/dev-corpus.jsonl.zst"
[ -n "$corpus" ] || [ ! -f "$beside" ] || corpus="$beside"
[ -z "$corpus" ] || [ -f "$corpus" ] || { echo "spark.sh: no corpus at $corpus" >&2; exit 2; }
text="${corpus:+corpus}"
if [ -z "$text" ]; then
  text="builtin"
  echo "spark.sh: no corpus at ../shared/corpus/dev-corpus.jsonl.zst beside the repository: generating with the" \
    "built-in text; pass --corpus FILE for real questions and answers" >&2
fi
mkdir -p "$work"
work="$(cd "$work" && pwd)"
kvscope="$here/kvscope"
"$kvscope" --version >/dev/null # build the CLI now, not inside a timed run
"$kvscope" scope --help >/dev/null # and the spark module, which the launcher builds on a first scope

incidents=()
IFS=, read -r -a wanted <<< "$scales"
for scale in "${wanted[@]}"; do
  [ -n "$scale" ] || continue
  dir="$work/incident-$text-seed$seed-$scale"
  if [ ! -f "$dir/truth.json" ]; then
    echo "spark.sh: generating $dir" >&2
    rm -rf "$dir"
    if [ "$text" = corpus ]; then
      "$kvscope" generate --out "$dir" --seed "$seed" --scale "$scale" --corpus "$corpus" >/dev/null
    else
      "$kvscope" generate --out "$dir" --seed "$seed" --scale "$scale" >/dev/null
    fi
  fi
  incidents+=("$dir")
done
incidents+=("${extra[@]}")

# Runs "$@" under GNU time into $1.time, the load average sampled every 5 s into $1.load.
timed() {
  local name="$1"; shift
  ( while :; do cut -d' ' -f1 /proc/loadavg; sleep 5; done ) > "$name.load" &
  local sampler=$!
  local status=0
  /usr/bin/time -o "$name.time" -f '%e %U %S %M' "$@" || status=$?
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  return $status
}

for incident in "${incidents[@]}"; do
  name="$(basename "$incident")"
  run="$work/runs/$name"
  rm -rf "$run"
  mkdir -p "$run"
  # The input is what the job reads: every file but the generator's truth.json. printf, not print:
  # mawk prints a sum over 2^31 as 3.33286e+09, which the tables cannot read.
  bytes="$(find "$incident" -type f ! -name truth.json -printf '%s\n' | awk '{s+=$1} END {printf "%.0f\n", s}')"
  echo "$bytes" > "$run/input.bytes"
  if [ $single = 1 ]; then
    echo "spark.sh: $name: single machine (analyze INCIDENT --index)" >&2
    timed "$run/single" "$kvscope" analyze "$incident" --index "$run/single-index" --out "$run/single-report" -q \
      > "$run/single.out" 2> "$run/single.err"
  fi
  echo "spark.sh: $name: Spark (scope --master $master)" >&2
  # Not -q: the job's stage lines (session start among them) go to stderr, kept here.
  timed "$run/spark" "$kvscope" scope "$incident" --out "$run/scoped" --master "$master" \
    > "$run/spark.out" 2> "$run/spark.err"
  cp "$run/scoped/metrics/stages.csv" "$run/stages.csv"
  grep -E '^(session|pair tests|pairs |requests )' "$run/spark.err" > "$run/job.lines" || true
  # The exposure summary: scope prints what analyze prints after its ingest lines, report paths aside.
  if [ $single = 1 ]; then
    n="$(wc -l < "$run/spark.out")"
    if cmp -s <(tail -n "$n" "$run/single.out" | sed "s#$run/single-report#REPORT#g") \
              <(sed "s#$run/scoped/report#REPORT#g" "$run/spark.out"); then
      echo "the same, line for line" > "$run/summary.same"
    else
      echo "DIFFERENT (compare $run/single.out and $run/spark.out)" > "$run/summary.same"
    fi
  fi
  if [ $keep = 0 ]; then
    rm -rf "$run/scoped" "$run/single-index" "$run/single-report"
  fi
done

python3 - "$work/runs" "$master" "${incidents[@]}" <<'PY'
import csv, os, re, statistics, sys

runs, master, incidents = sys.argv[1], sys.argv[2], sys.argv[3:]

def timing(path):
    if not os.path.exists(path):
        return None
    wall, user, system, rss = open(path).read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss)

def load(path):
    values = [float(v) for v in open(path).read().split()] if os.path.exists(path) else []
    return f"{min(values):.1f}-{max(values):.1f}" if values else "n/a"

for incident in incidents:
    name = os.path.basename(incident)
    run = os.path.join(runs, name)
    gb = int(open(os.path.join(run, "input.bytes")).read()) / 1e9
    rows = list(csv.DictReader(open(os.path.join(run, "stages.csv"))))
    lines = open(os.path.join(run, "job.lines")).read()
    session = re.search(r"^session\s+([\d.]+) wall s\s+([\d.]+) CPU s", lines, re.M)
    print(f"\n#### {name}: {gb * 1000:.1f} MB of input, {master}\n")
    print("| stage | wall s | JVM CPU s | tasks | task CPU s | task CPU s/GB | shuffle read MB | shuffle write MB"
          " | largest / median task s | pair updates/GB | spilled MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    if session:
        print(f"| session start | {float(session.group(1)):.1f} | {float(session.group(2)):.1f} | | | | | | | | |")
    job_cpu = float(session.group(2)) if session else 0.0
    for r in rows:
        f = {k: float(v) for k, v in r.items() if k != "stage"}
        job_cpu += f["jvm_cpu_s"]
        skew = (f"{f['largest_task_s']:.2f} / {f['median_task_s']:.2f}" if f["tasks"] else "")
        updates = f"{f['pair_updates'] / gb:,.0f} ({f['pair_tests'] / gb:,.0f} tests)" if r["stage"] == "pairs" else ""
        print(f"| {r['stage']} | {f['wall_s']:.1f} | {f['jvm_cpu_s']:.1f} | {int(f['tasks'])} | {f['executor_cpu_s']:.1f}"
              f" | {f['executor_cpu_s'] / gb:.1f} | {f['shuffle_read_bytes'] / 1e6:.1f} | {f['shuffle_write_bytes'] / 1e6:.1f}"
              f" | {skew} | {updates} | {f.get('spilled_bytes', 0) / 1e6:.1f} |")
    spark = timing(os.path.join(run, "spark.time"))
    single = timing(os.path.join(run, "single.time"))
    print()
    if spark:
        print(f"- scope, whole command: {spark[0]:.1f} s wall, {spark[1]:.1f} CPU s (the job's JVM {job_cpu:.1f},"
              f" the analysis and the command's own JVM about {spark[1] - job_cpu:.1f}), max RSS {spark[2] / 1024:.0f} MB,"
              f" load average {load(os.path.join(run, 'spark.load'))}")
    if single:
        print(f"- analyze INCIDENT --index (one machine): {single[0]:.1f} s wall, {single[1]:.1f} CPU s,"
              f" max RSS {single[2] / 1024:.0f} MB, load average {load(os.path.join(run, 'single.load'))}")
    if spark and single:
        print(f"- Spark / one machine: {spark[1] / single[1]:.2f}x the CPU, {spark[0] / single[0]:.2f}x the wall;"
              f" exposure summary {open(os.path.join(run, 'summary.same')).read().strip()}")
    for line in lines.splitlines():
        if line.startswith(("requests ", "pair tests")) or "fingerprints joined" in line:
            print(f"- job: {line.split('; per stage')[0]}")
PY
