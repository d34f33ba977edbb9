#!/usr/bin/env bash
# The stub server held to SwiftNIO, with nginx beside it: `apicheck serve` must answer at least
# 0.95× the requests per second of a minimal SwiftNIO server in the same rounds (issue #31); its
# ratio to nginx is printed too, though it follows the CPU more than the code (a turn apart, the
# same build measured 1.28× and 0.7× nginx on two machines, and equal to bare NIO on both).
#
#   wrk -t2 -c64 -d10s --latency against `apicheck serve` with 1,000 stubs loaded (a literal-path
#   stub and a templated-path stub), against nginx (2 workers = 2 event loops, access log off)
#   serving the same 300 body bytes, and against the minimal NIO server; 3 interleaved rounds.
#   The machine's speed drifts between minutes, so ratios are taken per round from runs back to
#   back (paired: odd rounds apicheck first, even rounds nginx first, so a steady drift favours
#   neither), and their median and min–max are printed:
#   - apicheck / minimal NIO, the target (`apicheck-bench nio-baseline`: NIO's own HTTP/1.1
#     pipeline and one fixed response of the same bytes, no matching, no journal; it runs right
#     after the literal pair of each round);
#   - apicheck / nginx, per path;
#   - with BASELINE_APICHECK=path/to/another/apicheck (a build of main, say), that server runs
#     right after apicheck on each path of each round, and apicheck / baseline is printed: before
#     and after a change, measured in the same rounds.
#   Also: server CPU per request (utime+stime from /proc/PID/stat over each run / wrk's request
#   count; steal time and waiting are not counted), instructions per request from `perf stat`
#   when the machine has hardware counters, the share of CPU steal time, RSS after the runs, the
#   time from process start to the first 200 with 10,000 stubs (median of 3), and, when valgrind
#   is installed, callgrind's exact instructions per request (Benchmarks/serve-instructions.sh,
#   the machine-independent figure CI holds to a budget).
#
# Then, over TLS (issue #34; Benchmarks/serve-tls.sh, which runs alone too): HTTPS keep-alive
# (wrk), HTTP/2 (h2load, 64 streams) and new TLS connections per second (full handshakes), each
# against a minimal NIO + swift-nio-ssl server in the same rounds, nginx with TLS beside; and last
# a Markdown table of every figure: apicheck / minimal NIO (the target, 0.95×) and / nginx.
#
# Environment: ROUNDS (3), DURATION (10s), CONNECTIONS (64), THREADS (2), BASELINE_APICHECK,
# SCRATCH_PATH (the swift build folder, default .build), SKIP_BUILD=1 (use the release binaries
# as they are, no `swift build`), SECTIONS ("plain tls"; "plain" for cleartext only, "tls" for
# the TLS figures only), and serve-tls.sh's own (H2_CLIENTS, H2_STREAMS, HANDSHAKE_CONNECTIONS,
# FIGURES). Installs wrk and nginx from Debian's packages when they are missing (serve-tls.sh:
# h2load, a C compiler and BoringSSL's headers too).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
SECTIONS=${SECTIONS:-plain tls}
case " $SECTIONS " in *" plain "* | *" tls "*) ;; *) echo "SECTIONS: plain, tls or both, not \"$SECTIONS\"" >&2; exit 2 ;; esac
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

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  scripts/setup --deps > /dev/null
  echo "Building apicheck (release)…" >&2
  swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
  swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck-bench > /dev/null
fi
APICHECK="$SCRATCH_PATH/release/apicheck"
BENCH="$SCRATCH_PATH/release/apicheck-bench"

# The TLS figures run after the cleartext ones, from Benchmarks/serve-tls.sh (built above).
run_tls() {  # extra environment for serve-tls.sh
  env "$@" ROUNDS="$ROUNDS" DURATION="$DURATION" CONNECTIONS="$CONNECTIONS" THREADS="$THREADS" \
    SCRATCH_PATH="$SCRATCH_PATH" CONFIGURATION=release SKIP_BUILD=1 Benchmarks/serve-tls.sh
}
case " $SECTIONS " in *" plain "*) ;; *) run_tls; exit ;; esac

