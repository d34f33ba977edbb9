#!/usr/bin/env bash
# The HTML report (issue #35) at scale, in headless Chromium, release build, on this machine only.
#
#   1. a 100,000-resource hypermedia graph (scripts/generate-graph-stubs.py, ~5 links each)
#      crawled in memory with --format html (and --list-checks: every resource listed at its
#      place, at most 20 per place): the page's size (target ≤ 5 MB) and how long it takes to
#      open: DOMContentLoaded and the map drawn, in ms from navigation, as the page records them;
#   2. an API of 10,000 places (100 areas of 100 distinct rels each, generated here): the same,
#      and how many places the map shows when it opens (it starts folded below level 2);
#   3. the anchor, same run: a minimal HTML page with one line of text opened the same way, so
#      the figures can be read against what the browser itself costs on this machine.
# Each page is opened ROUNDS times (default 3); the median is printed, with the range.
#
# Environment: ROUNDS (3), RESOURCES (100000), SCRATCH_PATH (.build), SKIP_BUILD=1. Needs
# chromium (Debian package; installed when missing) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
RESOURCES=${RESOURCES:-100000}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "Installing chromium (Debian package)…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq > /dev/null && $SUDO apt-get install -y -qq chromium > /dev/null
  CHROMIUM=$(command -v chromium)
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  echo "Building apicheck (release)…" >&2
  swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
fi
APICHECK="$SCRATCH_PATH/release/apicheck"
WORK=$(mktemp -d /tmp/apicheck-html-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "Generating a $RESOURCES-resource graph…" >&2
python3 scripts/generate-graph-stubs.py "$RESOURCES" "$WORK/graph" > /dev/null
echo "Generating an API of 10,000 places…" >&2
python3 - "$WORK/places" << 'PY'
import json, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def stub(path, links):
    body = {"id": path, "_links": {"self": {"href": path}, **links}}
    return {"request": {"path": path}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "bodyText": json.dumps(body)}}
stubs = [stub("/", {f"area-{a}": {"href": f"/a/{a}"} for a in range(100)})]
for a in range(100):
    stubs.append(stub(f"/a/{a}", {f"topic-{a}-{t}": {"href": f"/a/{a}/{t}"} for t in range(100)}))
    for t in range(100):
        stubs.append(stub(f"/a/{a}/{t}", {}))
for start in range(0, len(stubs), 1000):
    with open(os.path.join(out, f"places-{start // 1000:03}.json"), "w") as handle:
        json.dump({"stubs": stubs[start:start + 1000]}, handle)
PY
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>anchor</title></head><body><p>anchor</p></body></html>\n' > "$WORK/anchor.html"

crawl() {  # stubs html-file [flags…]
  local stubs=$1 file=$2
  shift 2
  local started ended
  started=$(date +%s.%N)
  "$APICHECK" crawl http://localhost:3000/ --stubs "$stubs" --max-requests 10000000 --concurrency 64 "$@" --format html="$file" --format json="$file.json" > /dev/null 2>&1 || true
  ended=$(date +%s.%N)
  awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }'
}

open_page() {  # file → "dcl drawn shown wall_ms"
  local profile started ended dom
  profile=$(mktemp -d "$WORK/profile.XXXXXX")
  started=$(date +%s%N)
  dom=$("$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$profile" --proxy-server=http://127.0.0.1:9 \
    --disable-background-networking --disable-component-update --disable-sync --dump-dom "file://$1" 2> /dev/null)
  ended=$(date +%s%N)
  rm -rf "$profile"
  local dcl drawn shown
  dcl=$(printf '%s' "$dom" | grep -o 'data-dom-content-loaded-ms="[0-9]*"' | grep -o '[0-9]*' || echo "-")
  drawn=$(printf '%s' "$dom" | grep -o 'data-map-drawn-ms="[0-9]*"' | grep -o '[0-9]*' || echo "-")
  shown=$(printf '%s' "$dom" | grep -o '[0-9]* of [0-9]* places shown' | head -1 || echo "-")
  echo "${dcl:--} ${drawn:--} $(( (ended - started) / 1000000 )) ${shown// /_}"
}

median_of() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) { print "-"; exit } m = a[int((NR + 1) / 2)]; printf "%s (%s–%s)", m, a[1], a[NR] }'; }

measure() {  # label file
  local label=$1 file=$2 size
  size=$(stat -c %s "$file")
  : > "$WORK/dcl" ; : > "$WORK/drawn" ; : > "$WORK/wall"
  local shown="-"
  for _ in $(seq 1 "$ROUNDS"); do
    read -r dcl drawn wall shown_text < <(open_page "$file")
    echo "$dcl" >> "$WORK/dcl"; echo "$drawn" >> "$WORK/drawn"; echo "$wall" >> "$WORK/wall"
    shown=${shown_text//_/ }
  done
  printf '| %s | %s | %s | %s | %s | %s |\n' "$label" "$(awk -v s="$size" 'BEGIN { printf "%.2f MB", s / 1000000 }')" \
    "$(median_of < "$WORK/dcl")" "$(median_of < "$WORK/drawn")" "$(median_of < "$WORK/wall")" "$shown"
}

echo "Crawling (in memory, release)…" >&2
T1=$(crawl "$WORK/graph" "$WORK/graph.html")
T2=$(crawl "$WORK/graph" "$WORK/graph-listed.html" --list-checks)
T3=$(crawl "$WORK/places" "$WORK/places.html" --list-checks)
echo "Opening each page $ROUNDS times in $($CHROMIUM --version 2> /dev/null | head -1)…" >&2
echo
echo "| page | size (≤ 5 MB) | DOMContentLoaded ms (≤ 2000) | map drawn ms | chromium run, wall ms | map on opening |"
echo "|---|---:|---:|---:|---:|---|"
measure "anchor: one line of HTML" "$WORK/anchor.html"
measure "$RESOURCES-resource graph (crawl ${T1} s)" "$WORK/graph.html"
measure "$RESOURCES-resource graph, --list-checks (crawl ${T2} s)" "$WORK/graph-listed.html"
measure "10,000 places, --list-checks (crawl ${T3} s)" "$WORK/places.html"
echo
echo "JSON reports of the same crawls, for scale: $(stat -c %s "$WORK/graph.html.json") / $(stat -c %s "$WORK/graph-listed.html.json") / $(stat -c %s "$WORK/places.html.json") bytes."
