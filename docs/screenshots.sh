#!/usr/bin/env bash
# Retakes the pictures in docs/images from the demo incident (seed 1, as './kvscope demo' makes
# it), all redacted as every report is by default (no --reveal):
#   report-1280.png       report.html at 1280x800, headless Chromium
#   report-390.png        report.html on a 390 px phone screen, headless Chromium
#   workbench.png         the workbench as it opens, 1280x800, headless JavaFX (gui/screenshots.sh)
#   workbench-evidence.png  the workbench's evidence view of the best-evidenced confirmed leak
# Each must stay under 300 KB; the script fails naming the one that does not.
#
# usage: docs/screenshots.sh [WORK_DIR]   (default: a new temporary folder, removed afterwards)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
images="$here/docs/images"
max_bytes=$((300 * 1024))

[ $# -le 1 ] || { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
[ -x "$chromium" ] || { echo "screenshots.sh: needs Chromium (set CHROMIUM to its binary)" >&2; exit 2; }
if [ $# -eq 1 ]; then
  mkdir -p "$1"; work="$(cd "$1" && pwd)"
else
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fi

# The demo as a newcomer runs it (its summary goes to stderr, out of the way).
(cd "$work" && "$here/kvscope" demo --dir kvscope-demo --quiet >&2)
report="$work/kvscope-demo/reports/report.html"

# report.html: the browser's own screenshot of the window, scroll bars hidden.
shoot_report() { # NAME WIDTH HEIGHT
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chromium-$1" --window-size="$2,$3" --screenshot="$work/$1.png" \
    "file://$report" >"$work/chromium-$1.log" 2>&1 \
    || { echo "screenshots.sh: chromium failed; it said:" >&2; cat "$work/chromium-$1.log" >&2; exit 1; }
}
shoot_report report-1280 1280 800
shoot_report report-390 390 844

"$here/gui/screenshots.sh" "$work/kvscope-demo/index" "$work/kvscope-demo/reports/report.json" "$work/workbench" >&2

# Every picture is checked before any replaces the one in docs/images.
shots=("$work/report-1280.png:report-1280.png" "$work/report-390.png:report-390.png"
       "$work/workbench/1-overview.png:workbench.png" "$work/workbench/2-evidence.png:workbench-evidence.png")
for shot in "${shots[@]}"; do
  size=$(stat -c %s "${shot%%:*}")
  [ "$size" -lt "$max_bytes" ] || { echo "screenshots.sh: ${shot##*:} is $size bytes, over 300 KB" >&2; exit 1; }
done
mkdir -p "$images"
for shot in "${shots[@]}"; do
  install -m 644 "${shot%%:*}" "$images/${shot##*:}"
  echo "docs/images/${shot##*:} ($(( $(stat -c %s "${shot%%:*}") / 1024 )) KB)"
done
