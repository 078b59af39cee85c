#!/usr/bin/env bash
# Raw gateway JSON per CPU second: `kvscope ingest` of the gateway's log files alone (LiteLLM JSON
# lines, plain or compressed), the figure the issue "Faster than the afternoon script" sets at
# 10 MB/s per core. The bytes are the files' decompressed bytes; the CPU is user+sys of the whole
# command as GNU time gives it (the launcher, the JVM's start and its JIT included), each run into
# a fresh index. Prints one line per run and the median.
#
#   bench/gateway-rate.sh GATEWAY_DIR [RUNS] [WORK]   e.g. bench/gateway-rate.sh /tmp/inc/gateway 3
#
# GATEWAY_DIR is the folder of the gateway's files only (an incident made by `kvscope generate` has
# it as INCIDENT/gateway). Record the build's AOT cache for ingest first (one run of it alone), or
# the first run records and costs more. WORK (default ${TMPDIR:-/tmp}/kvscope-gateway-rate) holds
# the indexes while they are made; they are removed after each run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
gateway="${1:?usage: bench/gateway-rate.sh GATEWAY_DIR [RUNS] [WORK]}"
runs="${2:-3}"
work="${3:-${TMPDIR:-/tmp}/kvscope-gateway-rate}"
mkdir -p "$work"

raw_bytes() { # every file under $gateway, decompressed
  find "$gateway" -type f -print0 | while IFS= read -r -d '' file; do
    case "$file" in
      *.gz) gzip -dc "$file" ;;
      *.zst) zstd -dcq "$file" ;;
      *) cat "$file" ;;
    esac
  done | wc -c
}

bytes="$(raw_bytes)"
printf 'gateway %s: %.1f MB of raw JSON\n' "$gateway" "$(echo "$bytes / 1000000" | bc -l)"
rates=()
for run in $(seq 1 "$runs"); do
  rm -rf "$work/index"
  /usr/bin/time -f '%U %S %e' -o "$work/time" "$here/kvscope" ingest "$gateway" --index "$work/index" -q \
    > /dev/null 2> "$work/stderr" || { echo "run $run failed: $work/stderr" >&2; exit 1; }
  read -r user sys wall < "$work/time"
  rate="$(echo "$bytes / 1000000 / ($user + $sys)" | bc -l)"
  rates+=("$rate")
  printf 'run %d: %.2f CPU s (user %.2f, sys %.2f), %.2f wall s: %.2f MB/s per CPU s\n' \
    "$run" "$(echo "$user + $sys" | bc -l)" "$user" "$sys" "$wall" "$rate"
  rm -rf "$work/index"
done
printf 'median: %.2f MB/s per CPU s\n' "$(printf '%s\n' "${rates[@]}" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
