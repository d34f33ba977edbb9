#!/usr/bin/env bash
# Issue #4's figures: `apicheck serve` against nginx in the same run, on 127.0.0.1 only.
#
#   wrk -t2 -c64 -d10s --latency against `apicheck serve` with 1,000 stubs loaded (a literal-path
#   stub and a templated-path stub) and against nginx (2 workers = 2 event loops, access log off)
#   serving the same 300 body bytes; 3 interleaved rounds, medians: req/s, p99, ratio.
#   Then RSS of both after the runs, and the time from process start to the first 200 with
#   10,000 stubs (median of 3).
#
# Environment: ROUNDS (3), DURATION (10s), CONNECTIONS (64), THREADS (2),
# SCRATCH_PATH (the swift build folder, default .build). Installs wrk and nginx from Debian's
# packages when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
HELPER="python3 Benchmarks/serve-helper.py"

MISSING=0
command -v wrk > /dev/null || MISSING=1
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || MISSING=1
if [ "$MISSING" = 1 ]; then
  echo "Installing wrk and nginx (Debian packages)…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq > /dev/null
  # A policy-rc.d that says "no" keeps the package from starting a system nginx on port 80.
  POLICY_ADDED=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d > /dev/null && $SUDO chmod +x /usr/sbin/policy-rc.d && POLICY_ADDED=1
  fi
  $SUDO apt-get install -y -qq wrk nginx > /dev/null
  [ "$POLICY_ADDED" = 1 ] && $SUDO rm -f /usr/sbin/policy-rc.d
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

scripts/setup --deps > /dev/null
echo "Building apicheck (release)…" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
APICHECK="$SCRATCH_PATH/release/apicheck"

WORK=$(mktemp -d /tmp/apicheck-serve-bench.XXXXXX)
chmod 755 "$WORK"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

$HELPER generate 1000 "$WORK/set1k"
LITERAL=/items/500
TEMPLATED=/collection-501/42

# apicheck serve on a free port; the first line says where.
"$APICHECK" serve "$WORK/set1k/stubs" --port 0 --log-level warning > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/serve.out" ] && break; sleep 0.05; done
APICHECK_URL=$(head -1 "$WORK/serve.out" | grep -o 'http://127\.0\.0\.1:[0-9]*')
[ -n "$APICHECK_URL" ] || { cat "$WORK/serve.err" >&2; exit 1; }

# nginx: 2 workers, access log off, the same bytes as static files, a temporary prefix.
NGINX_PORT=$($HELPER free-port)
mkdir -p "$WORK/nginx/www/items" "$WORK/nginx/logs"
cp "$WORK/set1k/body.json" "$WORK/nginx/www/items/500"
cp "$WORK/set1k/body.json" "$WORK/nginx/www/collection.json"
chmod -R a+rX "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" << EOF
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  default_type application/json;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 75s;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/nginx/www;
    location ~ ^/collection-501/[^/]+\$ { default_type application/json; try_files /collection.json =404; }
    location / { default_type application/json; }
  }
}
EOF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log"
NGINX_URL="http://127.0.0.1:$NGINX_PORT"

for url in "$APICHECK_URL$LITERAL" "$APICHECK_URL$TEMPLATED" "$NGINX_URL$LITERAL" "$NGINX_URL$TEMPLATED"; do
  code=$(curl -s -o "$WORK/check.body" -w '%{http_code}' "$url")
  [ "$code" = 200 ] && cmp -s "$WORK/check.body" "$WORK/set1k/body.json" || { echo "$url answered $code or other bytes" >&2; exit 1; }
done

run_wrk() {  # name url round
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$2" > "$WORK/wrk-$1-$3.txt"
  $HELPER wrk "$WORK/wrk-$1-$3.txt" >> "$WORK/results-$1.txt"
}

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds interleaved…" >&2
# Warm both up (JIT-free, but caches, connection setup, page faults).
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$APICHECK_URL$LITERAL" > /dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$NGINX_URL$LITERAL" > /dev/null
for round in $(seq 1 "$ROUNDS"); do
  run_wrk apicheck-literal "$APICHECK_URL$LITERAL" "$round"
  run_wrk nginx-literal "$NGINX_URL$LITERAL" "$round"
  run_wrk apicheck-templated "$APICHECK_URL$TEMPLATED" "$round"
  run_wrk nginx-templated "$NGINX_URL$TEMPLATED" "$round"
done

median() {  # file column
  awk -v c="$2" '{print $c}' "$1" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2> /dev/null || echo 0; }

echo
echo "Rounds (req/s, p99 ms):"
for name in apicheck-literal nginx-literal apicheck-templated nginx-templated; do
  printf '  %-20s %s\n' "$name" "$(awk '{printf "%s/%s  ", $1, $2}' "$WORK/results-$name.txt")"
done
echo "Medians:"
printf '%-22s %12s %10s %8s\n' "server / path" "req/s" "p99 ms" "non-2xx"
for name in apicheck-literal nginx-literal apicheck-templated nginx-templated; do
  printf '%-22s %12s %10s %8s\n' "$name" "$(median "$WORK/results-$name.txt" 1)" "$(median "$WORK/results-$name.txt" 2)" \
    "$(awk '{s+=$3} END {print s}' "$WORK/results-$name.txt")"
done
for path in literal templated; do
  a=$(median "$WORK/results-apicheck-$path.txt" 1)
  n=$(median "$WORK/results-nginx-$path.txt" 1)
  ap=$(median "$WORK/results-apicheck-$path.txt" 2)
  np=$(median "$WORK/results-nginx-$path.txt" 2)
  awk -v a="$a" -v n="$n" -v ap="$ap" -v np="$np" -v p="$path" \
    'BEGIN {printf "ratio %-16s %11.2fx req/s of nginx; p99 %s ms vs %s ms (%s)\n", p, a / n, ap, np, (ap <= np ? "no worse" : "worse")}'
done

NGINX_RSS=0
for pid in $(cat "$WORK/nginx/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx/nginx.pid")"); do
  NGINX_RSS=$((NGINX_RSS + $(rss_kib "$pid")))
done
echo
echo "RSS after the runs: apicheck serve $(( $(rss_kib "$SERVER_PID") / 1024 )) MiB (1,000 stubs, journal of 10,000); nginx $((NGINX_RSS / 1024)) MiB (master + 2 workers)"

kill "$SERVER_PID"; wait "$SERVER_PID" 2> /dev/null || true; SERVER_PID=""
kill "$(cat "$WORK/nginx/nginx.pid")"; rm -f "$WORK/nginx/nginx.pid"

$HELPER generate 10000 "$WORK/set10k"
for round in $(seq 1 "$ROUNDS"); do
  $HELPER first-request "$APICHECK" "$WORK/set10k/stubs" /items/0 >> "$WORK/startup.txt"
done
echo "Process start to first 200 with 10,000 stubs: $(median "$WORK/startup.txt" 1) ms (median of $ROUNDS; runs: $(tr '\n' ' ' < "$WORK/startup.txt"))"
