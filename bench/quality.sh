#!/usr/bin/env bash
# Detection quality on generated incidents: for each seed and scale, generate an incident with its
# ground truth (built-in text, or questions and answers from --corpus), ingest it, analyze it,
# score the report against truth.json ('kvscope score') and print one Markdown table row per
# incident: leaked responses found/true and precision, missed leaks, false leaks (of them probable:
# text alone), confirmed false positives, recall of leaks carrying a fragment of 12 words or more
# or an identifier, whether every true source is among the sources reported, sole-attribution
# precision, the sources the truth shows were alone within reach named sole, mean sources named per
# leaked response against the truth's holders within reach, responses in the review list. A leaked
# count the report states as a range shows the range after it.
# Incidents are generated with the traps ('kvscope generate --traps'; --no-traps leaves them out):
# questions answered as another tenant's were and served normally (decoys: how many the report
# counted leaked, how many it listed for review), stub replies opening with text many tenants hold
# (their one holder within reach named sole), and leaks the truth does not expect to be found (under
# 12 words, a canary in another format), shown apart as "not expected (found)" and never missed.
#
#   bench/quality.sh [--seeds 1,2,3] [--scales 0.25x,1x] [--corpus FILE] [--work DIR] [--keep] [--ci] [--no-traps]
#
# Exit 0 when every incident passes the gate ('kvscope score' exit 0: no missed and no false leak,
# or a range holding the truth whose extra ones no log can tell from a leak, every leak of 12 words
# or an identifier found, every true source named, no wrong sole attribution, every source the
# truth shows alone within reach named sole, candidates per leak within the truth's holders), 1
# otherwise. --ci is the same gate; it also says on stderr which figure failed.
# Incidents, indexes and reports go to the work folder (default ${TMPDIR:-/tmp}/kvscope-quality)
# and are deleted unless --keep.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seeds="1,2,3"
scales="0.25x,1x"
work="${TMPDIR:-/tmp}/kvscope-quality"
corpus=""
keep=0
ci=0
traps=(--traps)
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --scales) scales="$2"; shift 2 ;;
    --corpus) corpus="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --ci) ci=1; shift ;;
    --no-traps) traps=(); shift ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "quality: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -n "$corpus" ] && [ ! -f "$corpus" ]; then
  echo "quality: no corpus at $corpus" >&2
  exit 2
fi
mkdir -p "$work"
kvscope="$here/kvscope"
texts=built-in
corpus_args=()
if [ -n "$corpus" ]; then
  texts="corpus"
  corpus_args=(--corpus "$corpus")
fi

# Figures from 'kvscope score' lines, by their first words.
figure() { awk -v name="$1" -v field="$2" 'index($0, name) == 1 { print $field }' "$3"; }

echo "| seed | scale | texts | input | leaked responses found/true | precision | missed | false (probable) | confirmed false positives | leaks >= 12 words or identifier found | true sources named | sole attributions right | alone within reach named sole | candidates per leak (truth) | review list | not expected (found) | decoys counted / reviewed / served normally | common openings named sole | pass |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
status=0
for scale in ${scales//,/ }; do
  for seed in ${seeds//,/ }; do
    dir="$work/$texts-seed$seed-$scale"
    rm -rf "$dir" && mkdir -p "$dir"
    "$kvscope" generate --out "$dir/incident" --seed "$seed" --scale "$scale" "${corpus_args[@]}" "${traps[@]}" >/dev/null
    "$kvscope" ingest "$dir/incident" --index "$dir/index" -q >/dev/null
    "$kvscope" analyze --index "$dir/index" --out "$dir/reports" -q >/dev/null
    pass=yes
    "$kvscope" score "$dir/incident/truth.json" "$dir/reports/report.json" > "$dir/score.txt" || pass=no
    s="$dir/score.txt"
    mb=$(du -sm --apparent-size "$dir/incident" | cut -f1)
    found=$(figure "leaked responses" 6 "$s")
    leaked="$found/$(figure "leaked responses" 4 "$s")"
    at_least=$(figure "leaked range" 4 "$s")
    at_most=$(figure "leaked range" 6 "$s")
    [ "$at_least" = "$found" ] || leaked="$leaked (range $at_least-${at_most%,})"
    precision=$(figure "leaked responses" 8 "$s")
    false_confirmed=$(figure "confirmed false pos." 4 "$s")
    significant="$(figure "significant leaks" 6 "$s")/$(figure "significant leaks" 4 "$s")"
    named="$(figure "true sources named" 4 "$s")/$(figure "true sources named" 6 "$s")"
    sole="$(figure "sole attributions" 6 "$s")/$(figure "sole attributions" 3 "$s")"
    candidates="$(figure "candidates per leak" 4 "$s") ($(figure "candidates per leak" 12 "$s"))"
    missed=$(figure "missed leaks" 3 "$s")
    false_leaks="$(figure "false leaks" 3 "$s") ($(figure "false leaks" 13 "$s"))"
    alone="$(figure "sole expected" 20 "$s")/$(figure "sole expected" 3 "$s")"
    review=$(figure "review list" 3 "$s")
    not_expected="$(figure "not expected" 3 "$s") ($(figure "not expected" 23 "$s"))"
    decoys="$(figure "decoys" 11 "$s") / $(figure "decoys" 14 "$s") / $(figure "decoys" 2 "$s")"
    openings="$(figure "decoys" 28 "$s")/$(figure "decoys" 19 "$s")"
    echo "| $seed | $scale | $texts | $mb MB | $leaked | $precision | $missed | $false_leaks | $false_confirmed | $significant | $named | $sole | $alone | $candidates | $review | $not_expected | $decoys | $openings | $pass |"
    if [ $pass = no ]; then
      status=1
      if [ $ci = 1 ]; then
        echo "quality: seed $seed at $scale fails the gate: $missed missed, $false_leaks false leaks (probable in brackets)," \
          "$false_confirmed confirmed false positives, sole sources alone within reach named $alone, candidates per leak" \
          "$candidates ($s)" >&2
      fi
    fi
    [ $keep = 1 ] || rm -rf "$dir/index" "$dir/incident"
  done
done
exit $status