WORK=$(mktemp -d /tmp/apicheck-serve-bench.XXXXXX)
chmod 755 "$WORK"
SERVER_PID=""
NIO_PID=""
BASELINE_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  [ -n "$BASELINE_PID" ] && kill "$BASELINE_PID" 2> /dev/null || true
  [ -n "$NIO_PID" ] && kill "$NIO_PID" 2> /dev/null || true
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

# The same for the baseline build, when one is given.
BASELINE_URL=""
if [ -n "${BASELINE_APICHECK:-}" ]; then
  "$BASELINE_APICHECK" serve "$WORK/set1k/stubs" --port 0 --log-level warning > "$WORK/baseline.out" 2> "$WORK/baseline.err" &
  BASELINE_PID=$!
  for _ in $(seq 1 200); do [ -s "$WORK/baseline.out" ] && break; sleep 0.05; done
  BASELINE_URL=$(head -1 "$WORK/baseline.out" | grep -o 'http://127\.0\.0\.1:[0-9]*')
  [ -n "$BASELINE_URL" ] || { cat "$WORK/baseline.err" >&2; exit 1; }
fi

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

# The reference the target is stated against: a minimal SwiftNIO server (NIO's HTTP pipeline and
# one fixed response; no matching, no journal), answering every path with the same bytes.
"$BENCH" nio-baseline --body "$WORK/set1k/body.json" --port 0 > "$WORK/nio.out" 2> "$WORK/nio.err" &
NIO_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/nio.out" ] && break; sleep 0.05; done
NIO_URL=$(head -1 "$WORK/nio.out" | grep -o 'http://127\.0\.0\.1:[0-9]*')
[ -n "$NIO_URL" ] || { cat "$WORK/nio.err" >&2; exit 1; }

CHECKED_URLS="$APICHECK_URL$LITERAL $APICHECK_URL$TEMPLATED $NGINX_URL$LITERAL $NGINX_URL$TEMPLATED $NIO_URL$LITERAL"
[ -n "$BASELINE_URL" ] && CHECKED_URLS="$CHECKED_URLS $BASELINE_URL$LITERAL $BASELINE_URL$TEMPLATED"
for url in $CHECKED_URLS; do
  code=$(curl -s -o "$WORK/check.body" -w '%{http_code}' "$url")
  [ "$code" = 200 ] && cmp -s "$WORK/check.body" "$WORK/set1k/body.json" || { echo "$url answered $code or other bytes" >&2; exit 1; }
done

CLK_TCK=$(getconf CLK_TCK)
server_pids() {  # apicheck|baseline|nio|nginx: the process, or nginx's master and its workers
  if [ "$1" = apicheck ]; then
    echo "$SERVER_PID"
  elif [ "$1" = baseline ]; then
    echo "$BASELINE_PID"
  elif [ "$1" = nio ]; then
    echo "$NIO_PID"
  else
    local master
    master=$(cat "$WORK/nginx/nginx.pid")
    echo "$master" $(pgrep -P "$master" || true)
  fi
}
cpu_ticks() {  # pid…: utime+stime (fields 14 and 15 of /proc/PID/stat, after the "(comm)"), summed
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$pid/stat")))
  done
  echo "$total"
}
cpu_stat() { awk '$1 == "cpu" {print $2, $3, $4, $5, $6, $7, $8, $9}' /proc/stat; }  # user … steal

# Instruction counts need perf and hardware counters (often missing in VMs and containers).
PERF_COUNTS=0
if command -v perf > /dev/null && perf stat -x, -e instructions:u,instructions:k -- true 2>&1 |
  awk -F, '/instructions/ && $1 ~ /^[0-9]+$/ {n++} END {exit (n == 2 ? 0 : 1)}'; then
  PERF_COUNTS=1
fi

