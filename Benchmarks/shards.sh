#!/usr/bin/env bash
# Issue #18's "past one machine" proof, on 127.0.0.1 only, release build: a generated graph of
# RESOURCES resources (default 1,000,000) served by `apicheck serve`, crawled whole once and as
# SHARDS shards (default 4), each shard its own process as a CI matrix job would run it; then
# `apicheck report merge` of the shards. Prints each process's time and peak RSS, and compares
# the merged report with the whole one: counts (requests aside: every shard walks the whole
# graph), defects, findings, exit code, and every check byte for byte (durations aside).
#
# Sequential by default, so each process's figures are its own; PARALLEL=1 runs the shards at
# once (on 2 cores they then share the CPU with each other and the server).
#
# Environment: RESOURCES (1000000), SHARDS (4), CONCURRENCY (64), PARALLEL (0), SCRATCH_PATH (.build).
set -euo pipefail
cd "$(dirname "$0")/.."

RESOURCES=${RESOURCES:-1000000}
SHARDS=${SHARDS:-4}
CONCURRENCY=${CONCURRENCY:-64}
PARALLEL=${PARALLEL:-0}
SCRATCH_PATH=${SCRATCH_PATH:-.build}

scripts/setup --deps > /dev/null
echo "Building apicheck (release)…" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
APICHECK="$SCRATCH_PATH/release/apicheck"

WORK=$(mktemp -d /tmp/apicheck-shards-bench.XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

python3 scripts/generate-graph-stubs.py "$RESOURCES" "$WORK/graph" >&2
"$APICHECK" serve "$WORK/graph" --port 0 --log-level warning > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 1 6000); do [ -s "$WORK/serve.out" ] && break; sleep 0.05; done
URL=$(head -1 "$WORK/serve.out" | grep -o 'http://127\.0\.0\.1:[0-9]*' || true)
[ -n "$URL" ] || { echo "apicheck serve did not start:" >&2; cat "$WORK/serve.err" >&2; exit 2; }

crawl() { # name, extra arguments…
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$WORK/$name.rss" "$APICHECK" crawl "$URL/" --concurrency "$CONCURRENCY" --max-requests 100000000 \
    --format json --output "$WORK/$name.json" "$@" 2> "$WORK/$name.err" && echo 0 > "$WORK/$name.code" || echo $? > "$WORK/$name.code"
  end=$(date +%s.%N)
  echo "$start $end" > "$WORK/$name.time"
}

echo "Crawling $RESOURCES resources whole…" >&2
crawl whole
echo "Crawling as $SHARDS shards ($([ "$PARALLEL" = 1 ] && echo parallel || echo one after the other))…" >&2
PIDS=()
for i in $(seq 1 "$SHARDS"); do
  if [ "$PARALLEL" = 1 ]; then
    crawl "shard-$i" --shard "$i/$SHARDS" &
    PIDS+=($!)
  else
    crawl "shard-$i" --shard "$i/$SHARDS"
  fi
done
for pid in "${PIDS[@]}"; do wait "$pid"; done
echo "Merging…" >&2
start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$WORK/merge.rss" "$APICHECK" report merge $(for i in $(seq 1 "$SHARDS"); do echo "$WORK/shard-$i.json"; done) \
  --format json --output "$WORK/merged.json" 2> "$WORK/merge.err" && echo 0 > "$WORK/merged.code" || echo $? > "$WORK/merged.code"
echo "$start $(date +%s.%N)" > "$WORK/merge.time"

python3 - "$WORK" "$SHARDS" "$RESOURCES" <<'PY'
import hashlib, json, sys
work, shards, resources = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def head(path):
    """The report without its checks (read line by line: the checks are gigabytes)."""
    lines = []
    with open(path) as f:
        for line in f:
            if line.startswith('  "checks": ['):
                lines.append('  "checks": []\n}\n')
                break
            lines.append(line)
    return json.loads("".join(lines))

def checks_digest(path):
    """SHA-256 of the checks' lines, durations left out."""
    digest, inside, count = hashlib.sha256(), False, 0
    with open(path, "rb") as f:
        for line in f:
            if not inside:
                inside = line.startswith(b'  "checks": [')
                continue
            if line.startswith(b'    "durationSeconds"') or b'"durationSeconds"' in line:
                continue
            if line.startswith(b"    {"):
                count += 1
            digest.update(line.replace(b"},\n", b"}\n").rstrip(b",\n"))
    return digest.hexdigest(), count

def figure(name):
    start, end = map(float, open(f"{work}/{name}.time").read().split())
    rss = int(open(f"{work}/{name}.rss").read().split()[-1]) / 1024
    return end - start, rss

print(f"\n{resources:,} resources, {shards} shards")
print(f"{'process':<12} {'seconds':>8} {'peak RSS MB':>12} {'exit':>5}")
for name in ["whole"] + [f"shard-{i}" for i in range(1, shards + 1)] + ["merge"]:
    seconds, rss = figure(name)
    code = open(f"{work}/{'merged' if name == 'merge' else name}.code").read().strip()
    print(f"{name:<12} {seconds:>8.1f} {rss:>12.0f} {code:>5}")

whole, merged = head(f"{work}/whole.json"), head(f"{work}/merged.json")
same = True
for key in ["exitCode", "defects", "findings", "errors"]:
    equal = whole[key] == merged[key]
    same &= equal
    print(f"{key:<10} {'same' if equal else 'DIFFERENT'}")
counts_whole = {k: v for k, v in whole["counts"].items() if k not in ("requests", "resourcesFetched")}
counts_merged = {k: v for k, v in merged["counts"].items() if k not in ("requests", "resourcesFetched")}
print(f"{'counts':<10} {'same' if counts_whole == counts_merged else 'DIFFERENT'} {counts_merged}")
same &= counts_whole == counts_merged
(dw, nw), (dm, nm) = checks_digest(f"{work}/whole.json"), checks_digest(f"{work}/merged.json")
print(f"{'checks':<10} {'same' if dw == dm else 'DIFFERENT'} ({nw:,} whole, {nm:,} merged)")
same &= dw == dm
print("\nThe merged report equals the whole crawl's." if same else "\nThe merged report DIFFERS from the whole crawl's.")
sys.exit(0 if same else 1)
PY
