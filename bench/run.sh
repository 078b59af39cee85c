#!/usr/bin/env bash
# End-to-end benchmark: generate incidents of about 250 MB, 1 GB and 4 GB, time `kvscope ingest`
# and `kvscope analyze` with the heap capped at 2 GB, and run the baselines (Jackson raw parse,
# rg -F over the canary markers, naive all-pairs overlap) on the same files.
#
#   bench/run.sh [--sizes 250M,1G,4G | --quick] [--work DIR] [--out FILE] [--heap 2g] [--seed N] [--keep]
#
# --quick runs 20M and 80M with a short naive budget (a smoke run of a few minutes). The work
# folder (default ${TMPDIR:-/tmp}/kvscope-bench) holds each size's logs, GC logs and outputs;
# incidents and indexes are deleted after each size unless --keep. Needs GNU time at
# /usr/bin/time; rg (ripgrep) is optional. See README.md, "Benchmarks".
set -euo pipefail
BENCH_ALWAYS_BUILD=1 # what is measured is what the sources say
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

install_if_missing() { # command, apt package
  if ! command -v "$1" >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "bench: installing $2 with apt-get" >&2
    apt-get install -y "$2" >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y "$2" >/dev/null 2>&1) || true
  fi
}
install_if_missing /usr/bin/time time
install_if_missing rg ripgrep
[ -x /usr/bin/time ] || { echo "bench: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v rg >/dev/null || echo "bench: rg not found: the ripgrep baseline is skipped (apt-get install ripgrep)" >&2

work="${TMPDIR:-/tmp}/kvscope-bench"
prev=""
for a in "$@"; do [ "$prev" = "--work" ] && work="$a"; prev="$a"; done
mkdir -p "$work"
work="$(cd "$work" && pwd)"

# Run from a copy of the jars: a rebuild during a long run must neither change nor break it.
commit="$(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
snap="$work/jars"
rm -rf "$snap" && mkdir -p "$snap/lib"
cp "$bench_jar" "$snap/" && cp "$here"/bench/target/lib/*.jar "$snap/lib/"
flags="$(kvscope_jvm_flags | tr '\n' ' ')"
cat > "$snap/kvscope" <<LAUNCHER
#!/usr/bin/env bash
# kvscope as built at $commit (the repository's launcher, minus the rebuild check)
exec "$JAVA_HOME/bin/java" \${KVSCOPE_JAVA_OPTS:-} $flags -cp "$snap/lib/*" io.kvscope.cli.KvScope "\$@"
LAUNCHER
chmod +x "$snap/kvscope"

args=("$@")
has_work=0
for a in "$@"; do [ "$a" = "--work" ] && has_work=1; done
[ $has_work = 1 ] || args+=(--work "$work")
exec "$JAVA_HOME/bin/java" -cp "$snap/kvscope-bench.jar:$snap/lib/*" io.kvscope.bench.EndToEnd \
  --kvscope "$snap/kvscope" --commit "$commit" "${args[@]}"