run_wrk() {  # server path url round
  # One line per round in results-SERVER-PATH.txt: req/s, p99 ms, non-2xx, requests, server CPU
  # ticks, server user and kernel instructions (0 0 without perf).
  local pids before after perf_pid="" counts="0 0"
  pids=$(server_pids "$1")
  if [ "$PERF_COUNTS" = 1 ]; then
    perf stat -x, -e instructions:u,instructions:k -p "$(echo $pids | tr ' ' ,)" -o "$WORK/perf-$1-$2-$4.txt" &
    perf_pid=$!
  fi
  before=$(cpu_ticks $pids)
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$3" > "$WORK/wrk-$1-$2-$4.txt"
  after=$(cpu_ticks $pids)
  if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid" 2> /dev/null || true
    wait "$perf_pid" 2> /dev/null || true
    counts=$(awk -F, '/instructions:u/ {u = $1} /instructions:k/ {k = $1} END {print u + 0, k + 0}' "$WORK/perf-$1-$2-$4.txt")
  fi
  echo "$($HELPER wrk "$WORK/wrk-$1-$2-$4.txt") $((after - before)) $counts" >> "$WORK/results-$1-$2.txt"
}

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds interleaved…" >&2
# Warm both up (JIT-free, but caches, connection setup, page faults).
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$APICHECK_URL$LITERAL" > /dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$NGINX_URL$LITERAL" > /dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$NIO_URL$LITERAL" > /dev/null
[ -n "$BASELINE_URL" ] && wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$BASELINE_URL$LITERAL" > /dev/null
STAT_BEFORE=$(cpu_stat)
for round in $(seq 1 "$ROUNDS"); do
  # Per path, the two servers back to back; odd rounds apicheck first, even rounds nginx first.
  if [ $((round % 2)) = 1 ]; then ORDER="apicheck nginx"; else ORDER="nginx apicheck"; fi
  # The baseline build runs right after apicheck.
  [ -n "$BASELINE_URL" ] && ORDER=$(echo "$ORDER" | sed 's/apicheck/apicheck baseline/')
  for path in literal templated; do
    if [ "$path" = literal ]; then URL_PATH=$LITERAL; else URL_PATH=$TEMPLATED; fi
    for server in $ORDER; do
      case "$server" in
        apicheck) BASE=$APICHECK_URL ;;
        baseline) BASE=$BASELINE_URL ;;
        *) BASE=$NGINX_URL ;;
      esac
      run_wrk "$server" "$path" "$BASE$URL_PATH" "$round"
    done
    echo "${ORDER%% *}" >> "$WORK/first-$path.txt"
    # The minimal NIO server once per round, right after the literal pair (its path is irrelevant).
    if [ "$path" = literal ]; then run_wrk nio literal "$NIO_URL$LITERAL" "$round"; fi
  done
done
STAT_AFTER=$(cpu_stat)

median() {  # file column
  awk -v c="$2" '{print $c}' "$1" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2> /dev/null || echo 0; }

NAMES="apicheck-literal nginx-literal apicheck-templated nginx-templated"
[ -n "$BASELINE_URL" ] && NAMES="$NAMES baseline-literal baseline-templated"
echo
echo "Rounds (req/s, p99 ms):"
for name in $NAMES nio-literal; do
  printf '  %-20s %s\n' "$name" "$(awk '{printf "%s/%s  ", $1, $2}' "$WORK/results-$name.txt")"
done
echo "Medians:"
printf '%-22s %12s %10s %8s\n' "server / path" "req/s" "p99 ms" "non-2xx"
for name in $NAMES; do
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
# Pasted lines of two results files (same column count): first req/s over second req/s.
req_ratio() { awk '{h = NF / 2; print ($(h + 1) > 0 ? $1 / $(h + 1) : 0)}'; }
range_of() { sort -g "$1" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f–%.2f", lo, hi}'; }

# Paired ratios: round i of apicheck over round i of nginx, per path (results-* lines are in round order).
echo
echo "Paired ratios apicheck/nginx of req/s (per round, the two runs back to back; a→n: apicheck ran first):"
for path in literal templated; do
  paste -d ' ' "$WORK/results-apicheck-$path.txt" "$WORK/results-nginx-$path.txt" | req_ratio \
    > "$WORK/paired-$path.txt"
  printf '  %-10s %s  median %.2f, range %s\n' "$path" \
    "$(paste -d ' ' "$WORK/first-$path.txt" "$WORK/paired-$path.txt" |
      awk '{printf "%sr%d %s %.2f", (NR > 1 ? "  " : ""), NR, ($1 == "apicheck" ? "a→n" : "n→a"), $2}')" \
    "$(median "$WORK/paired-$path.txt" 1)" "$(range_of "$WORK/paired-$path.txt")"
