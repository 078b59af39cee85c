# Sourced by the bench scripts: picks a JDK 21+ (as the kvscope launcher does) and builds the
# bench module (and kvscope with it, -am: never the possibly stale modules in ~/.m2) when its jar
# is missing or older than the sources, or always with BENCH_ALWAYS_BUILD=1.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [ -z "${JAVA_HOME:-}" ] || [ "$(java_major "$JAVA_HOME" 2>/dev/null || echo 0)" -lt 21 ]; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
    JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
  elif command -v java >/dev/null; then
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  fi
fi
if [ -z "${JAVA_HOME:-}" ] || [ "$(java_major "$JAVA_HOME" 2>/dev/null || echo 0)" -lt 21 ]; then
  echo "bench: needs a JDK 21 or newer; set JAVA_HOME to one" >&2
  exit 2
fi
export JAVA_HOME
bench_jar="$here/bench/target/kvscope-bench.jar"
if [ "${BENCH_ALWAYS_BUILD:-0}" = 1 ] || [ ! -f "$bench_jar" ] || [ -n "$(find "$here" -path "$here/*/target" -prune -o \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$bench_jar" -print -quit)" ]; then
  echo "bench: building kvscope and the bench module..." >&2
  rm -rf "$here/bench/target/lib"
  (cd "$here" && ./mvnw -B -q -DskipTests ${BENCH_MAVEN_FLAGS:-} -pl bench -am package >&2) || { echo "bench: build failed" >&2; exit 2; }
fi
bench_cp="$bench_jar:$here/bench/target/lib/*"
