#!/usr/bin/env bash
# Crawl figures (issue #18's scaling curve), on 127.0.0.1 only, release build.
#
# For each size in RESOURCES (default "10000 100000 1000000"; e.g. RESOURCES=100000 runs one):
#   1. a generated hypermedia graph of that many resources (~5 links each,
#      scripts/generate-graph-stubs.py) served by `apicheck serve`;
#   2. the ceilings, same run: `wrk -t2 -c64` on one resource (the server's), and the crawl's own
#      HTTP client alone fetching every resource once (`apicheck-bench client`);
#   3. the live crawl at --concurrency 64 (ROUNDS rounds at the smallest size, 1 above): time end
#      to end (start to report written), time fetching, resources/s, peak RSS of the crawler;
#   4. the in-memory crawl (--stubs, no sockets, loading included) of the same graph: time,
#      resources/s, peak RSS.
#   5. the loading floor: `apicheck lint` of the same stub set, timed in the same run.
# Then a table against the targets of issues #18 and #30: live 10k crawl / client ceiling ≥ 0.6;
# in-memory 100k end to end ≤ 2.5× lint, the crawl after loading (--log-level debug phases) ≤ 1.5×
# lint, its JSON report ≤ 1 MB, ≤ 250 MB; live 1M crawler ≤ 300 MB; live RSS 100k → 1M ≤ 2×.
# Sizes not run show as "-". The 1,000,000 size takes about ten minutes.
#
# With OPENAPI=1 (the default) every crawl, live and in memory, runs again with --openapi on the
# document scripts/generate-graph-openapi.py writes for the graph (every answer matched to its
# operation, every body validated against its schema), in the same run, alternating with the
# plain crawl round by round; the table adds both times and their ratio (issue #32's target:
# ≤ 1.2×). OPENAPI=0 skips them.
#
# Environment: RESOURCES, ROUNDS (3), CONCURRENCY (64), DURATION (5s, wrk), SCRATCH_PATH (.build),
# OPENAPI (1).
set -euo pipefail
cd "$(dirname "$0")/.."

RESOURCES=${RESOURCES:-"10000 100000 1000000"}
CONCURRENCY=${CONCURRENCY:-64}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
OPENAPI=${OPENAPI:-1}

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

SMALLEST=$(echo $RESOURCES | tr ' ' '\n' | sort -n | head -1)
for SIZE in $RESOURCES; do
  DIR="$WORK/$SIZE"
  mkdir -p "$DIR"
  python3 scripts/generate-graph-stubs.py "$SIZE" "$DIR/graph" >&2
  python3 scripts/generate-graph-openapi.py "$DIR/graph.openapi.json" > /dev/null
  "$APICHECK" serve "$DIR/graph" --port 0 --log-level warning > "$DIR/serve.out" 2> "$DIR/serve.err" &
  SERVER_PID=$!
  for _ in $(seq 1 2400); do [ -s "$DIR/serve.out" ] && break; sleep 0.05; done
  URL=$(head -1 "$DIR/serve.out" | grep -o 'http://127\.0\.0\.1:[0-9]*' || true)
  [ -n "$URL" ] || { echo "apicheck serve did not start:" >&2; cat "$DIR/serve.err" >&2; exit 2; }
  case "$URL" in http://127.0.0.1:*) ;; *) echo "refusing to benchmark $URL: loopback only" >&2; exit 2 ;; esac

  echo "$SIZE: ceilings (wrk on one resource; the crawl's client alone over every resource)…" >&2
  wrk -t2 -c"$CONCURRENCY" -d"$DURATION" "$URL/r/17" | awk '/Requests\/sec/ {print $2}' > "$DIR/wrk"
  "$BENCH" client --root "$URL/" --resources "$SIZE" --concurrency "$CONCURRENCY" --rounds 1 \
    | awk '/client-ceiling-requests-per-second/ {print $2}' > "$DIR/client"

  rounds=$([ "$SIZE" = "$SMALLEST" ] && echo "$ROUNDS" || echo 1)
  for round in $(seq 1 "$rounds"); do
    echo "$SIZE: live crawl at --concurrency $CONCURRENCY (round $round of $rounds)…" >&2
    START=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$DIR/live-$round.rss" "$APICHECK" crawl "$URL/" --concurrency "$CONCURRENCY" --max-requests 10000000 \
      --format json --output "$DIR/live-$round.json" --log-level debug 2> "$DIR/live-$round.log" || true
    END=$(date +%s.%N)
    echo "$START $END" > "$DIR/live-$round.time"
    if [ "$OPENAPI" = 1 ]; then
      echo "$SIZE: live crawl with --openapi (round $round of $rounds)…" >&2
      START=$(date +%s.%N)
      "$APICHECK" crawl "$URL/" --concurrency "$CONCURRENCY" --max-requests 10000000 --openapi "$DIR/graph.openapi.json" \
        --format json --output "$DIR/live-openapi-$round.json" --log-level debug 2> "$DIR/live-openapi-$round.log" || true
      END=$(date +%s.%N)
      echo "$START $END" > "$DIR/live-openapi-$round.time"
    fi
  done
  kill "$SERVER_PID" 2> /dev/null || true
  wait "$SERVER_PID" 2> /dev/null || true
  SERVER_PID=""

  echo "$SIZE: the loading floor (apicheck lint of the same stub set)…" >&2
  START=$(date +%s.%N)
  "$APICHECK" lint "$DIR/graph" > /dev/null 2>&1 || true
  END=$(date +%s.%N)
  echo "$START $END" > "$DIR/lint.time"
  echo "$SIZE: in-memory crawl (--stubs)…" >&2
  START=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$DIR/memory.rss" "$APICHECK" crawl http://localhost:3000/ --stubs "$DIR/graph" \
    --concurrency "$CONCURRENCY" --max-requests 10000000 --format json --output "$DIR/memory.json" --log-level debug 2> "$DIR/memory.log" || true
  END=$(date +%s.%N)
  echo "$START $END" > "$DIR/memory.time"
  if [ "$OPENAPI" = 1 ]; then
    for round in $(seq 1 "$rounds"); do
      for mode in plain openapi; do
        echo "$SIZE: in-memory crawl, $mode (round $round of $rounds)…" >&2
        FLAGS=(); [ "$mode" = openapi ] && FLAGS=(--openapi "$DIR/graph.openapi.json")
        START=$(date +%s.%N)
        "$APICHECK" crawl http://localhost:3000/ --stubs "$DIR/graph" "${FLAGS[@]}" --concurrency "$CONCURRENCY" --max-requests 10000000 \
          --format json --output "$DIR/memory-$mode-$round.json" 2> /dev/null || true
        END=$(date +%s.%N)
        echo "$START $END" > "$DIR/memory-$mode-$round.time"
      done
    done
  fi
  rm -rf "$DIR/graph"
