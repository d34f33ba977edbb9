#!/usr/bin/env bash
# Issue #32's framework trial, on 127.0.0.1 only (not part of `swift test`: it needs PyPI once).
#
# Two services written as their frameworks' users write them, each with three planted defects (an
# undocumented status, a body that breaks its schema, an undocumented link), checked against the
# document their framework generates:
#   - FastAPI (openapi-trial/fastapi_app.py, its own /openapi.json, OpenAPI 3.1);
#   - Django REST framework (openapi-trial/drf_app.py, `generateschema`, OpenAPI 3.0).
# `apicheck crawl ROOT --openapi DOC` must report each planted defect exactly once and nothing
# else; Schemathesis (`st run --checks all --include-method GET`, seeded) runs on the same service
# and document, and every response-schema violation it finds must be among APICheck's. Requests
# (counted by the service) and times for both. Exit 1 when a target is missed.
#
# Environment: VENV (.build/openapi-trial-venv), SCRATCH_PATH (.build), APICHECK (a built binary
# instead of a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH_PATH=${SCRATCH_PATH:-.build}
VENV=${VENV:-$SCRATCH_PATH/openapi-trial-venv}

if [ ! -x "$VENV/bin/st" ]; then
  echo "Installing FastAPI, Django REST framework and Schemathesis into $VENV…" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q fastapi==0.165.0 uvicorn==0.54.0 django==5.2.19 djangorestframework==3.18.3 \
    inflection pyyaml uritemplate schemathesis==4.32.5 >&2
fi
if [ -z "${APICHECK:-}" ]; then
  scripts/setup --deps > /dev/null
  echo "Building apicheck (release)…" >&2
  swift build -c release --scratch-path "$SCRATCH_PATH" --product apicheck > /dev/null
  APICHECK="$SCRATCH_PATH/release/apicheck"
fi
exec python3 Benchmarks/openapi-trial/trial.py "$APICHECK" "$VENV/bin/st" "$VENV/bin/python"
