#!/usr/bin/env bash
# The stub server over TLS, held to SwiftNIO with swift-nio-ssl (issue #34): three figures, each
# a ratio to a minimal NIO server measured in the same rounds, with nginx beside it.
#
#   - HTTPS keep-alive: wrk -t2 -c64 -d10s --latency, HTTP/1.1 over TLS 1.3 (wrk offers no ALPN);
#   - HTTP/2: h2load -t2 -c8 -m64 -D 10s, ALPN h2 over TLS 1.3 (64 streams per connection);
#   - new TLS connections per second: a small TLS client compiled here (below) in 32 threads,
#     each one connection at a time: connect, a full handshake, one GET, the whole response,
#     close_notify, close; the client closes, so it works with servers that ignore
#     `Connection: close` (the minimal NIO server does). A full handshake each time: a fresh SSL
#     object per connection, no session ever set, the client's session cache off, no tickets; the
#     script checks it against nginx, which logs $ssl_session_reused ("." on all of them, or it
#     stops). wrk and h2load (`-H 'Connection: close'`) resume the previous session on every
#     reconnect (nginx logs "r"), so neither measures full handshakes. The client is built on
#     BoringSSL (Debian's android-libboringssl-dev), which spends about half the CPU per handshake
#     of Debian 12's OpenSSL 3.0 (0.6 ms against 1.2 ms here): the client shares the machine with
#     the server, and the cheaper it is, the more of the difference between servers shows; with
#     OpenSSL's libssl-dev when that package cannot be had. Whichever, the server CPU per new
#     connection is printed as a ratio too, which the client's cost does not blur.
#
# The three servers: `apicheck serve --tls` with 1,000 stubs (GET /items/500, a literal-path
# stub) and the certificate it makes (a local CA and a P-256 server certificate in its --tls-dir);
# `apicheck-bench nio-baseline --cert --key` with that certificate (swift-nio-ssl, ALPN h2 and
# http/1.1, NIOHTTP2 with its HTTP/1 codec per stream, one fixed response of the same 300 bytes);
# nginx with that certificate, `ssl http2`, 2 workers, access log off, the same bytes as a static
# file. TLS 1.2 and 1.3 on all three (nginx before 1.23.4 leaves 1.3 out unless told); the client
# picks TLS 1.3, X25519 and AES-128-GCM on each (printed from h2load).
#
# Rounds are paired like Benchmarks/serve.sh: in each round every figure runs on the three servers
# back to back, odd rounds apicheck, minimal NIO, nginx, even rounds the reverse (a steady drift
# favours no one); ratios are taken per round and their median and min–max printed. Also: server
# CPU per request (utime+stime over each run / requests), CPU steal over the rounds, a Markdown
# summary table.
#
# Environment: ROUNDS (3), DURATION (10s), CONNECTIONS (64, wrk), THREADS (2, wrk and h2load),
# H2_CLIENTS (8), H2_STREAMS (64), HANDSHAKE_CONNECTIONS (32), FIGURES ("https h2 handshakes"),
# SCRATCH_PATH (.build), CONFIGURATION (release), SKIP_BUILD=1 (use the binaries as they are),
# SUMMARY_ROWS=FILE (append the summary's rows there instead of printing the table;
# Benchmarks/serve.sh does, to print one table with the cleartext figures). Needs wrk, nginx,
# h2load (nghttp2-client), a C compiler and BoringSSL's headers (android-libboringssl-dev, or
# OpenSSL's, libssl-dev): installs what is missing from Debian's packages.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
H2_CLIENTS=${H2_CLIENTS:-8}
H2_STREAMS=${H2_STREAMS:-64}
HANDSHAKE_CONNECTIONS=${HANDSHAKE_CONNECTIONS:-32}
FIGURES=${FIGURES:-https h2 handshakes}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
CONFIGURATION=${CONFIGURATION:-release}
HELPER="python3 Benchmarks/serve-helper.py"
URL_PATH=/items/500
for figure in $FIGURES; do
  case "$figure" in https | h2 | handshakes) ;; *) echo "FIGURES: https, h2 and handshakes, not \"$figure\"" >&2; exit 2 ;; esac
done

seconds_of() {  # 10s, 500ms, 1m or a bare number of seconds → seconds
  case "$1" in
    *ms) awk -v v="${1%ms}" 'BEGIN {print v / 1000}' ;;
    *s) echo "${1%s}" ;;
    *m) awk -v v="${1%m}" 'BEGIN {print v * 60}' ;;
    *) echo "$1" ;;
  esac
}
SECONDS_PER_RUN=$(seconds_of "$DURATION")

