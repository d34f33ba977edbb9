#!/usr/bin/env bash
# Soak and reload-under-load benchmark of `apicheck serve` (127.0.0.1 only, bounded in time).
#
#   1. Soak: REQUESTS (1,000,000) keep-alive GETs over CONNECTIONS (64) persistent connections,
#      rotating over every GET path that stubs/acmeflix answers 2xx (26: /, /library,
#      /cart/AzCa3T, 12 movies (a Mustache template), 11 posters (body files)), against
#      `apicheck serve stubs/acmeflix`. Every response is checked: status, Content-Type and the
#      body byte for byte against what the stub files say (worked out by the client from the
#      files, not from the server). Errors: a wrong status or body, a connection error, a timeout
#      (10 s). The server's RSS (/proc/PID/status VmRSS) is read when the RSS_AT-th response
#      arrives (100,000; for REQUESTS below 200,000, REQUESTS/2) and when the last one does, and
#      every second. Passes with 0 errors and RSS at the end within ±10% of RSS at RSS_AT.
#      The journal keeps the last 10,000 requests, so RSS grows until it is full (and a little
#      after): the RSS check means something from REQUESTS=200000 up; small runs are smoke tests.
#   2. Reload under load: the same load for DURATION seconds (60) against `apicheck serve --watch`
#      of a copy of the stubs in a temporary folder, rewritten every second: set A and set B
#      alternate (an `X-Set: A|B` header on every stub, `"set":"A|B"` first in every inline JSON
#      body, " [set A|B]" at the end of each movie's synopsis), each rewrite in the next of three
#      ways: temp file + rename (an editor), plain overwrite in place, unlink + create (git
#      checkout). Every response must be exactly set A's or set B's answer for its path (status,
#      Content-Type, X-Set, body); a response with the head of one set and the body of the other
#      is "mixed", one matching neither "neither". On one connection, once a stub file answered
#      from the new set, it must not answer from the old one again ("back to the old set"; per
#      file, as a reload may catch a tree with some files rewritten and others not yet). After
#      the last rewrite, every path on new connections must answer the set last written. Reloads
#      are counted from GET /__apicheck/health ("reloads") and from the server's log ("reloaded
#      (files changed)"); rejected reloads (a file read while being written) are shown, not
#      failed: the server keeps the last good set then. The rewriter is a process of its own and
#      reports rewrites that took over 250 ms (a busy machine): a reload may then see a half-
#      written tree, e.g. a file missing between unlink and create, and drop its stubs (404s).
#
# The client is Benchmarks/soak-client.py (Python 3, standard library, asyncio streams, raw
# HTTP/1.1, no pipelining): not wrk, because wrk cannot check bodies and runs for a duration, not
# a count; the client sends exactly REQUESTS requests and counts each one once, ok or error.
#
# Environment:
#   REQUESTS=1000000     soak requests (RSS_AT: 100000, or REQUESTS/2 below 200,000)
#   CONNECTIONS=64       keep-alive connections (both phases)
#   DURATION=60          seconds of the reload phase (INTERVAL=1: seconds between rewrites)
#   APICHECK=.build/release/apicheck   the binary (build it with `swift build -c release`)
#   PHASES="soak reload" which phases to run
#   THREADS              `--threads` for the server (default: its own, one per core)
#   KEEP=DIR             copy the results (JSON), the server logs, the rewrites and the lint output there
# Exit status: 0 when every limit holds, 1 when one does not (errors, RSS drift, mixed answers,
# no reload, a stale set), 2 for a setup problem.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi
[ $# -eq 0 ] || { echo "usage: $0 [--help]   (settings are environment variables, see --help)" >&2; exit 2; }

REQUESTS=${REQUESTS:-1000000}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-60}
INTERVAL=${INTERVAL:-1}
APICHECK=${APICHECK:-.build/release/apicheck}
PHASES=${PHASES:-"soak reload"}
if [ -z "${RSS_AT:-}" ]; then
  if [ "$REQUESTS" -ge 200000 ]; then RSS_AT=100000; else RSS_AT=$((REQUESTS / 2)); fi
fi
[ "$RSS_AT" -ge 1 ] && [ "$RSS_AT" -le "$REQUESTS" ] || { echo "RSS_AT must be between 1 and REQUESTS" >&2; exit 2; }
CLIENT="python3 Benchmarks/soak-client.py"
SRC=stubs/acmeflix
THREAD_ARGS=()
[ -n "${THREADS:-}" ] && THREAD_ARGS=(--threads "$THREADS")

if [ ! -x "$APICHECK" ]; then
  echo "$APICHECK not found: run \`swift build -c release\` first (or set APICHECK=path/to/apicheck)" >&2
  exit 2
fi
command -v python3 > /dev/null || { echo "python3 is needed" >&2; exit 2; }

