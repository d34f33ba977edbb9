#!/usr/bin/env bash
# Issue 33's side-by-side trial of `apicheck probe` and Schemathesis, on 127.0.0.1 only (not part
# of `swift test`: it needs PyPI once).
#
# One service with planted bugs (Benchmarks/probe-trial/target.py: HAL-FORMS, Siren, JSON:API and
# a bug-free HAL-FORMS collection; its header lists the bugs) and its hand-written OpenAPI 3.1
# document (probe-trial/openapi.yaml):
#   - Schemathesis: `st run openapi.yaml --checks all --seed 1`, in the trial's own temporary
#     folder (its failure cache must not land in the repository);
#   - APICheck: `apicheck probe ROOT --unsafe --seed 1 --format json`, from the root alone;
#   - then `apicheck probe ROOT` (no --unsafe) on the read-only target, which must receive no
#     unsafe request.
# Requests are counted by the target (/__stats, reset with POST /__reset between tools). Prints
# which planted bug each tool found, requests, times, APICheck/Schemathesis requests (target
# <= 0.2) and false alarms. Exit 1 when APICheck misses a target, 2 when it could not run (no
# binary, or no `probe` command yet: the Schemathesis half still runs).
#
# Measured (Schemathesis 4.32.5, seed 1, 2 busy cores): 1888 requests (1009 unsafe), 2 min; it
# finds bugs 1-4 (ST101 on POST /authors, PUT /authors/{id} and POST /books; ST201 on GET
# /books?size=101; ST302 in its stateful phase on POST /reviews) and raises one failure that is no
# planted bug (ST202: POST /books with an unknown author id rejected with 422, a rule OpenAPI
# cannot state). APICheck's budget for the 0.2 target is therefore 377 requests.
#
# Environment: VENV (.build/probe-trial-venv), APICHECK (.build/release/apicheck; this script does
# not build it).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.build/probe-trial-venv}
APICHECK=${APICHECK:-.build/release/apicheck}

if [ ! -x "$VENV/bin/st" ]; then
  echo "Installing Schemathesis into $VENV…" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q schemathesis==4.32.5 >&2
fi
exec python3 Benchmarks/probe-trial/trial.py --st "$VENV/bin/st" --apicheck "$APICHECK"