MISSING=""
command -v wrk > /dev/null || MISSING="$MISSING wrk"
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx"
command -v h2load > /dev/null || MISSING="$MISSING nghttp2-client"
command -v cc > /dev/null || MISSING="$MISSING gcc"
BSSL_INCLUDE=/usr/include/android
BSSL_LIB=/usr/lib/$(gcc -print-multiarch 2> /dev/null || echo x86_64-linux-gnu)/android
[ -f "$BSSL_INCLUDE/openssl/ssl.h" ] || MISSING="$MISSING android-libboringssl-dev"
if [ -n "$MISSING" ]; then
  echo "Installing$MISSING (Debian packages)…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq > /dev/null
  # A policy-rc.d that says "no" keeps the package from starting a system nginx on port 80.
  POLICY_ADDED=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d > /dev/null && $SUDO chmod +x /usr/sbin/policy-rc.d && POLICY_ADDED=1
  fi
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq $MISSING > /dev/null ||
    { [ -f /usr/include/openssl/ssl.h ] || $SUDO apt-get install -y -qq libssl-dev > /dev/null; }
  [ "$POLICY_ADDED" = 1 ] && $SUDO rm -f /usr/sbin/policy-rc.d
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  scripts/setup --deps > /dev/null
  echo "Building apicheck ($CONFIGURATION)…" >&2
  swift build -c "$CONFIGURATION" --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
  swift build -c "$CONFIGURATION" --scratch-path "$SCRATCH_PATH" --product apicheck-bench > /dev/null
fi
APICHECK="$SCRATCH_PATH/$CONFIGURATION/apicheck"
BENCH="$SCRATCH_PATH/$CONFIGURATION/apicheck-bench"

WORK=$(mktemp -d /tmp/apicheck-serve-tls-bench.XXXXXX)
chmod 755 "$WORK"
SERVER_PID=""
NIO_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  [ -n "$NIO_PID" ] && kill "$NIO_PID" 2> /dev/null || true
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The handshake client (see the top): HOST PORT PATH CONNECTIONS SECONDS → req/s, p99 ms, errors,
# requests, space-separated.
cp Benchmarks/tls-handshakes.c "$WORK/handshakes.c"
if [ -f "$BSSL_INCLUDE/openssl/ssl.h" ]; then
  cc -O2 -pthread -I"$BSSL_INCLUDE" -o "$WORK/handshakes" "$WORK/handshakes.c" -L"$BSSL_LIB" -Wl,-rpath,"$BSSL_LIB" -lssl -lcrypto
  CLIENT_TLS="BoringSSL (android-libboringssl)"
else
  cc -O2 -pthread -o "$WORK/handshakes" "$WORK/handshakes.c" -lssl -lcrypto
  CLIENT_TLS="OpenSSL $(openssl version | awk '{print $2}')"
fi

$HELPER generate 1000 "$WORK/set1k" > /dev/null

wait_for_url() {  # file pid: the first https URL the process prints on its first line
  local url=""
  for _ in $(seq 1 600); do
    [ -s "$1" ] && url=$(head -1 "$1" | grep -o 'https://127\.0\.0\.1:[0-9]*' || true)
    [ -n "$url" ] && break
    kill -0 "$2" 2> /dev/null || break
    sleep 0.05
  done
  echo "$url"
}

# apicheck serve over TLS; with no --cert it makes the CA and the server certificate the other
# two servers use too.
"$APICHECK" serve "$WORK/set1k/stubs" --tls --tls-dir "$WORK/tls" --port 0 --log-level warning > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
APICHECK_URL=$(wait_for_url "$WORK/serve.out" "$SERVER_PID")
[ -n "$APICHECK_URL" ] || { cat "$WORK/serve.out" "$WORK/serve.err" >&2; exit 1; }
CERT="$WORK/tls/server.pem"
KEY="$WORK/tls/server-key.pem"
CA="$WORK/tls/ca.pem"
for file in "$CERT" "$KEY" "$CA"; do [ -s "$file" ] || { echo "apicheck serve --tls made no $file" >&2; exit 1; }; done

