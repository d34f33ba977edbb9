#!/usr/bin/env bash
# Issue #5's figures, on 127.0.0.1 only:
#
#   1. A generated hypermedia graph of 10,000 resources (~5 links each) served by `apicheck serve`;
#      the server's own ceiling measured with `wrk -t2 -c64` on one of its resources; then
#      `apicheck crawl --concurrency 64` of the whole graph: resources/s, requests/s, the ratio of
#      the crawl's request rate to the ceiling (target ≥ 0.5) and the crawl's peak RSS (≤ 150 MB).
#   2. The in-memory crawl (`--stubs`, no sockets) of 100,000 resources: time and peak RSS.
#
# A second peer, measured in the same run: the crawl's own HTTP client (HTTPFetcher on
# AsyncHTTPClient) fetching every resource once with nothing else to do (`apicheck-bench client`).
#
# Environment: RESOURCES (10000), MEMORY_RESOURCES (100000), CONCURRENCY (64), DURATION (5s), ROUNDS (3),
# SCRATCH_PATH (the swift build folder, default .build). Installs wrk from Debian's packages when
# it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

RESOURCES=${RESOURCES:-10000}
MEMORY_RESOURCES=${MEMORY_RESOURCES:-100000}
CONCURRENCY=${CONCURRENCY:-64}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
SCRATCH_PATH=${SCRATCH_PATH:-.build}

if ! command -v wrk > /dev/null; then
  echo "Installing wrk (Debian package)…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq > /dev/null && $SUDO apt-get install -y -qq wrk > /dev/null
fi
scripts/setup --deps > /dev/null
echo "Building apicheck (release)…" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck-bench > /dev/null
APICHECK="$SCRATCH_PATH/release/apicheck"
BENCH="$SCRATCH_PATH/release/apicheck-bench"

WORK=$(mktemp -d /tmp/apicheck-crawl-bench.XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

python3 scripts/generate-graph-stubs.py "$RESOURCES" "$WORK/graph" >&2
"$APICHECK" serve "$WORK/graph" --port 0 --log-level warning > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 1 200); do
  [ -s "$WORK/serve.out" ] && break
  sleep 0.05
done
URL=$(head -1 "$WORK/serve.out" | grep -o 'http://127\.0\.0\.1:[0-9]*' || true)
[ -n "$URL" ] || { echo "apicheck serve did not start:" >&2; cat "$WORK/serve.err" >&2; exit 2; }
case "$URL" in http://127.0.0.1:*) ;; *) echo "refusing to benchmark $URL: loopback only" >&2; exit 2 ;; esac

echo "Server ceiling: wrk -t2 -c$CONCURRENCY -d$DURATION $URL/r/17" >&2
CEILING=$(wrk -t2 -c"$CONCURRENCY" -d"$DURATION" "$URL/r/17" | awk '/Requests\/sec/ {print $2}')

echo "Client ceiling: the crawl's HTTP client alone, every resource once, $CONCURRENCY in flight" >&2
CLIENT=$("$BENCH" client --root "$URL/" --resources "$RESOURCES" --concurrency "$CONCURRENCY" --rounds 3 | awk '/client-ceiling-requests-per-second/ {print $2}')

# The crawl, ROUNDS times (the fastest counts; its RSS is the peak of all rounds). Wall time is
# the whole process: start, crawl, rules, report written to a file.
for round in $(seq 1 "$ROUNDS"); do
  echo "Crawling $RESOURCES resources at --concurrency $CONCURRENCY (round $round of $ROUNDS)…" >&2
  START=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$WORK/crawl-$round.rss" "$APICHECK" crawl "$URL/" --concurrency "$CONCURRENCY" --max-requests 1000000 \
    --format json --output "$WORK/crawl-$round.json" --log-level debug 2> "$WORK/crawl-$round.log" || true
  END=$(date +%s.%N)
  echo "$START $END" > "$WORK/crawl-$round.time"
done
python3 - "$WORK" "$ROUNDS" "$CEILING" "$CLIENT" "$RESOURCES" << 'PY'
import json, re, sys
work, rounds, ceiling, client, expected = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
runs = []
for round in range(1, rounds + 1):
    report = json.load(open(f"{work}/crawl-{round}.json"))
    start, end = map(float, open(f"{work}/crawl-{round}.time").read().split())
    log = open(f"{work}/crawl-{round}.log").read()
    fetch = re.search(r"requests in ([0-9.]+) seconds", log)
    runs.append((end - start, float(fetch.group(1)) if fetch else float("nan"), report["counts"], int(open(f"{work}/crawl-{round}.rss").read())))
seconds, fetch_seconds, counts, _ = min(runs, key=lambda run: run[0])
peak_kb = max(run[3] for run in runs)
resources, requests = counts["resourcesFetched"], counts["requests"]
rate, fetch_rate = requests / seconds, requests / fetch_seconds
print(f"live crawl of {expected} resources over HTTP (apicheck serve, 127.0.0.1, --concurrency from the script), best of {rounds}")
print(f"  {resources} resources, {requests} requests, {counts['linksFound']} links, {counts['errors']} errors: {seconds:.2f} s end to end (start to report written)")
print(f"  {resources / seconds:,.0f} resources/s end to end; {fetch_rate:,.0f} requests/s while fetching ({fetch_seconds:.2f} s of it)")
print(f"  server ceiling (wrk, same run):        {ceiling:,.0f} requests/s")
print(f"  client ceiling (HTTPFetcher alone):     {client:,.0f} requests/s = {client / ceiling:.2f} of the server ceiling")
verdict = "met" if rate / ceiling >= 0.5 else "MISSED"
print(f"  crawl / server ceiling = {rate / ceiling:.3f} end to end, {fetch_rate / ceiling:.3f} while fetching (target ≥ 0.5: {verdict})")
print(f"  crawl / client ceiling = {rate / client:.2f} end to end, {fetch_rate / client:.2f} while fetching")
print(f"  peak RSS {peak_kb / 1024:.0f} MB over {rounds} rounds (target ≤ 150 MB: {'met' if peak_kb / 1024 <= 150 else 'MISSED'})")
if resources < expected:
    print(f"  WARNING: only {resources} of {expected} resources were fetched")
PY
kill "$SERVER_PID" 2> /dev/null || true
wait "$SERVER_PID" 2> /dev/null || true
SERVER_PID=""

python3 scripts/generate-graph-stubs.py "$MEMORY_RESOURCES" "$WORK/graph-memory" >&2
echo "Crawling $MEMORY_RESOURCES resources in memory (--stubs)…" >&2
START=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$WORK/memory.rss" "$APICHECK" crawl http://localhost:3000/ --stubs "$WORK/graph-memory" \
  --concurrency "$CONCURRENCY" --max-requests 1000000 --format json --output "$WORK/memory.json" || true
END=$(date +%s.%N)
python3 - "$WORK/memory.json" "$START" "$END" "$(cat "$WORK/memory.rss")" << 'PY'
import json, sys
report = json.load(open(sys.argv[1]))
seconds = float(sys.argv[3]) - float(sys.argv[2])
stats = report["counts"]
print(f"in-memory crawl (--stubs, no sockets; loading included)")
print(f"  {stats['resourcesFetched']} resources in {seconds:.2f} s ({stats['resourcesFetched'] / seconds:,.0f} resources/s), peak RSS {int(sys.argv[4]) / 1024:.0f} MB")
PY
