#!/usr/bin/env bash
# Detection quality on generated incidents: for each seed and scale, generate an incident with its
# ground truth, ingest it, analyze it and score the report against truth.json, then print one
# Markdown table row per incident (precision/recall of leaked responses, sources, victims and
# recipients; same-tenant traps reported as cross-tenant).
#
#   bench/quality.sh [--seeds 1,2,3] [--scales 0.25x,1x] [--work DIR] [--keep]
#
# Exit 0 when every incident scored exactly, 1 otherwise. Incidents, indexes and reports go to
# the work folder (default ${TMPDIR:-/tmp}/kvscope-quality) and are deleted unless --keep.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seeds="1,2,3"
scales="0.25x,1x"
work="${TMPDIR:-/tmp}/kvscope-quality"
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --scales) scales="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "quality: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$work"
kvscope="$here/kvscope"

# "leaked responses       truth   190  found   193  precision 0.984  recall 1.000" -> "193/190, P 0.984 R 1.000"
cell() { awk -v name="$1" 'index($0, name) == 1 { printf "%s/%s, P %s R %s", $(NF-4), $(NF-6), $(NF-2), $NF }' "$2"; }

echo "| seed | scale | input | leaked responses (found/truth) | source requests | victim tenants | recipient tenants | traps as cross-tenant | exact |"
echo "|---|---|---|---|---|---|---|---|---|"
all_exact=0
for scale in ${scales//,/ }; do
  for seed in ${seeds//,/ }; do
    dir="$work/seed$seed-$scale"
    rm -rf "$dir" && mkdir -p "$dir"
    "$kvscope" generate --out "$dir/incident" --seed "$seed" --scale "$scale" >/dev/null
    "$kvscope" ingest "$dir/incident" --index "$dir/index" -q >/dev/null
    "$kvscope" analyze --index "$dir/index" --out "$dir/reports" -q >/dev/null
    exact=yes
    "$kvscope" score "$dir/incident/truth.json" "$dir/reports/report.json" > "$dir/score.txt" || { exact=no; all_exact=1; }
    mb=$(du -sm --apparent-size "$dir/incident" | cut -f1)
    traps=$(awk '$1 == "traps" { print $2 }' "$dir/score.txt")
    row() { cell "$1" "$dir/score.txt"; }
    echo "| $seed | $scale | $mb MB | $(row "leaked responses") | $(row "source requests") | $(row "victim tenants") | $(row "recipient tenants") | $traps | $exact |"
    [ $keep = 1 ] || rm -rf "$dir/index" "$dir/incident"
  done
done
exit $all_exact