WORK=$(mktemp -d /tmp/apicheck-soak.XXXXXX)
SERVER_PID=""
CLIENT_PID=""
cleanup() {
  [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2> /dev/null || true
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2> /dev/null || true
    # Graceful stop within --shutdown-timeout (10 s); then at once.
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2> /dev/null || true
  fi
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP" && cp "$WORK"/*.json "$WORK"/*.jsonl "$WORK"/*.err "$WORK"/*.out "$WORK"/*.txt "$KEEP"/ 2> /dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts the server (arguments after the binary), sets SERVER_PID and PORT.
start_server() {  # log-name args…
  local name=$1
  shift
  "$APICHECK" serve "$@" --port 0 "${THREAD_ARGS[@]}" > "$WORK/$name.out" 2> "$WORK/$name.err" &
  SERVER_PID=$!
  for _ in $(seq 1 200); do [ -s "$WORK/$name.out" ] && break; sleep 0.05; done
  local url
  url=$(head -1 "$WORK/$name.out" | grep -o 'http://127\.0\.0\.1:[0-9]*' || true)
  if [ -z "$url" ]; then
    echo "apicheck serve did not start:" >&2
    cat "$WORK/$name.err" >&2
    exit 2
  fi
  PORT=${url##*:}
}

stop_server() {  # log-name
  kill "$SERVER_PID" 2> /dev/null || true
  local status=0
  wait "$SERVER_PID" 2> /dev/null || status=$?
  SERVER_PID=""
  [ "$status" = 0 ] || echo "  note: apicheck serve exited with status $status after SIGTERM (0 expected)"
}

# Runs the client in the background (so the INT/TERM trap can stop it), bounded by `timeout`.
run_client() {  # seconds args…
  local limit=$1
  shift
  timeout --kill-after=10 "$limit" $CLIENT "$@" &
  CLIENT_PID=$!
  local status=0
  wait "$CLIENT_PID" || status=$?
  CLIENT_PID=""
  return "$status"
}

machine() {
  echo "  $(uptime | sed 's/^ *//'); $(nproc) CPUs"
}

echo "apicheck soak: $APICHECK ($("$APICHECK" --version 2> /dev/null || echo '?')), $SRC"
echo "paths: $($CLIENT paths "$SRC" | wc -l) GET paths answered 2xx"
SOAK_JSON="-"
RELOAD_JSON="-"

for phase in $PHASES; do
  case $phase in
    soak)
      echo
      echo "== soak: $REQUESTS requests, $CONNECTIONS connections, RSS at response $RSS_AT and at the last"
      machine
      start_server soak "$SRC"
      echo "  server pid $SERVER_PID on 127.0.0.1:$PORT: $(head -1 "$WORK/soak.out")"
      SOAK_JSON="$WORK/soak.json"
      # Bounded: the client stops itself at 1,800 s (a deadline error); `timeout` backs it up.
      run_client 1900 soak --port "$PORT" --pid "$SERVER_PID" --src "$SRC" --requests "$REQUESTS" \
        --connections "$CONNECTIONS" --rss-at "$RSS_AT" --max-seconds 1800 --out "$SOAK_JSON" || true
      machine
      stop_server soak
      errors=$(grep -c -E ' (error|critical|warning) ' "$WORK/soak.err" || true)
      echo "  server log: $(wc -l < "$WORK/soak.err") lines, $errors at warning or above"
      [ "$errors" = 0 ] || grep -m 20 -E ' (error|critical|warning) ' "$WORK/soak.err" | sed 's/^/    /'
      ;;
    reload)
      echo
      echo "== reload under load: ${DURATION} s, $CONNECTIONS connections, files rewritten every ${INTERVAL} s (--watch)"
      $CLIENT make-set "$SRC" "$WORK/reload-stubs" A
      for label in A B; do  # both sets must be valid stub sets
        rm -rf "$WORK/check-$label"
        $CLIENT make-set "$SRC" "$WORK/check-$label" "$label"
        "$APICHECK" lint "$WORK/check-$label" > "$WORK/lint-$label.txt" 2>&1 || {
          echo "set $label does not lint:" >&2
          cat "$WORK/lint-$label.txt" >&2
          exit 2
        }
        rm -rf "$WORK/check-$label"
      done
      machine
      start_server reload "$WORK/reload-stubs" --watch
      echo "  server pid $SERVER_PID on 127.0.0.1:$PORT: $(head -1 "$WORK/reload.out")"
      RELOAD_JSON="$WORK/reload.json"
      run_client $((${DURATION%.*} + 180)) reload --port "$PORT" --pid "$SERVER_PID" --src "$SRC" --dir "$WORK/reload-stubs" \
        --duration "$DURATION" --interval "$INTERVAL" --connections "$CONNECTIONS" --out "$RELOAD_JSON" || true
      machine
      stop_server reload
      applied=$(grep -c 'reloaded (files changed)' "$WORK/reload.err" || true)
      rejected=$(grep -c 'reload (files changed) rejected' "$WORK/reload.err" || true)
      other=$(grep -E ' (error|critical|warning) ' "$WORK/reload.err" | grep -vc 'reload (files changed) rejected' || true)
      echo "  server log: $applied reloads applied ('reloaded (files changed)'), $rejected rejected, $other other lines at warning or above"
      if [ "$rejected" != 0 ] || [ "$other" != 0 ]; then
        echo "  the first of them, and every reload line that did not load all 8 files:"
        grep -m 12 -E ' (error|critical|warning) ' "$WORK/reload.err" | sed 's/^/    /'  || true
        grep -E 'reloaded \(files changed\)' "$WORK/reload.err" | grep -v ' from 8 files ' | sed 's/^/    /' || true
      fi
      echo "$applied $rejected" > "$WORK/reload-log.txt"
      ;;
    *)
      echo "unknown phase $phase (soak, reload)" >&2
      exit 2
      ;;
  esac
done

echo
echo "== results"
status=0
$CLIENT table "$SOAK_JSON" "$RELOAD_JSON" $(cat "$WORK/reload-log.txt" 2> /dev/null) || status=1
exit "$status"
