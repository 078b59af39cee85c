#!/usr/bin/env bash
# JVM flags against the launcher's own, on the launcher's path: `./kvscope analyze INCIDENT --index
# --out -q` with today's flags and the AOT cache, started together with one run for each NAME=FLAGS
# (given through KVSCOPE_JAVA_OPTS, so the same cache is mapped), each into a fresh index. Record
# the build's analyze-given-inputs cache first (one run of that command alone), or the first runs
# all record. Check with -Xlog:aot that a flag leaves the cache in use (bench/README.md, "What each C2
# compilation costs").
#
#   bench/flag-pairs.sh INCIDENT WORK NAME=FLAGS...
#     e.g. bench/flag-pairs.sh /tmp/inc /tmp/pairs mil9=-XX:MaxInlineLevel=9 'both=-XX:MaxInlineLevel=9 -XX:-UseSuperWord'
#   bench/flag-pairs.sh --show WORK/<time>      the lines again for a set that ran
#
# Prints a line per run: whole-job CPU (user+sys) and wall seconds by GNU time, the CPU seconds of
# the thread groups by bench/thread-cpu.sh (C2, C1, main, kvscope's writers, the collector), and
# whether its reports are the same as the default's by bench/same-reports.sh. Runs are kept in
# WORK/<time>/NAME (indexes removed).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

one() { # NAME FLAGS
  local dir="$set_dir/$1"
  mkdir -p "$dir"
  KVSCOPE_JAVA_OPTS="$2" "$here/bench/thread-cpu.sh" "$dir/threads" /usr/bin/time -f '%U %S %e' -o "$dir/time" \
    "$here/kvscope" analyze "$incident" --index "$dir/index" --out "$dir/reports" -q > "$dir/stdout" 2> "$dir/stderr"
  echo $? > "$dir/status"
  rm -rf "$dir/index"
}

group() { # THREADS_FILE REGEX -> their CPU seconds summed
  awk -v re="$2" '{ t = $1; $1 = ""; if ($0 ~ re) s += t } END { printf "%.2f", s }' "$1"
}
show() { # the set's runs, the default's first
  local dir name user sys wall same
  for dir in "$set_dir/default" $(ls -d "$set_dir"/*/ | sed 's:/$::' | grep -v '/default$'); do
    name="${dir##*/}"
    read -r user sys wall < "$dir/time"
    same="-"
    if [ "$name" != default ]; then
      same=differ
      "$here/bench/same-reports.sh" "$set_dir/default/reports" "$dir/reports" >/dev/null 2>&1 && same=same
    fi
    printf '%-12s status %s  CPU %6.2f  wall %6.1f  C2 %6s  C1 %5s  main %6s  writers %6s  GC %5s  reports %s\n' \
      "$name" "$(cat "$dir/status")" "$(echo "$user + $sys" | bc)" "$wall" \
      "$(group "$dir/threads" '^ C2 CompilerThre')" "$(group "$dir/threads" '^ C1 CompilerThre')" \
      "$(group "$dir/threads" '^ java$')" "$(group "$dir/threads" '^ kvscope-writer')" \
      "$(group "$dir/threads" '^ (GC Thread|G1 )')" "$same"
  done
}

if [ "${1:-}" = --show ]; then
  set_dir="${2:?flag-pairs: --show needs the folder of a set}"
  show
  exit 0
fi
incident="${1:-}"; work="${2:-}"; shift 2 2>/dev/null
[ -d "$incident" ] && [ -n "$work" ] && [ $# -gt 0 ] || { echo "flag-pairs: needs INCIDENT WORK NAME=FLAGS..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "flag-pairs: needs GNU time at /usr/bin/time" >&2; exit 2; }
set_dir="$work/$(date -u +%Y%m%dT%H%M%S)"
one default "" &
for pair in "$@"; do
  one "${pair%%=*}" "${pair#*=}" &
done
wait
show
