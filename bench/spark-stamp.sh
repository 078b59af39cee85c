#!/usr/bin/env bash
# Runs COMMAND and writes each line of its output (stdout and stderr) to LOG as "EPOCH_MS<TAB>line",
# with a first line when it starts and a last when it ends, for bench/spark-timeline.py --command.
#
#   bench/spark-stamp.sh LOG COMMAND [ARGS...]
#
# Exits with COMMAND's status. Needs python3.
set -uo pipefail
log="$1"; shift
stamp() { python3 -u -c '
import sys, time
for line in sys.stdin:
    sys.stdout.write("%d\t%s" % (time.time() * 1000, line))
'; }
echo "start: $*" | stamp > "$log"
"$@" 2>&1 | stamp >> "$log"
status=${PIPESTATUS[0]}
echo "end: exit $status" | stamp >> "$log"
exit "$status"
