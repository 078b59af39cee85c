#!/usr/bin/env bash
# Saves a 1280x800 PNG of each workbench view (overview, evidence, tenant impact, config audit, a
# brushed time range) by running the GUI headless (JavaFX's Monocle) in its screenshot mode;
# content stays redacted. docs/screenshots.sh uses it for the README's pictures.
#
# usage: gui/screenshots.sh INDEX_DIR REPORT_JSON OUT_DIR
#        gui/screenshots.sh --demo OUT_DIR     (first runs './kvscope demo' into OUT_DIR/demo)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
demo=0
if [ "${1:-}" = "--demo" ]; then
  [ $# -eq 2 ] || usage
  demo=1; out="$2"
else
  [ $# -eq 3 ] || usage
  index="$1"; report="$2"; out="$3"
  [ -d "$index" ] || { echo "screenshots.sh: no index directory at $index" >&2; exit 2; }
  [ -f "$report" ] || { echo "screenshots.sh: no report file at $report" >&2; exit 2; }
fi

# shellcheck source=../cli/src/dist/bin/jdk.sh
source "$here/cli/src/dist/bin/jdk.sh"
kvscope_find_jdk || { echo "screenshots.sh: needs a JDK 21 or newer; none found (set JAVA_HOME to one)" >&2; exit 2; }

# No display needed: Monocle's headless platform (the one the GUI tests use, a test dependency)
# with JavaFX's software renderer draws the scenes the tour snapshots.
# Build the gui module and what it needs (classes only, never installed) and get its class path,
# test scope for Monocle; test-compile, as the modules' test-jar dependencies on one another
# resolve inside the reactor only once those test classes are compiled.
cd "$here"
build=(-B -q -pl gui -am test-compile dependency:build-classpath
       -Dmdep.outputFile=target/screenshots.classpath -Dmdep.includeScope=test)
./mvnw -o "${build[@]}" >&2 2>/dev/null || ./mvnw "${build[@]}" >&2
cp="$here/gui/target/classes:$(cat "$here/gui/target/screenshots.classpath")"
mapfile -t flags < <(kvscope_jvm_flags)
flags+=(-Dglass.platform=Monocle -Dmonocle.platform=Headless -Dprism.order=sw -Dheadless.geometry=1280x800-32
        -Djava.awt.headless=true)

mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ $demo -eq 1 ]; then
  # The sample incident every newcomer sees, analyzed exactly as './kvscope demo' does.
  "$here/kvscope" demo --dir "$out/demo" --quiet >&2
  index="$out/demo/index"; report="$out/demo/reports/report.json"
fi

"$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.kvscope.gui.WorkbenchMain \
  --index "$index" --report "$report" --screenshot-dir "$out"
