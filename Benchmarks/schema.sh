#!/bin/sh
# JSON Schema validation speed: APICheck (`apicheck schema check --jsonl`) against Python's
# jsonschema and jsonschema-rs (the Rust validator, through its Python binding), same data, same run.
#
# Usage: Benchmarks/schema.sh            (from anywhere; works in the package root)
#   APICHECK=path          the apicheck binary (default .build/release/apicheck; build it first:
#                          swift build -c release --product apicheck)
#   APICHECK_JOBS=1        apicheck's --jobs (1 thread, as the Python side has; raise it to see scaling)
#   ROUNDS=3               rounds; implementations alternate within each, medians are quoted
#   SAMPLE_MOVIES=2000     movies jsonschema validates (it is ~100x slower; its time is scaled)
#   SAMPLE_DOCS=4          OpenAPI documents jsonschema validates (likewise)
#   SEED, COUNT=100000, DOCS=200, OPERATIONS=500   the data (regenerated when these change)
#   BENCH_VENV=.build/bench-venv, BENCH_DATA=.build/schema-bench-data
#
# Workloads (Benchmarks/schema-data.py, deterministic by seed):
#   movie    a vendor-style 2020-12 schema ($ref into $defs, pattern, enum, multipleOf,
#            unevaluatedProperties: false, nested arrays of people); COUNT instances, ~5% invalid
#   openapi  the OpenAPI 3.1 meta-schema (2022-10-07, taken from the openapi-spec-validator 0.9.0
#            wheel, not installed) over DOCS generated documents of OPERATIONS operations; ~5% invalid
# Parsing is included on every side: Python reads each line and json.loads it, then is_valid;
# APICheck reads and parses the file itself. Compile time is reported separately
# (Benchmarks/schema-bench.py says exactly how).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
VENV=${BENCH_VENV:-.build/bench-venv}
DATA=${BENCH_DATA:-.build/schema-bench-data}
SEED=${SEED:-20261126}
COUNT=${COUNT:-100000}
DOCS=${DOCS:-200}
OPERATIONS=${OPERATIONS:-500}

if ! "$VENV/bin/python" -c 'import jsonschema, jsonschema_rs' 2>/dev/null; then
    echo "Installing jsonschema and jsonschema-rs into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q jsonschema jsonschema-rs
fi

mkdir -p "$DATA"
OAS="$DATA/openapi-3.1-schema.json"
if [ ! -s "$OAS" ]; then
    "$VENV/bin/pip" download -q --no-deps openapi-spec-validator==0.9.0 -d "$DATA/wheels"
    "$VENV/bin/python" - "$DATA/wheels" "$OAS" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/openapi_spec_validator-0.9.0-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("openapi_spec_validator/resources/schemas/v3.1/schema.json"))
PY
fi

STAMP="seed=$SEED count=$COUNT docs=$DOCS operations=$OPERATIONS"
if [ "$(cat "$DATA/stamp" 2>/dev/null)" != "$STAMP" ]; then
    echo "Generating data ($STAMP) in $DATA" >&2
    "$VENV/bin/python" Benchmarks/schema-data.py "$DATA" --openapi-schema "$OAS" \
        --seed "$SEED" --count "$COUNT" --docs "$DOCS" --operations "$OPERATIONS"
    echo "$STAMP" >"$DATA/stamp"
fi

exec "$VENV/bin/python" Benchmarks/schema-bench.py "$DATA" --apicheck "${APICHECK:-.build/release/apicheck}" --jobs "${APICHECK_JOBS:-1}" \
    --rounds "${ROUNDS:-3}" --sample-movies "${SAMPLE_MOVIES:-2000}" --sample-docs "${SAMPLE_DOCS:-4}"