done

python3 - "$WORK" "$RESOURCES" << 'PY'
import json, os, re, sys
work, sizes = sys.argv[1], [int(s) for s in sys.argv[2].split()]
def number(path):
    try: return float(open(path).read().strip())
    except (OSError, ValueError): return float("nan")
rows = {}
for size in sizes:
    d = f"{work}/{size}"
    live = []
    round = 1
    while os.path.exists(f"{d}/live-{round}.json"):
        report = json.load(open(f"{d}/live-{round}.json"))
        start, end = map(float, open(f"{d}/live-{round}.time").read().split())
        fetch = re.search(r"requests in ([0-9.]+) seconds", open(f"{d}/live-{round}.log").read())
        live.append((end - start, float(fetch.group(1)) if fetch else float("nan"), report["counts"], number(f"{d}/live-{round}.rss") / 1024))
        round += 1
    seconds, fetching, counts, _ = min(live, key=lambda run: run[0])
    memory = json.load(open(f"{d}/memory.json"))
    mstart, mend = map(float, open(f"{d}/memory.time").read().split())
    lstart, lend = map(float, open(f"{d}/lint.time").read().split())
    log = open(f"{d}/memory.log").read()
    def phase(pattern):
        found = re.search(pattern, log)
        if not found: return 0.0
        text = found.group(1)
        return float(text[:-2]) / 1000 if text.endswith("ms") else float(text.rstrip("s").strip()) if not text.endswith("µs") else 0.0
    after_loading = (phase(r"requests in ([0-9.e-]+) seconds") + phase(r"rules evaluated for [0-9]+ links in ([0-9.e-]+) seconds")
                     + phase(r"report assembled in ([0-9.e-]+) seconds") + phase(r"report written in ([0-9.e-]+) seconds"))
    rows[size] = dict(
        live_s=seconds, fetch_s=fetching, fetched=counts["resourcesFetched"], requests=counts["requests"],
        live_rss=max(run[3] for run in live), wrk=number(f"{d}/wrk"), client=number(f"{d}/client"),
        mem_s=mend - mstart, mem_fetched=memory["counts"]["resourcesFetched"], mem_rss=number(f"{d}/memory.rss") / 1024,
        complete=memory.get("exitCode") != 2 and counts["resourcesFetched"] >= size,
        lint_s=lend - lstart, after_loading_s=after_loading, report_mb=os.path.getsize(f"{d}/memory.json") / 1e6)
