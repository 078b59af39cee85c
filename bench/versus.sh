#!/usr/bin/env bash
# Side by side: kvscope (ingest and analysis in one process: analyze INCIDENT --index) against a responder's afternoon script
# (bench/peer/responder.py: DuckDB and Python) on the same incidents, back to back, alternating,
# several rounds. Prints per incident and tool the median wall and CPU (user+sys) seconds of the
# rounds and kvscope's CPU and wall as a multiple of the script's (1.0x: the same CPU).
#
#   bench/versus.sh [--rounds 3] [--work DIR] [--corpus FILE] [--seeds 1,2] [--scale 0.25x]
#                   [--size-mix CHAT] [--incident DIR ...] [--no-demo] [--keep] [--two-steps]
#
# Incidents: the demo incident ('kvscope demo''s: built-in text, seed 1, small, as the workbench
# opens it) unless --no-demo, one corpus incident per --seed (generated with --corpus, --scale and
# --size-mix; default CHAT, a chat service's mix of many requests of ordinary size), and any
# --incident DIR given. Without --corpus the script looks for ../shared/corpus/dev-corpus.jsonl.zst
# next to the repository; when there is none it says so and measures the demo (and --incident
# folders) only: pass --corpus FILE (JSON lines of real questions with real models' answers, as
# 'kvscope generate --corpus' reads) to add the corpus incidents.
#
# The script runs in a Python venv made under the work folder (default ${TMPDIR:-/tmp}/kvscope-versus)
# with DuckDB and numpy installed by pip from the wheel directory PEER_WHEELS (default /opt/pypi/files) with
# --no-index, or from the package index when that directory does not exist. Needs GNU time at
# /usr/bin/time and python3 (3.9+).
# kvscope runs as a responder runs it on a folder of logs, 'kvscope analyze INCIDENT --index IDX --out
# OUT' (it ingests, then analyses, in one JVM); --two-steps runs 'kvscope ingest' and then 'kvscope
# analyze --index' as two processes instead and prints each step's seconds too.
# kvscope runs through ./kvscope: on a JDK 25+ its first ingest and analyze on a new build record
# the JVM's AOT cache (README, KVSCOPE_AOT) and cost more once; the median of --rounds 3 leaves
# that run out. KVSCOPE_AOT=0 measures without the cache.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
work="${TMPDIR:-/tmp}/kvscope-versus"
corpus=""
seeds="1,2"
scale="0.25x"
mix="CHAT"
demo=1
keep=0
two_steps=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --size-mix) mix="$2"; shift 2 ;;
    --incident) extra+=("$(cd "$2" && pwd)"); shift 2 ;;
    --no-demo) demo=0; shift ;;
    --keep) keep=1; shift ;;
    --two-steps) two_steps=1; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "versus: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "versus: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
if [ -z "$corpus" ] && [ -f "$here/../shared/corpus/dev-corpus.jsonl.zst" ]; then
  corpus="$here/../shared/corpus/dev-corpus.jsonl.zst"
fi
if [ -z "$corpus" ]; then
  echo "versus: no corpus found (looked for ../shared/corpus/dev-corpus.jsonl.zst beside the repository):" >&2
  echo "versus: measuring the demo incident only; pass --corpus FILE to add corpus incidents" >&2
  seeds=""
elif [ ! -f "$corpus" ]; then
  echo "versus: no corpus at $corpus" >&2
  exit 2
fi
mkdir -p "$work"
work="$(cd "$work" && pwd)"
kvscope="$here/kvscope"
"$kvscope" --version >/dev/null # build now, not inside the first timed run

venv="$work/peer-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb, numpy' 2>/dev/null; then
  python3 -m venv "$venv"
  wheels="${PEER_WHEELS:-/opt/pypi/files}"
  if [ -d "$wheels" ]; then
    "$venv/bin/pip" install -q --no-index --find-links "$wheels" duckdb numpy
  else
    "$venv/bin/pip" install -q duckdb numpy
  fi
fi
peer=("$venv/bin/python" "$here/bench/peer/responder.py")

