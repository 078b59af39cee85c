#!/usr/bin/env bash
# Whether two report folders ('kvscope analyze --out', 'kvscope demo''s reports/) say the same:
# every file of one is in the other and equal once what differs between two runs of the same
# analysis is masked. Used to check that a change for speed changed no finding (bench/README.md).
#
#   bench/same-reports.sh DIR_A DIR_B        exit 0 when the same, 1 with the differing files listed
#
# Masked: generation times (generated, prepared), the index path, the build's name, the analyzers' own timings (analyzer
# and CPU seconds), the Spark application id of a 'kvscope scope' run (local-N, app-N-N: it names the job whose
# candidate pairs the analysis read), and the 8-hex hashes keyed by each index's own case key (identifier and span
# hashes), which two indexes of the same logs never share, and the counts of what the overlap's caches saved
# (source_texts_read, source_texts_reused, holder_lookups, holder_lookups_remembered, stock_phrase_lookups:
# which candidate comes first, and so what a bounded cache still holds, moves by a few between two runs of
# one build at 1x, and with the overlap on several threads, README.md's --threads). findings.arrow is skipped: it holds those
# hashes in binary (findings.ndjson holds the same rows as text). Needs jq and perl.
set -euo pipefail
a="$1"; b="$2"
[ -d "$a" ] && [ -d "$b" ] || { echo "same-reports: needs two report folders" >&2; exit 2; }
command -v jq >/dev/null && command -v perl >/dev/null || { echo "same-reports: needs jq and perl" >&2; exit 2; }

# One file as text with the run's own values masked; $2 is the index path its report.json names.
masked() {
  local file="$1" index="$2"
  if [ "${file##*/}" = report.json ]; then
    jq -S 'del(.generated_at, .index, .parameters.analyzer_seconds, .parameters["cross-tenant-overlap.cpu_seconds"],
      .evidence.kvscope_version)' "$file"
  else
    cat "$file"
  fi | INDEX="$index" perl -pe '
    s/\Q$ENV{INDEX}\E/INDEX/g if length $ENV{INDEX};
    s/"generated_at" ?: ?"[^"]*"/"generated_at":T/g;
    s/(Generated|Prepared) [0-9T:.\-]+Z/$1 T/g;
    s/\(commit [^)]*\)/(commit B)/g;
    s/\b(?:local|app)-[0-9]{6,}(?:-[0-9]+)?\b/SPARK_APP/g;
    s/\b[0-9a-f]{8}\b/HASH/g;
    s/((?:source_texts_(?:read|reused)|holder_lookups(?:_remembered)?|stock_phrase_lookups)[^0-9]{0,40}?)[0-9][0-9,]*/$1N/g;
    $_ = "" if /analyzer_seconds|cpu_seconds/;
  '
}

index_a="$(jq -r '.index // ""' "$a/report.json" 2>/dev/null || true)"
index_b="$(jq -r '.index // ""' "$b/report.json" 2>/dev/null || true)"
differ=0
files=$( { (cd "$a" && find . -type f ! -name '*.arrow'); (cd "$b" && find . -type f ! -name '*.arrow'); } | sort -u)
for f in $files; do
  if [ ! -f "$a/$f" ] || [ ! -f "$b/$f" ]; then
    echo "only in one: $f"; differ=1; continue
  fi
  if ! cmp -s <(masked "$a/$f" "$index_a") <(masked "$b/$f" "$index_b"); then
    echo "differs: $f"; differ=1
  fi
done
echo "same-reports: $(echo "$files" | wc -l) files compared, $([ $differ = 0 ] && echo "all the same" || echo "some differ")"
exit $differ
