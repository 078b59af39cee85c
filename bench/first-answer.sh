#!/usr/bin/env bash
# Time to the first answer: how long after the start a responder sees the preliminary exposure
# figures (over-length prompts accepted, prefill underruns, vulnerable windows) and then the final
# exposure summary, for the whole job ('kvscope demo' on the incident: ingest and analysis) and for
# 'kvscope analyze' alone on the index that run built. Prints one table row per incident and step:
# seconds to the preliminary figures, to the final summary, to the end, and the run's CPU seconds.
#
#   bench/first-answer.sh [--work DIR] [INCIDENT_DIR ...]
#
# Without INCIDENT_DIR it measures the demo incident (built-in text, seed 1, small), generated under
# the work folder (default ${TMPDIR:-/tmp}/kvscope-first-answer) on first use. An incident folder is
# one 'kvscope generate' wrote (with its truth.json): bench/versus.sh keeps its corpus incidents under
# its work folder. Needs GNU time at /usr/bin/time and python3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${TMPDIR:-/tmp}/kvscope-first-answer"
incidents=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "first-answer: unknown option $1" >&2; exit 2 ;;
    *) incidents+=("$(cd "$1" && pwd)"); shift ;;
  esac
done
[ -x /usr/bin/time ] || { echo "first-answer: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$work"
work="$(cd "$work" && pwd)"
kvscope="$here/kvscope"
"$kvscope" --version >/dev/null # build now, not inside the first timed run
if [ ${#incidents[@]} = 0 ]; then
  if [ ! -f "$work/demo-incident/truth.json" ]; then
    "$kvscope" generate --out "$work/demo-incident" --seed 1 --scale small >/dev/null
  fi
  incidents=("$work/demo-incident")
fi

# Runs a command with stdout stamped by seconds since its start; prints "first final end cpu".
stamped() {
  local log="$1"; shift
  local start; start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$log.t" "$@" 2>"$log.err" \
    | python3 -u -c 'import sys, time
start = float(sys.argv[1])
for line in sys.stdin:
    print(f"{time.time() - start:.2f} {line}", end="")' "$start" > "$log" \
    || { echo "first-answer: failed: $* (see $log.err)" >&2; exit 1; }
  local end; end=$(date +%s.%N)
  awk -v end="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" -v cpu="$(awk '{ print $1 + $2 }' "$log.t")" '
    / Preliminary exposure summary/ && !first { first = $1 }
    / Exposure summary$/ && !final { final = $1 }
    END { printf "%s %s %.2f %.2f\n", first ? first : "-", final ? final : "-", end, cpu }' "$log"
}

echo "| incident | step | s to preliminary figures | s to final summary | s to end | CPU s |"
echo "|---|---|---|---|---|---|"
for inc in "${incidents[@]}"; do
  run="$work/runs/$(basename "$(dirname "$inc")")-$(basename "$inc")"
  rm -rf "$run" && mkdir -p "$run"
  cp -al "$inc" "$run/incident" 2>/dev/null || cp -a "$inc" "$run/incident" # demo uses an incident in its folder (ingest follows no links)
  read -r first final end cpu < <(stamped "$run/demo.out" "$kvscope" demo --dir "$run" --quiet)
  printf '| %s | demo (ingest + analysis) | %s | %s | %s | %s |\n' "$inc" "$first" "$final" "$end" "$cpu"
  read -r first final end cpu < <(stamped "$run/analyze.out" "$kvscope" analyze --index "$run/index" \
    --out "$run/again" --quiet)
  printf '| %s | analyze alone | %s | %s | %s | %s |\n' "$inc" "$first" "$final" "$end" "$cpu"
done
echo "first-answer: stamped outputs in $work/runs" >&2
