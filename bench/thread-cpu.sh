#!/usr/bin/env bash
# CPU seconds of one command per thread group of its JVM: how much of a kvscope run is the JIT
# (C2/C1 compiler threads), the writer threads, the main thread, Lucene's merges and the GC.
#
#   bench/thread-cpu.sh OUT COMMAND [ARGS...]      e.g. bench/thread-cpu.sh ingest.cpu ./kvscope ingest INCIDENT --index IDX -q
#   bench/thread-cpu.sh --child OUT COMMAND [ARGS...]   e.g. bench/thread-cpu.sh --child job.cpu ./kvscope scope INCIDENT --out OUT -q
#
# With --child only the JVM that the command's JVM starts is read (kvscope scope's Spark job), not
# the command's own (scope's analysis, which runs after the job).
#
# Runs COMMAND, reads /proc/<jvm>/task/*/stat every half second while it runs, and writes to OUT
# the last user+sys seconds seen of each thread, summed by thread name with numbers taken out
# ("C2 CompilerThre", "kvscope-writer-", "java" for the main thread), largest first. A thread that
# renames itself (Spark's task threads: "Executor task launch worker" while a task runs, "Executor
# task idle worker" between tasks) counts once, under the name it had last. A thread that
# ends between two readings loses at most its last half second. Linux only. Exits with COMMAND's status.
set -uo pipefail
child=0
if [ "${1:-}" = --child ]; then child=1; shift; fi
out="$1"; shift
# The first java process at or below $1, breadth first: the command itself, or the JVM under a
# launcher script, /usr/bin/time, or the launcher's shell when it records an AOT cache.
first_java() {
  local level="$1" next proc
  while [ -n "$level" ]; do
    next=""
    for proc in $level; do
      [ "$(cat /proc/"$proc"/comm 2>/dev/null)" = java ] && { echo "$proc"; return; }
      next="$next $(pgrep -P "$proc" | tr '\n' ' ')"
    done
    [ -n "${next// /}" ] || return 0
    level="$next"
  done
}
child_jvm() { # a java process started by the command's JVM (kvscope scope's Spark job)
  local jvm
  jvm=$(first_java "$pid")
  [ -n "$jvm" ] && pgrep -P "$jvm" java | head -n 1
}
"$@" &
pid=$!
declare -A last names
ticks=$(getconf CLK_TCK)
while kill -0 "$pid" 2>/dev/null; do
  jvm=$(first_java "$pid")
  jvm=${jvm:-$pid}
  if [ $child = 1 ]; then
    jvm=$(child_jvm)
    [ -n "$jvm" ] || { sleep 0.5; continue; }
  fi
  for task in /proc/"$jvm"/task/*; do
    stat=$(cat "$task/stat" 2>/dev/null) || continue
    name=$(cat "$task/comm" 2>/dev/null) || continue
    # Fields after the ")" that ends the name: utime and stime are the 12th and 13th.
    read -r -a fields <<< "${stat##*) }"
    last[${task##*/}]=$(( fields[11] + fields[12] ))
    names[${task##*/}]=$name
  done
  sleep 0.5
done
wait "$pid"
status=$?
for thread in "${!last[@]}"; do
  echo "${last[$thread]} ${names[$thread]}"
done | sed -E 's/[0-9#]+$//' \
  | awk -v ticks="$ticks" '{ t = $1; $1 = ""; sum[$0] += t } END { for (k in sum) printf "%8.2f %s\n", sum[k] / ticks, k }' \
  | sort -rn > "$out"
exit "$status"
