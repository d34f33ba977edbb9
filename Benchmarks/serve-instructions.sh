#!/usr/bin/env bash
# Instructions per request of `apicheck serve`, counted by valgrind's callgrind: exact and the
# same on any machine (req/s follows the CPU and its neighbours; see Benchmarks/serve.sh), so CI
# can hold the server to a committed budget.
#
#   Benchmarks/serve-instructions.sh [--check] [BINARY]
#
# BINARY is an `apicheck` build (default: .build/release/apicheck when it exists, else
# .build/debug/apicheck); CONFIGURATION (release or debug) is read from its path unless set.
# It serves serve-helper.py's 1,000 generated stubs on one event loop under callgrind, with
# instrumentation off while loading, sends 200 warm-up requests per path, then counts user-space
# instructions over REQUESTS (2,000) sequential GETs on one keep-alive connection, of a literal
# path and of a templated one, and prints them per request. The kernel's work is not counted.
# Repeated runs agree within about 0.3%.
#
# --check compares them with Benchmarks/serve-instructions.budget and fails when a path is over
# its budget for the configuration. A change that costs more on purpose raises the budget in the
# same commit, and says why.
#
# Needs valgrind (Debian: valgrind), objcopy (binutils) and a C compiler. Valgrind 3.19 cannot
# read the DWARF 5 of Swift binaries, so it runs a copy without debug information; and it writes
# into the signal mask libdispatch passes to sigsuspend(), which Benchmarks/sigsuspend-copy.c
# (preloaded) copies first.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK=0
if [ "${1:-}" = "--check" ]; then CHECK=1; shift; fi
BINARY=${1:-}
if [ -z "$BINARY" ]; then
  if [ -x .build/release/apicheck ]; then BINARY=.build/release/apicheck; else BINARY=.build/debug/apicheck; fi
fi
[ -x "$BINARY" ] || { echo "serve-instructions: no apicheck binary at $BINARY (swift build first)" >&2; exit 2; }
if [ -z "${CONFIGURATION:-}" ]; then
  case "$(readlink -f "$BINARY")" in
    */release/*) CONFIGURATION=release ;;
    *) CONFIGURATION=debug ;;
  esac
fi
REQUESTS=${REQUESTS:-2000}
BUDGET_FILE=${BUDGET_FILE:-Benchmarks/serve-instructions.budget}
HELPER="python3 Benchmarks/serve-helper.py"
for tool in valgrind callgrind_control objcopy cc; do
  command -v "$tool" > /dev/null || { echo "serve-instructions: $tool is missing (apt-get install valgrind binutils gcc)" >&2; exit 2; }
done

WORK=$(mktemp -d /tmp/apicheck-instructions.XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

$HELPER generate 1000 "$WORK/set" > /dev/null
objcopy --strip-debug "$BINARY" "$WORK/apicheck"
cc -shared -fPIC -O2 -o "$WORK/sigsuspend-copy.so" Benchmarks/sigsuspend-copy.c

LD_PRELOAD="$WORK/sigsuspend-copy.so" valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/callgrind.%p" \
  "$WORK/apicheck" serve "$WORK/set/stubs" --port 0 --threads 1 --log-level warning > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 1 1200); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done
PORT=$(head -1 "$WORK/serve.out" | grep -o '127\.0\.0\.1:[0-9]*' | cut -d: -f2)
[ -n "$PORT" ] || { tail -20 "$WORK/serve.err" >&2; exit 1; }

LITERAL=/items/500
TEMPLATED=/collection-501/42
$HELPER requests "$PORT" "$LITERAL" 200
$HELPER requests "$PORT" "$TEMPLATED" 200
callgrind_control --instr=on "$SERVER_PID" > /dev/null 2>&1
$HELPER requests "$PORT" "$LITERAL" "$REQUESTS"
callgrind_control --dump=literal "$SERVER_PID" > /dev/null 2>&1
callgrind_control --zero "$SERVER_PID" > /dev/null 2>&1
$HELPER requests "$PORT" "$TEMPLATED" "$REQUESTS"
callgrind_control --dump=templated "$SERVER_PID" > /dev/null 2>&1
kill "$SERVER_PID"
wait "$SERVER_PID" 2> /dev/null || true
SERVER_PID=""

per_request() {  # trigger: instructions per request in the dump made with that name
  local file
  file=$(grep -l "^desc: Trigger: dump $1\$" "$WORK"/callgrind.* | head -1)
  awk -v n="$REQUESTS" '/^totals:/ {printf "%.0f\n", $2 / n}' "$file"
}
STATUS=0
echo "apicheck serve ($CONFIGURATION, one event loop, 1,000 stubs): user-space instructions per request, $REQUESTS requests"
for path in literal templated; do
  measured=$(per_request "$path")
  budget=$( [ -f "$BUDGET_FILE" ] && awk -v c="$CONFIGURATION" -v p="$path" '$1 == c && $2 == p {print $3}' "$BUDGET_FILE" || true)
  if [ -z "$budget" ]; then
    printf '  %-10s %8s\n' "$path" "$measured"
  elif [ "$measured" -le "$budget" ]; then
    printf '  %-10s %8s  (budget %s)\n' "$path" "$measured" "$budget"
  else
    printf '  %-10s %8s  OVER the budget of %s\n' "$path" "$measured" "$budget"
    STATUS=1
  fi
done
if [ "$CHECK" = 1 ] && [ "$STATUS" != 0 ]; then
  echo "serve-instructions: over budget ($BUDGET_FILE); find the cost with callgrind_annotate, or raise the budget in a commit that says why" >&2
  exit 1
fi
