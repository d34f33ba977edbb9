#!/usr/bin/env bash
# Issue #17's figures: the recording proxy and `verify`, on 127.0.0.1 only, release build.
#
# 1. Proxy throughput: wrk -t2 -c64 (--latency) over 1,000 distinct paths (a Lua script cycles
#    /items/0 … /items/999, a 300-byte JSON body each, served by nginx):
#      upstream      nginx alone (the ceiling any proxy in front of it shares)
#      nginx proxy   nginx's own reverse proxy (proxy_pass, keepalive to the upstream): the peer
#      spy           `apicheck serve EMPTY --proxy UPSTREAM`: every request forwarded, nothing written
#      record        `apicheck record UPSTREAM --to DIR`: forwarded and recorded (1,000 files
#                    written in the first seconds, then "repeated" comparisons)
#    ROUNDS interleaved rounds; per configuration the median req/s and p99, and the ratios
#    spy/nginx-proxy and record/spy of the medians (paired per round as well).
# 2. verify of VERIFY_STUBS (10,000) recorded-style stubs against `apicheck serve` of the same
#    files: wall time, stubs/s and the verifier's peak RSS (/usr/bin/time -v), median of 3.
#
# Environment: ROUNDS (3), DURATION (10s), CONNECTIONS (64), VERIFY_STUBS (10000),
# SCRATCH_PATH (.build). Needs wrk and nginx (installs them like Benchmarks/serve.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
VERIFY_STUBS=${VERIFY_STUBS:-10000}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
HELPER="python3 Benchmarks/serve-helper.py"

if ! command -v wrk > /dev/null || ! { command -v nginx > /dev/null || [ -x /usr/sbin/nginx ]; }; then
  echo "Installing wrk and nginx (Debian packages)…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq > /dev/null
  $SUDO apt-get install -y -qq wrk nginx > /dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

scripts/setup --deps > /dev/null
echo "Building apicheck (release)…" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
APICHECK="$SCRATCH_PATH/release/apicheck"

WORK=$(mktemp -d /tmp/apicheck-record-bench.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  for conf in upstream proxy; do
    [ -f "$WORK/$conf/nginx.pid" ] && kill "$(cat "$WORK/$conf/nginx.pid")" 2> /dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# nginx: the upstream (any /items/N answers the same 300 bytes) and, separately, nginx as a
# reverse proxy to it; each with 2 workers and the access log off.
$HELPER generate 2 "$WORK/gen" > /dev/null
nginx_conf() {  # name port location-block
  mkdir -p "$WORK/$1/logs" "$WORK/$1/www"
  cp "$WORK/gen/body.json" "$WORK/$1/www/body.json"
  cat > "$WORK/$1/nginx.conf" << EOF
worker_processes 2;
pid $WORK/$1/nginx.pid;
error_log $WORK/$1/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  client_body_temp_path $WORK/$1/body;
  proxy_temp_path $WORK/$1/proxy;
  fastcgi_temp_path $WORK/$1/fastcgi;
  uwsgi_temp_path $WORK/$1/uwsgi;
  scgi_temp_path $WORK/$1/scgi;
  upstream origin { server 127.0.0.1:${UPSTREAM_PORT:-1}; keepalive 64; }
  server {
    listen 127.0.0.1:$2;
    root $WORK/$1/www;
    $3
  }
}
EOF
  chmod -R a+rX "$WORK/$1"
  "$NGINX" -c "$WORK/$1/nginx.conf" -p "$WORK/$1" 2> /dev/null
}
UPSTREAM_PORT=$($HELPER free-port)
nginx_conf upstream "$UPSTREAM_PORT" 'location / { default_type application/json; try_files /body.json =404; }'
PROXY_PORT=$($HELPER free-port)
nginx_conf proxy "$PROXY_PORT" 'location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; }'
UPSTREAM="http://127.0.0.1:$UPSTREAM_PORT"

start_apicheck() {  # name args…: starts it, prints its base URL
  local name=$1; shift
  "$APICHECK" "$@" --port 0 --log-level warning > "$WORK/$name.out" 2> "$WORK/$name.err" &
  PIDS+=($!)
  echo $! > "$WORK/$name.pid"
  for _ in $(seq 1 200); do [ -s "$WORK/$name.out" ] && break; sleep 0.05; done
  head -1 "$WORK/$name.out" | grep -o 'http://127\.0\.0\.1:[0-9]*' | head -1 || { cat "$WORK/$name.err" >&2; exit 1; }
}
mkdir -p "$WORK/empty"
SPY_URL=$(start_apicheck spy serve "$WORK/empty" --proxy "$UPSTREAM")
RECORD_URL=$(start_apicheck record record "$UPSTREAM" --to "$WORK/recorded")

cat > "$WORK/paths.lua" << 'EOF'
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/items/" .. (counter % 1000))
end
EOF

