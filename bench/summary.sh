#!/usr/bin/env bash
# One line per input size from bench/run.sh results, to compare a run with recorded numbers:
#   bench/summary.sh results.json [bench/results/2026-12-02-2core.json ...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
exec "$JAVA_HOME/bin/java" -cp "$bench_cp" io.kvscope.bench.Summary "$@"
