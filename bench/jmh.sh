#!/usr/bin/env bash
# JMH micro-benchmarks (io.kvscope.bench.jmh): fingerprinting and identifier extraction (MB/s),
# the fingerprint self-join (postings/s) and span verification (pairs/s, tokens/s). Defaults are
# short (1 fork, 2 warm-up and 3 measured iterations of 2 s). Any JMH option passes through:
#   bench/jmh.sh                      # everything (a few minutes)
#   bench/jmh.sh Fingerprinting       # a regex of benchmark names
#   bench/jmh.sh -f 2 -i 5 Join       # more forks and iterations
#   bench/jmh.sh -rf json -rff jmh.json
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
exec "$JAVA_HOME/bin/java" -cp "$bench_cp" org.openjdk.jmh.Main "$@"