run_wrk() {  # name url round
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/paths.lua" "$2" > "$WORK/wrk-$1-$3.txt"
  echo "$($HELPER wrk "$WORK/wrk-$1-$3.txt")" >> "$WORK/results-$1.txt"
}
median() {  # file column
  sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

echo "wrk -t2 -c$CONNECTIONS -d$DURATION over 1,000 paths, $ROUNDS rounds interleaved…" >&2
for url in "$UPSTREAM" "http://127.0.0.1:$PROXY_PORT" "$SPY_URL" "$RECORD_URL"; do
  wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/paths.lua" "$url" > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
  run_wrk upstream "$UPSTREAM" "$round"
  run_wrk nginx-proxy "http://127.0.0.1:$PROXY_PORT" "$round"
  run_wrk spy "$SPY_URL" "$round"
  run_wrk record "$RECORD_URL" "$round"
done

echo
echo "Proxy throughput (wrk -t2 -c$CONNECTIONS -d$DURATION, 1,000 paths, $ROUNDS rounds; medians):"
printf '  %-12s %12s %10s %8s   %s\n' configuration "req/s" "p99 ms" non-2xx "req/s per round"
for name in upstream nginx-proxy spy record; do
  printf '  %-12s %12s %10s %8s   %s\n' "$name" "$(median "$WORK/results-$name.txt" 1)" "$(median "$WORK/results-$name.txt" 2)" \
    "$(median "$WORK/results-$name.txt" 3)" "$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}' "$WORK/results-$name.txt")"
done
paste "$WORK/results-spy.txt" "$WORK/results-nginx-proxy.txt" | awk '{print $1 / $5}' > "$WORK/paired-spy.txt"
paste "$WORK/results-record.txt" "$WORK/results-spy.txt" | awk '{print $1 / $5}' > "$WORK/paired-record.txt"
paste "$WORK/results-spy.txt" "$WORK/results-upstream.txt" | awk '{print $1 / $5}' > "$WORK/paired-upstream.txt"
printf '  spy / nginx proxy:   %.2f (paired median; per round %s)\n' "$(median "$WORK/paired-spy.txt" 1)" "$(tr '\n' ' ' < "$WORK/paired-spy.txt")"
printf '  record / spy:        %.2f (paired median; the cost of recording)\n' "$(median "$WORK/paired-record.txt" 1)"
printf '  spy / upstream:      %.2f (paired median; what a hop through apicheck keeps of the upstream alone)\n' "$(median "$WORK/paired-upstream.txt" 1)"
echo "  recorded: $(find "$WORK/recorded" -name '*.json' | wc -l) stub files; RSS after: spy $(( $(awk '/VmRSS/ {print $2}' /proc/"$(cat "$WORK/spy.pid")"/status) / 1024 )) MB, record $(( $(awk '/VmRSS/ {print $2}' /proc/"$(cat "$WORK/record.pid")"/status) / 1024 )) MB"
"$APICHECK" lint "$WORK/recorded" > /dev/null && echo "  the recording lints clean"

# verify: VERIFY_STUBS stubs written as a recording would (one file per resource, literal paths).
echo >&2
echo "Generating $VERIFY_STUBS stubs and serving them…" >&2
python3 - "$WORK/verify" "$VERIFY_STUBS" << 'EOF'
import json, os, sys
folder, count = sys.argv[1], int(sys.argv[2])
for index in range(count):
    sub = os.path.join(folder, f"{index // 1000:03d}")
    os.makedirs(sub, exist_ok=True)
    body = {"id": index, "name": f"item {index}", "tags": ["a", "b"], "price": {"amount": index * 1.5, "currency": "EUR"},
            "_links": {"self": {"href": f"/items/{index}"}, "up": {"href": "/items"}}}
    stub = {"name": f"GET /items/{index}", "description": "Recorded from the benchmark.",
            "request": {"method": "GET", "path": f"/items/{index}"},
            "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": body}}
    with open(os.path.join(sub, f"{index}.json"), "w") as handle:
        json.dump(stub, handle)
EOF
VERIFY_UPSTREAM=$(start_apicheck verify-upstream serve "$WORK/verify")
for run in 1 2 3; do
  /usr/bin/time -v "$APICHECK" verify "$WORK/verify" --against "$VERIFY_UPSTREAM" --concurrency 64 --format json --output "$WORK/verify.json" \
    2> "$WORK/time-$run.txt" || { tail -5 "$WORK/time-$run.txt" >&2; exit 1; }
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$WORK/time-$run.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2 / 1024}' "$WORK/time-$run.txt")
  echo "$wall $rss" >> "$WORK/verify-results.txt"
done
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); c=r['counts']; print('  checks', len(r['checks']), 'findings', len(r['findings']), 'exit', r['exitCode'])" "$WORK/verify.json" > "$WORK/verify-summary.txt"
echo
echo "verify of $VERIFY_STUBS stubs against apicheck serve of the same files (--concurrency 64, median of 3):"
awk -v n="$VERIFY_STUBS" -v t="$(median "$WORK/verify-results.txt" 1)" -v r="$(median "$WORK/verify-results.txt" 2)" \
  'BEGIN {printf "  %.2f s, %.0f stubs/s, peak RSS %.0f MB\n", t, n / t, r}'
cat "$WORK/verify-summary.txt"
