#!/usr/bin/env bash
# Runs the Spark stages built so far (io.kvscope.spark.ScopeJob) in one JVM and prints each stage's
# wall and CPU seconds. Usage: spark/measure.sh INPUT... --out DIR [--master 'local[2]']
# Needs a JDK 21+ (JAVA_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64) and Spark's jars in ~/.m2
# (a first online build of the spark module fetches them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
cd "$root"
# test-compile, not compile: the module's test dependencies (the single-machine index and analysis) need
# their siblings' test classes, which the reactor resolves only once they are compiled.
./mvnw -B -o -q -pl spark -am test-compile dependency:build-classpath -Dmdep.outputFile=target/spark.classpath >/dev/null
# The JVM flags of Spark's launcher, from their one home in spark/pom.xml.
flags="$(sed -n '/<spark.jvm.flags>/,/<\/spark.jvm.flags>/p' spark/pom.xml | sed 's/<[^>]*>//g')"
unsafe=""
if [ "$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')" -ge 23 ]; then
  unsafe="--sun-misc-unsafe-memory-access=allow"
fi
export SPARK_LOCAL_IP=127.0.0.1
# shellcheck disable=SC2086
exec /usr/bin/time -f 'whole JVM: %e wall s, %U+%S CPU s, %M KB max RSS' "$java" -Xmx2g $flags $unsafe \
  --enable-native-access=ALL-UNNAMED -cp "spark/target/classes:$(cat spark/target/spark.classpath)" \
  io.kvscope.spark.ScopeJob "$@"