print(f"{'resources':>10} | {'live s':>7} {'fetching s':>10} {'res/s':>8} {'RSS MB':>7} | {'client req/s':>12} {'wrk req/s':>9} {'crawl/client':>12} | {'memory s':>8} {'res/s':>8} {'RSS MB':>7} {'lint s':>6} {'×lint':>5} {'after load ×lint':>16} {'report MB':>9}")
for size, r in rows.items():
    print(f"{size:>10,} | {r['live_s']:>7.2f} {r['fetch_s']:>10.2f} {r['fetched'] / r['live_s']:>8,.0f} {r['live_rss']:>7.0f} | "
          f"{r['client']:>12,.0f} {r['wrk']:>9,.0f} {r['requests'] / r['live_s'] / r['client']:>12.2f} | "
          f"{r['mem_s']:>8.2f} {r['mem_fetched'] / r['mem_s']:>8,.0f} {r['mem_rss']:>7.0f} {r['lint_s']:>6.2f} {r['mem_s'] / r['lint_s']:>5.2f} "
          f"{r['after_loading_s'] / r['lint_s']:>16.2f} {r['report_mb']:>9.3f}"
          + ("" if r["complete"] else "   (incomplete: fewer resources than generated)"))
def target(label, value, goal, ok):
    shown = "-" if value is None else value
    print(f"  {label:<58} {shown:>14}  target {goal:<12} {'-' if value is None else ('met' if ok else 'MISSED')}")
print("Issue #18 and #30 targets (times as multiples of apicheck lint of the same stub set, same run):")
r10, r100, r1m = rows.get(10000), rows.get(100000), rows.get(1000000)
ratio = r10 and r10["requests"] / r10["live_s"] / r10["client"]
target("live 10k, end to end / the crawl's own client ceiling", ratio and f"{ratio:.2f}", "≥ 0.6", ratio and ratio >= 0.6)
rate = r100 and r100["mem_fetched"] / r100["mem_s"]
target("in-memory 100k, resources/s (reported)", rate and f"{rate:,.0f}", "-", True)
multiple = r100 and r100["mem_s"] / r100["lint_s"]
target("in-memory 100k, end to end / apicheck lint", multiple and f"{multiple:.2f}×", "≤ 2.5×", multiple and multiple <= 2.5)
after = r100 and r100["after_loading_s"] / r100["lint_s"]
target("in-memory 100k, the crawl after loading / apicheck lint", after and f"{after:.2f}×", "≤ 1.5×", after and after <= 1.5)
target("in-memory 100k, JSON report (MB)", r100 and f"{r100['report_mb']:.3f}", "≤ 1", r100 and r100["report_mb"] <= 1)
target("in-memory 100k, peak RSS (MB)", r100 and f"{r100['mem_rss']:.0f}", "≤ 250", r100 and r100["mem_rss"] <= 250)
target("live 1M against apicheck serve, crawler peak RSS (MB)", r1m and f"{r1m['live_rss']:.0f}", "≤ 300", r1m and r1m["live_rss"] <= 300)
growth = r100 and r1m and r1m["live_rss"] / r100["live_rss"]
target("live peak RSS growth, 100k → 1M", growth and f"{growth:.1f}×", "≤ 2×", growth and growth <= 2)

def best(paths):
    times = []
    for path in paths:
        if os.path.exists(path):
            start, end = map(float, open(path).read().split())
            times.append(end - start)
    return min(times) if times else None
if os.path.exists(f"{work}/{sizes[0]}/graph.openapi.json") or any(os.path.exists(f"{work}/{s}/memory-openapi-1.time") for s in sizes):
    print("Issue #32 target: checking against the document (--openapi) adds ≤ 20% (best of the rounds, same run):")
    for size in sizes:
        d = f"{work}/{size}"
        for kind, plain, openapi in (
            ("live", [f"{d}/live-{r}.time" for r in range(1, 20)], [f"{d}/live-openapi-{r}.time" for r in range(1, 20)]),
            ("in-memory", [f"{d}/memory-plain-{r}.time" for r in range(1, 20)], [f"{d}/memory-openapi-{r}.time" for r in range(1, 20)]),
        ):
            a, b = best(plain), best(openapi)
            if a is None or b is None: continue
            findings = "?"
            report = f"{d}/{'live-openapi-1' if kind == 'live' else 'memory-openapi-1'}.json"
            if os.path.exists(report):
                data = json.load(open(report))
                findings = f"{data['counts']['defects']} defects, operations {data.get('operationCoverage', {}).get('reached', '?')}/{data.get('operationCoverage', {}).get('total', '?')}"
            target(f"{kind} {size:,}: {a:.2f} s plain, {b:.2f} s --openapi ({findings})", f"{b / a:.2f}×", "≤ 1.2×", b / a <= 1.2)
PY