done

# Server CPU per request: CPU ticks over the run / requests, in µs.
echo
echo "Server CPU per request (µs, utime+stime during each run / requests; nginx = master + workers):"
for name in $NAMES; do
  awk -v hz="$CLK_TCK" '{print ($4 > 0 ? $5 * 1000000 / hz / $4 : 0)}' "$WORK/results-$name.txt" > "$WORK/cpu-$name.txt"
  printf '  %-20s %s  median %.1f\n' "$name" "$(awk '{printf "%s%.1f", (NR > 1 ? " " : ""), $1}' "$WORK/cpu-$name.txt")" \
    "$(median "$WORK/cpu-$name.txt" 1)"
done
for path in literal templated; do
  awk -v a="$(median "$WORK/cpu-apicheck-$path.txt" 1)" -v n="$(median "$WORK/cpu-nginx-$path.txt" 1)" -v p="$path" 'BEGIN {
    if (a <= 0 || n <= 0) { printf "  %s: no CPU time measured\n", p; exit }
    r = n / a
    if (r >= 1) printf "  %s: apicheck uses %.2f× less CPU per request than nginx (%.1f µs vs %.1f µs, medians)\n", p, r, a, n
    else printf "  %s: apicheck uses %.2f× more CPU per request than nginx (%.1f µs vs %.1f µs, medians)\n", p, 1 / r, a, n
  }'
done

# Instructions per request: user and kernel, in thousands; their medians and nginx/apicheck.
echo
if [ "$PERF_COUNTS" = 1 ]; then
  echo "Server instructions per request (thousands, user + kernel, perf stat; independent of the machine's speed):"
  for name in apicheck-literal nginx-literal apicheck-templated nginx-templated nio-literal; do
    awk '{print ($4 > 0 ? $6 / $4 / 1000 : 0), ($4 > 0 ? $7 / $4 / 1000 : 0), ($4 > 0 ? ($6 + $7) / $4 / 1000 : 0)}' \
      "$WORK/results-$name.txt" > "$WORK/instructions-$name.txt"
    label=$name; [ "$name" = nio-literal ] && label="minimal NIO"
    printf '  %-20s user %5.1f + kernel %5.1f = %5.1f  (medians; totals per round: %s)\n' "$label" \
      "$(median "$WORK/instructions-$name.txt" 1)" "$(median "$WORK/instructions-$name.txt" 2)" \
      "$(median "$WORK/instructions-$name.txt" 3)" "$(awk '{printf "%s%.1f", (NR > 1 ? " " : ""), $3}' "$WORK/instructions-$name.txt")"
  done
  for path in literal templated; do
    awk -v a="$(median "$WORK/instructions-apicheck-$path.txt" 3)" -v n="$(median "$WORK/instructions-nginx-$path.txt" 3)" -v p="$path" \
      'BEGIN { if (a > 0 && n > 0) printf "  %s: apicheck executes %.2f× %s instructions per request than nginx\n", p, (n >= a ? n / a : a / n), (n >= a ? "fewer" : "more") }'
  done
else
  echo "Instructions per request: not measured (needs Linux perf with hardware counters)."
fi

echo
STEAL=$(awk -v b="$STAT_BEFORE" -v a="$STAT_AFTER" 'BEGIN {
  split(b, x); split(a, y)
  for (i = 1; i <= 8; i++) total += y[i] - x[i]
  printf "%.1f", (total > 0 ? 100 * (y[8] - x[8]) / total : 0)
}')
echo "CPU steal during the runs: $STEAL% (of all CPU time on all cores over the measured rounds)"

