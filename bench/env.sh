# Sourced by the bench scripts: picks a JDK 21+ as the kvscope launcher does (cli/src/dist/bin/jdk.sh)
# and builds the bench module (and kvscope with it, -am: never the possibly stale modules in
# ~/.m2) when its jar is missing or older than the sources, or always with BENCH_ALWAYS_BUILD=1.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../cli/src/dist/bin/jdk.sh
source "$here/cli/src/dist/bin/jdk.sh"
kvscope_find_jdk || { echo "bench: needs a JDK 21 or newer; none found (set JAVA_HOME to one)" >&2; exit 2; }
bench_jar="$here/bench/target/kvscope-bench.jar"
if [ "${BENCH_ALWAYS_BUILD:-0}" = 1 ] || [ ! -f "$bench_jar" ] || [ -n "$(find "$here" -path "$here/*/target" -prune -o \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$bench_jar" -print -quit)" ]; then
  echo "bench: building kvscope and the bench module..." >&2
  rm -rf "$here/bench/target/lib"
  (cd "$here" && ./mvnw -B -q -DskipTests ${BENCH_MAVEN_FLAGS:-} -pl bench -am package >&2) || { echo "bench: build failed" >&2; exit 2; }
fi
bench_cp="$bench_jar:$here/bench/target/lib/*"