# The minimal NIO server with the same certificate.
"$BENCH" nio-baseline --body "$WORK/set1k/body.json" --port 0 --cert "$CERT" --key "$KEY" > "$WORK/nio.out" 2> "$WORK/nio.err" &
NIO_PID=$!
NIO_URL=$(wait_for_url "$WORK/nio.out" "$NIO_PID")
[ -n "$NIO_URL" ] || { cat "$WORK/nio.out" "$WORK/nio.err" >&2; exit 1; }

# nginx: TLS 1.2 and 1.3, HTTP/2 by ALPN beside HTTP/1.1, the same certificate and bytes; session
# tickets and cache as nginx ships them (no client here offers a session). /handshake-check logs
# $ssl_session_reused for the check that the handshake client never resumes.
NGINX_PORT=$($HELPER free-port)
NGINX_VERSION=$("$NGINX" -v 2>&1 | grep -o '[0-9][0-9.]*' | head -1)
if [ "$(printf '%s\n1.25.1\n' "$NGINX_VERSION" | sort -V | head -1)" = 1.25.1 ]; then
  NGINX_LISTEN="listen 127.0.0.1:$NGINX_PORT ssl; http2 on;"
else
  NGINX_LISTEN="listen 127.0.0.1:$NGINX_PORT ssl http2;"  # `http2 on` arrived in nginx 1.25.1
fi
mkdir -p "$WORK/nginx/www/items" "$WORK/nginx/logs"
cp "$WORK/set1k/body.json" "$WORK/nginx/www/items/500"
chmod -R a+rX "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" << EOF
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  log_format reuse '\$ssl_protocol \$ssl_session_reused';
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
    $NGINX_LISTEN
    ssl_certificate $CERT;
    ssl_certificate_key $KEY;
    ssl_protocols TLSv1.2 TLSv1.3;
    root $WORK/nginx/www;
    location = /handshake-check { access_log $WORK/nginx/logs/reuse.log reuse; try_files /items/500 =404; }
    location / { default_type application/json; }
  }
}
EOF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log"
NGINX_URL="https://127.0.0.1:$NGINX_PORT"

# Each answers 200 with the same bytes over HTTP/1.1 and HTTP/2, and presents the same certificate.
for base in "$APICHECK_URL" "$NIO_URL" "$NGINX_URL"; do
  for version in 1.1 2; do
    answer=$(curl -s --cacert "$CA" "--http$version" -o "$WORK/check.body" -w '%{http_code} %{http_version}' "$base$URL_PATH" || true)
    [ "$answer" = "200 $version" ] && cmp -s "$WORK/check.body" "$WORK/set1k/body.json" ||
      { echo "$base$URL_PATH over HTTP/$version answered \"$answer\" or other bytes" >&2; exit 1; }
  done
done
FINGERPRINTS=$(for base in "$APICHECK_URL" "$NIO_URL" "$NGINX_URL"; do
  openssl s_client -connect "${base#https://}" < /dev/null 2> /dev/null | openssl x509 -noout -fingerprint -sha256
done | sort -u | wc -l)
[ "$FINGERPRINTS" = 1 ] || { echo "the three servers do not present the same certificate" >&2; exit 1; }

# The handshake client does full handshakes only: nginx (tickets on) logs none reused.
"$WORK/handshakes" 127.0.0.1 "$NGINX_PORT" /handshake-check 4 1 > /dev/null
sleep 0.2
REUSED=$(awk '$2 != "." {n++} END {print n + 0}' "$WORK/nginx/logs/reuse.log")
CHECKED=$(wc -l < "$WORK/nginx/logs/reuse.log")
[ "$CHECKED" -gt 0 ] && [ "$REUSED" = 0 ] || { echo "handshake check: $REUSED of $CHECKED connections resumed a session" >&2; exit 1; }

CLK_TCK=$(getconf CLK_TCK)
server_pids() {  # apicheck|nio|nginx: the process, or nginx's master and its workers
  case "$1" in
    apicheck) echo "$SERVER_PID" ;;
    nio) echo "$NIO_PID" ;;
    *)
      local master
      master=$(cat "$WORK/nginx/nginx.pid")
      echo "$master" $(pgrep -P "$master" || true)
      ;;
  esac
}
server_url() {
  case "$1" in apicheck) echo "$APICHECK_URL" ;; nio) echo "$NIO_URL" ;; *) echo "$NGINX_URL" ;; esac
}
cpu_ticks() {  # pid…: utime+stime (fields 14 and 15 of /proc/PID/stat, after the "(comm)"), summed
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$pid/stat")))
  done
  echo "$total"
}
cpu_stat() { awk '$1 == "cpu" {print $2, $3, $4, $5, $6, $7, $8, $9}' /proc/stat; }  # user … steal

