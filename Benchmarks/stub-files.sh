#!/usr/bin/env bash
# Issue #2's figures: loading 10,000 generated XML stub files against bare libxml2 in the same run,
# and StubSet.match cost at 100, 10,000 and 100,000 stubs. Extra arguments go to apicheck-bench
# (see `swift run -c release apicheck-bench --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup --deps
swift build -c release --product apicheck-bench
exec .build/release/apicheck-bench "$@"