# The reference point: what SwiftNIO alone reaches against nginx in the same rounds, and how much
# of it the stub server keeps. (nio ran right after the literal pair of each round.)
echo
for name in nio-literal; do
  awk -v hz="$CLK_TCK" '{print ($4 > 0 ? $5 * 1000000 / hz / $4 : 0)}' "$WORK/results-$name.txt" > "$WORK/cpu-$name.txt"
done
paste -d ' ' "$WORK/results-nio-literal.txt" "$WORK/results-nginx-literal.txt" | req_ratio > "$WORK/paired-nio.txt"
paste -d ' ' "$WORK/results-apicheck-literal.txt" "$WORK/results-nio-literal.txt" | req_ratio > "$WORK/paired-apicheck-nio-literal.txt"
paste -d ' ' "$WORK/results-apicheck-templated.txt" "$WORK/results-nio-literal.txt" | req_ratio > "$WORK/paired-apicheck-nio-templated.txt"
echo "Reference: a minimal SwiftNIO server (apicheck-bench nio-baseline: NIO's HTTP/1.1 pipeline, one fixed response)"
printf '  req/s per round     %s  median %s, p99 %s ms\n' "$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}' "$WORK/results-nio-literal.txt")" \
  "$(median "$WORK/results-nio-literal.txt" 1)" "$(median "$WORK/results-nio-literal.txt" 2)"
printf '  CPU per request     median %.1f µs\n' "$(median "$WORK/cpu-nio-literal.txt" 1)"
printf '  minimal NIO / nginx (literal, same round)          paired median %.2fx, range %s\n' "$(median "$WORK/paired-nio.txt" 1)" "$(range_of "$WORK/paired-nio.txt")"
printf '  apicheck literal / minimal NIO (same round)        paired median %.2fx, range %s\n' \
  "$(median "$WORK/paired-apicheck-nio-literal.txt" 1)" "$(range_of "$WORK/paired-apicheck-nio-literal.txt")"
printf '  apicheck templated / minimal NIO (same round)      paired median %.2fx, range %s\n' \
  "$(median "$WORK/paired-apicheck-nio-templated.txt" 1)" "$(range_of "$WORK/paired-apicheck-nio-templated.txt")"

# Before and after: the baseline build in the same rounds, right after apicheck.
if [ -n "$BASELINE_URL" ]; then
  echo
  echo "Baseline ($BASELINE_APICHECK), run right after apicheck on each path of each round:"
  for path in literal templated; do
    paste -d ' ' "$WORK/results-apicheck-$path.txt" "$WORK/results-baseline-$path.txt" | req_ratio > "$WORK/paired-baseline-$path.txt"
    paste -d ' ' "$WORK/results-baseline-$path.txt" "$WORK/results-nio-literal.txt" | req_ratio > "$WORK/paired-baseline-nio-$path.txt"
    printf '  %-10s apicheck / baseline paired median %.2fx, range %s; baseline / minimal NIO %.2fx, range %s\n' "$path" \
      "$(median "$WORK/paired-baseline-$path.txt" 1)" "$(range_of "$WORK/paired-baseline-$path.txt")" \
      "$(median "$WORK/paired-baseline-nio-$path.txt" 1)" "$(range_of "$WORK/paired-baseline-nio-$path.txt")"
  done
fi

# The verdict: the target is the minimal NIO server; nginx's ratio stands beside it.
echo
for path in literal templated; do
  awk -v r="$(median "$WORK/paired-apicheck-nio-$path.txt" 1)" -v range="$(range_of "$WORK/paired-apicheck-nio-$path.txt")" -v n="$ROUNDS" \
    -v g="$(median "$WORK/paired-$path.txt" 1)" -v grange="$(range_of "$WORK/paired-$path.txt")" \
    -v ap="$(median "$WORK/results-apicheck-$path.txt" 2)" -v np="$(median "$WORK/results-nginx-$path.txt" 2)" -v p="$path" \
    'BEGIN {printf "%s: %.2fx the minimal NIO server (paired median, %d rounds, range %s) — target 0.95x %s; %.2fx nginx (range %s); p99 %.2f ms vs nginx %.2f ms\n",
      p, r, n, range, (r >= 0.95 ? "met" : "not met"), g, grange, ap, np}'
done