incidents=()
names=()
if [ $demo = 1 ]; then
  if [ ! -d "$work/demo/incident" ]; then
    "$kvscope" generate --out "$work/demo/incident" --seed 1 --scale small >/dev/null
  fi
  incidents+=("$work/demo/incident"); names+=("demo (built-in text, seed 1, small)")
fi
for seed in ${seeds//,/ }; do
  dir="$work/corpus-seed$seed-$scale-${mix,,}/incident"
  if [ ! -d "$dir" ]; then
    "$kvscope" generate --out "$dir" --seed "$seed" --scale "$scale" --size-mix "$mix" --corpus "$corpus" >/dev/null
  fi
  incidents+=("$dir"); names+=("corpus seed $seed, $scale, ${mix,,} mix")
done
for dir in "${extra[@]}"; do incidents+=("$dir"); names+=("$dir"); done

# One timed command: appends "wall cpu" (seconds) to $1, the command's output to $1.log.
timed() {
  local into="$1"; shift
  /usr/bin/time -f "%e %U %S" -o "$into.t" "$@" >>"$into.log" 2>&1 || {
    echo "versus: failed: $* (see $into.log)" >&2; exit 1; }
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$into.t" >> "$into"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| incident | raw input | requests | kvscope wall s | kvscope CPU s | script wall s | script CPU s | CPU ratio | wall ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for i in "${!incidents[@]}"; do
  inc="${incidents[$i]}"
  run="$(dirname "$inc")/versus"
  rm -rf "$run" && mkdir -p "$run"
  for r in $(seq 1 "$rounds"); do
    # Alternate which goes first, so that neither always runs on a warmer machine.
    for who in $( [ $((r % 2)) = 1 ] && echo "kv peer" || echo "peer kv" ); do
      rm -rf "$run/index" "$run/reports" "$run/peer"
      if [ "$who" = kv ] && [ $two_steps = 1 ]; then
        timed "$run/ingest" "$kvscope" ingest "$inc" --index "$run/index" -q
        timed "$run/analyze" "$kvscope" analyze --index "$run/index" --out "$run/reports" -q
      elif [ "$who" = kv ]; then
        timed "$run/kv" "$kvscope" analyze "$inc" --index "$run/index" --out "$run/reports" -q
      else
        timed "$run/peer.times" "${peer[@]}" "$inc" "$run/peer"
      fi
    done
  done
  if [ $two_steps = 1 ]; then
    # kvscope's figure per round is ingest + analyze of that round.
    paste -d' ' "$run/ingest" "$run/analyze" | awk '{ printf "%.2f %.2f\n", $1 + $3, $2 + $4 }' > "$run/kv"
  fi
  kv_wall=$(cut -d' ' -f1 "$run/kv" | median); kv_cpu=$(cut -d' ' -f2 "$run/kv" | median)
  pe_wall=$(cut -d' ' -f1 "$run/peer.times" | median); pe_cpu=$(cut -d' ' -f2 "$run/peer.times" | median)
  mb=$(du -sm --apparent-size --exclude truth.json "$inc" | cut -f1)
  requests=$(sed -n 's/.*"requests" *: *\([0-9]*\).*/\1/p' "$inc/truth.json" | head -1)
  printf '| %s | %s MB | %s | %s | %s | %s | %s | %.2fx | %.2fx |\n' "${names[$i]}" "$mb" "${requests:-?}" \
    "$kv_wall" "$kv_cpu" "$pe_wall" "$pe_cpu" "$(echo "$kv_cpu $pe_cpu" | awk '{ print $1 / $2 }')" \
    "$(echo "$kv_wall $pe_wall" | awk '{ print $1 / $2 }')"
  if [ $two_steps = 1 ]; then
    echo "  kvscope ingest (wall CPU) per round: $(tr '\n' ';' < "$run/ingest")  analyze: $(tr '\n' ';' < "$run/analyze")" >&2
  else
    echo "  kvscope analyze INCIDENT (wall CPU) per round: $(tr '\n' ';' < "$run/kv")" >&2
  fi
  echo "  script: $(tail -n 2 "$run/peer.times.log" | head -n 1)" >&2
  [ $keep = 1 ] || rm -rf "$run/index" "$run/reports" "$run/peer"
done
[ $keep = 1 ] || echo "versus: incidents kept in $work for the next run (delete the folder to regenerate)" >&2