load() {  # figure url seconds output: the load generator's output; stopped if it overruns by a minute
  local port=${2##*:} limit
  limit=$(awk -v s="$3" 'BEGIN {printf "%d", s + 60}')
  case "$1" in
    https) timeout -k 5 "$limit" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$3s" --latency "$2$URL_PATH" > "$4" ;;
    # A second of warm-up: h2load leaves a client that connects after the measured window running
    # (and itself waiting for it) until stopped.
    h2) timeout -k 5 "$limit" h2load -t"$THREADS" -c"$H2_CLIENTS" -m"$H2_STREAMS" --warm-up-time 1s -D "$3s" "$2$URL_PATH" > "$4" 2>&1 ;;
    handshakes) timeout -k 5 "$limit" "$WORK/handshakes" 127.0.0.1 "$port" "$URL_PATH" "$HANDSHAKE_CONNECTIONS" "$3" > "$4" ;;
  esac
}
measured() {  # figure output: req/s, latency ms, errors, requests
  case "$1" in
    https) $HELPER wrk "$2" | awk -v s="$($HELPER wrk-socket-errors "$2")" '{print $1, $2, $3 + s, $4}' ;;
    h2) $HELPER h2load "$2" ;;
    handshakes) cat "$2" ;;
  esac
}
run() {  # figure server round: one line per round in results-FIGURE-SERVER.txt: req/s, latency
  # ms (p99; h2load: mean), errors, requests, server CPU ticks
  local pids before after
  pids=$(server_pids "$2")
  before=$(cpu_ticks $pids)
  local status=0 figures=""
  load "$1" "$(server_url "$2")" "$SECONDS_PER_RUN" "$WORK/out-$1-$2-$3.txt" || status=$?
  after=$(cpu_ticks $pids)
  [ "$status" = 0 ] && figures=$(measured "$1" "$WORK/out-$1-$2-$3.txt" 2> /dev/null) || true
  if [ -z "$figures" ]; then  # a failed run counts as 0 req/s with one error, and is listed
    echo "round $3: $1 on $2 failed (exit $status; $( [ "$status" = 124 ] && echo "timed out" || echo "unreadable output"))" >> "$WORK/failures.txt"
    cp "$WORK/out-$1-$2-$3.txt" "$WORK/failed-$1-$2-$3.txt" 2> /dev/null || true
    figures="0 0 1 0"
  fi
  echo "$figures $((after - before))" >> "$WORK/results-$1-$2.txt"
}

describe() {
  case "$1" in
    https) echo "HTTPS keep-alive (wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency; HTTP/1.1 over TLS)" ;;
    h2) echo "HTTP/2 over TLS (h2load -t$THREADS -c$H2_CLIENTS -m$H2_STREAMS -D $DURATION)" ;;
    handshakes) echo "New TLS connections (full handshake + one GET + close, $HANDSHAKE_CONNECTIONS connections at a time, $DURATION)" ;;
  esac
}
latency_label() { case "$1" in h2) echo "mean ms" ;; *) echo "p99 ms" ;; esac; }

# Warm all three up (caches, page faults, the servers' pools); h2load says what TLS each negotiates.
echo "TLS figures ($FIGURES), $ROUNDS rounds interleaved, GET $URL_PATH (1,000 stubs)…" >&2
for server in apicheck nio nginx; do
  for figure in $FIGURES; do load "$figure" "$(server_url "$server")" 2 "$WORK/warm-$figure-$server.txt" || true; done
  load h2 "$(server_url "$server")" 1 "$WORK/tls-$server.txt" || true
done
children_seconds() {  # file of `times`: the CPU time of this script's finished children (load generators among them)
  awk 'NR == 2 {for (i = 1; i <= 2; i++) {split($i, t, /[ms]/); s += t[1] * 60 + t[2]}; print s}' "$1"
}
STAT_BEFORE=$(cpu_stat)
times > "$WORK/times-before.txt"  # in this shell: a subshell's `times` would count its own children
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then ORDER="apicheck nio nginx"; else ORDER="nginx nio apicheck"; fi
  echo "$ORDER" | awk '{print $1}' >> "$WORK/first.txt"
  for figure in $FIGURES; do
    for server in $ORDER; do run "$figure" "$server" "$round"; done
  done
done
STAT_AFTER=$(cpu_stat)
times > "$WORK/times-after.txt"