NGINX_RSS=0
for pid in $(cat "$WORK/nginx/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx/nginx.pid")"); do
  NGINX_RSS=$((NGINX_RSS + $(rss_kib "$pid")))
done
echo
echo "RSS after the runs: apicheck serve $(( $(rss_kib "$SERVER_PID") / 1024 )) MiB (1,000 stubs, journal of 10,000); nginx $((NGINX_RSS / 1024)) MiB (master + 2 workers)"

kill "$SERVER_PID"; wait "$SERVER_PID" 2> /dev/null || true; SERVER_PID=""
if [ -n "$BASELINE_PID" ]; then kill "$BASELINE_PID"; wait "$BASELINE_PID" 2> /dev/null || true; BASELINE_PID=""; fi
kill "$NIO_PID"; wait "$NIO_PID" 2> /dev/null || true; NIO_PID=""
kill "$(cat "$WORK/nginx/nginx.pid")"; rm -f "$WORK/nginx/nginx.pid"

$HELPER generate 10000 "$WORK/set10k"
for round in $(seq 1 "$ROUNDS"); do
  $HELPER first-request "$APICHECK" "$WORK/set10k/stubs" /items/0 >> "$WORK/startup.txt"
done
echo "Process start to first 200 with 10,000 stubs: $(median "$WORK/startup.txt" 1) ms (median of $ROUNDS; runs: $(tr '\n' ' ' < "$WORK/startup.txt"))"

# The machine-independent figure: exact instructions per request under callgrind (CI checks the
# debug build's against a budget; this is the release build's).
if command -v valgrind > /dev/null; then
  echo
  Benchmarks/serve-instructions.sh "$APICHECK"
  [ -n "${BASELINE_APICHECK:-}" ] && CONFIGURATION=release Benchmarks/serve-instructions.sh "$BASELINE_APICHECK" | sed 's/^apicheck serve/baseline/'
fi

# The TLS figures, then one table of everything: per figure the medians, apicheck / minimal NIO
# (paired, median and min–max over the rounds) against the target, and apicheck / nginx.
TLS_NOTE=""
if [[ " $SECTIONS " == *" tls "* ]]; then
  echo
  echo "== TLS =="
  run_tls SUMMARY_ROWS="$WORK/tls-rows.md"
  TLS_NOTE="; TLS: $(cat "$WORK/tls-rows.md.notes")"
fi
echo
echo "Summary ($(nproc) cores, $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo); cleartext: $ROUNDS paired rounds of $DURATION, steal $STEAL%$TLS_NOTE; req/s medians; ratios per round, median (min–max)):"
echo
echo "| figure | apicheck | minimal NIO | nginx | apicheck / minimal NIO | target | apicheck / nginx | server CPU per request, apicheck / NIO |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
for path in literal templated; do
  r=$(median "$WORK/paired-apicheck-nio-$path.txt" 1)
  paste -d ' ' "$WORK/cpu-apicheck-$path.txt" "$WORK/cpu-nio-literal.txt" | awk '{print ($2 > 0 ? $1 / $2 : 0)}' > "$WORK/cpu-ratio-$path.txt"
  printf '| cleartext HTTP/1.1 keep-alive req/s (wrk -c%s), %s path | %.0f | %.0f | %.0f | %.2f× (%s) | ≥ 0.95× (no regression) — %s | %.2f× (%s) | %.2f× |\n' \
    "$CONNECTIONS" "$path" "$(median "$WORK/results-apicheck-$path.txt" 1)" "$(median "$WORK/results-nio-literal.txt" 1)" \
    "$(median "$WORK/results-nginx-$path.txt" 1)" "$r" "$(range_of "$WORK/paired-apicheck-nio-$path.txt")" \
    "$(awk -v r="$r" 'BEGIN {print (r >= 0.95 ? "met" : "**not met**")}')" \
    "$(median "$WORK/paired-$path.txt" 1)" "$(range_of "$WORK/paired-$path.txt")" "$(median "$WORK/cpu-ratio-$path.txt" 1)"
done
if [ -s "$WORK/tls-rows.md" ]; then cat "$WORK/tls-rows.md"; fi