median() {  # file column
  awk -v c="$2" '{print $c}' "$1" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}
range_of() { sort -g "$1" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f–%.2f", lo, hi}'; }
ratios() {  # file-a file-b out: round i's req/s of a over b's, one a line
  paste -d ' ' "$1" "$2" | awk '{h = NF / 2; print ($(h + 1) > 0 ? $1 / $(h + 1) : 0)}' > "$3"
}
per_round() { awk '{printf "%s%.2f", (NR > 1 ? " " : ""), $1}' "$1"; }
label() { case "$1" in apicheck) echo "apicheck serve" ;; nio) echo "minimal NIO" ;; *) echo "nginx $NGINX_VERSION" ;; esac; }

echo
echo "Negotiated (h2load, each server):"
for server in apicheck nio nginx; do
  printf '  %-16s %s\n' "$(label "$server")" "$(awk -F': ' '/^(TLS Protocol|Cipher|Server Temp Key|Application protocol):/ {printf "%s%s", (n++ ? ", " : ""), $2}' "$WORK/tls-$server.txt")"
done
echo "Same certificate on all three (SHA-256 fingerprints equal); handshake client on $CLIENT_TLS: 0 of $CHECKED nginx connections resumed a session."
echo "Rounds started with: $(tr '\n' ' ' < "$WORK/first.txt")(odd rounds apicheck → NIO → nginx, even rounds the reverse)"

for figure in $FIGURES; do
  echo
  echo "$(describe "$figure"):"
  printf '  %-16s %-30s %10s %10s %8s %10s\n' "server" "req/s per round" "median" "$(latency_label "$figure")" "errors" "CPU µs/req"
  for server in apicheck nio nginx; do
    file="$WORK/results-$figure-$server.txt"
    awk -v hz="$CLK_TCK" '{print ($4 > 0 ? $5 * 1000000 / hz / $4 : 0)}' "$file" > "$WORK/cpu-$figure-$server.txt"
    printf '  %-16s %-30s %10.0f %10.2f %8s %10.1f\n' "$(label "$server")" "$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}' "$file")" \
      "$(median "$file" 1)" "$(median "$file" 2)" "$(awk '{s += $3} END {print s}' "$file")" "$(median "$WORK/cpu-$figure-$server.txt" 1)"
  done
  ratios "$WORK/results-$figure-apicheck.txt" "$WORK/results-$figure-nio.txt" "$WORK/ratio-$figure-nio.txt"
  ratios "$WORK/results-$figure-apicheck.txt" "$WORK/results-$figure-nginx.txt" "$WORK/ratio-$figure-nginx.txt"
  ratios "$WORK/results-$figure-nio.txt" "$WORK/results-$figure-nginx.txt" "$WORK/ratio-$figure-nio-nginx.txt"
  paste -d ' ' "$WORK/cpu-$figure-apicheck.txt" "$WORK/cpu-$figure-nio.txt" | awk '{print ($2 > 0 ? $1 / $2 : 0)}' > "$WORK/cpu-ratio-$figure.txt"
  r=$(median "$WORK/ratio-$figure-nio.txt" 1)
  printf '  apicheck / minimal NIO   %s  paired median %.2fx, range %s — target 0.95x %s\n' "$(per_round "$WORK/ratio-$figure-nio.txt")" \
    "$r" "$(range_of "$WORK/ratio-$figure-nio.txt")" "$(awk -v r="$r" 'BEGIN {print (r >= 0.95 ? "met" : "NOT met")}')"
  printf '  apicheck / nginx         %s  paired median %.2fx, range %s\n' "$(per_round "$WORK/ratio-$figure-nginx.txt")" \
    "$(median "$WORK/ratio-$figure-nginx.txt" 1)" "$(range_of "$WORK/ratio-$figure-nginx.txt")"
  printf '  minimal NIO / nginx      %s  paired median %.2fx, range %s\n' "$(per_round "$WORK/ratio-$figure-nio-nginx.txt")" \
    "$(median "$WORK/ratio-$figure-nio-nginx.txt" 1)" "$(range_of "$WORK/ratio-$figure-nio-nginx.txt")"
  printf '  server CPU per request, apicheck / minimal NIO   %s  median %.2fx, range %s (below 1: apicheck spends less)\n' \
    "$(per_round "$WORK/cpu-ratio-$figure.txt")" "$(median "$WORK/cpu-ratio-$figure.txt" 1)" "$(range_of "$WORK/cpu-ratio-$figure.txt")"
done

if [ -s "$WORK/failures.txt" ]; then
  echo
  echo "Failed runs (counted as 0 req/s):"
  sed 's/^/  /' "$WORK/failures.txt"
fi

echo
STEAL=$(awk -v b="$STAT_BEFORE" -v a="$STAT_AFTER" 'BEGIN {
  split(b, x); split(a, y)
  for (i = 1; i <= 8; i++) total += y[i] - x[i]
  printf "%.1f", (total > 0 ? 100 * (y[8] - x[8]) / total : 0)
}')
# What else ran: busy CPU time over the rounds less the servers' and the load generators'.
OTHERS=$(cat "$WORK"/results-*.txt | awk -v b="$STAT_BEFORE" -v a="$STAT_AFTER" -v hz="$CLK_TCK" \
  -v c="$(awk -v x="$(children_seconds "$WORK/times-before.txt")" -v y="$(children_seconds "$WORK/times-after.txt")" 'BEGIN {print y - x}')" '{servers += $5} END {
  split(b, x); split(a, y)
  for (i = 1; i <= 8; i++) total += y[i] - x[i]
  busy = total - (y[4] - x[4]) - (y[5] - x[5]) - (y[8] - x[8])
  other = (busy - servers - c * hz) / total * 100
  printf "%.1f", (other > 0 ? other : 0)
}')
echo "CPU steal during the TLS rounds: $STEAL% (of all CPU time on all cores); used by other processes: $OTHERS% (busy time less the servers' and the load generators')"
echo "RSS after the runs: apicheck serve $(( $(awk '/VmRSS/ {print $2}' "/proc/$SERVER_PID/status") / 1024 )) MiB, minimal NIO $(( $(awk '/VmRSS/ {print $2}' "/proc/$NIO_PID/status") / 1024 )) MiB"

# The summary: one Markdown row per figure.
summary_row() {  # figure
  local name target
  case "$1" in
    https) name="HTTPS keep-alive req/s (wrk -c$CONNECTIONS, HTTP/1.1, TLS 1.3)" ;;
    h2) name="HTTP/2 req/s (h2load -c$H2_CLIENTS -m$H2_STREAMS, TLS 1.3)" ;;
    handshakes) name="new TLS connections/s (full handshake + 1 GET, $HANDSHAKE_CONNECTIONS at a time)" ;;
  esac
  r=$(median "$WORK/ratio-$1-nio.txt" 1)
  target=$(awk -v r="$r" 'BEGIN {print (r >= 0.95 ? "≥ 0.95× — met" : "≥ 0.95× — **not met**")}')
  printf '| %s | %.0f | %.0f | %.0f | %.2f× (%s) | %s | %.2f× (%s) | %.2f× |\n' "$name" \
    "$(median "$WORK/results-$1-apicheck.txt" 1)" "$(median "$WORK/results-$1-nio.txt" 1)" "$(median "$WORK/results-$1-nginx.txt" 1)" \
    "$r" "$(range_of "$WORK/ratio-$1-nio.txt")" "$target" \
    "$(median "$WORK/ratio-$1-nginx.txt" 1)" "$(range_of "$WORK/ratio-$1-nginx.txt")" "$(median "$WORK/cpu-ratio-$1.txt" 1)"
}
if [ -n "${SUMMARY_ROWS:-}" ]; then
  for figure in $FIGURES; do summary_row "$figure" >> "$SUMMARY_ROWS"; done
  echo "$ROUNDS paired rounds of $DURATION, steal $STEAL%, other processes $OTHERS% of the CPU" >> "$SUMMARY_ROWS.notes"
else
  echo
  echo "Summary ($(nproc) cores, $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo); $ROUNDS paired rounds of $DURATION; steal $STEAL%; other processes $OTHERS% of the CPU; req/s medians; ratios per round: median (min–max)):"
  echo
  echo "| figure | apicheck | minimal NIO | nginx | apicheck / minimal NIO | target | apicheck / nginx | server CPU per request, apicheck / NIO |"
  echo "|---|---:|---:|---:|---:|---|---:|---:|"
  for figure in $FIGURES; do summary_row "$figure"; done
fi

kill "$SERVER_PID"; wait "$SERVER_PID" 2> /dev/null || true; SERVER_PID=""
kill "$NIO_PID"; wait "$NIO_PID" 2> /dev/null || true; NIO_PID=""
