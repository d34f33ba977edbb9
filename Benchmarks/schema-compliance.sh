#!/bin/sh
# Prints APICheckSchema's JSON-Schema-Test-Suite compliance table: per draft, per keyword file,
# passed/failed/total, then every failing test and why (the shape of Bowtie's compliance pages).
#
# Usage: Benchmarks/schema-compliance.sh [TABLE_FILE]
#   TABLE_FILE    where the table is kept (default: .build/schema-compliance.txt)
#   PACKAGE_PATH  the package to test (default: the one this script belongs to)
#
# How: it runs one Swift Testing test, JSONSchemaTestSuiteTests/meetsTheComplianceTargets, with
# APICHECK_SCHEMA_COMPLIANCE_TABLE=TABLE_FILE; the test runs the vendored suite
# (Tests/APICheckSchemaTests/Suite) through JSONSchemaTestSuite.run, writes the table there and then
# checks the targets: >= 99% of required tests per draft, >= 95% of the optional/format tests of the
# formats in scope (format assertion on). The table is printed whether or not the targets are met;
# the exit status is the test's. The swift test log goes to TABLE_FILE.log.
set -u
PACKAGE_PATH=${PACKAGE_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
TABLE=${1:-$PACKAGE_PATH/.build/schema-compliance.txt}
mkdir -p "$(dirname "$TABLE")"
rm -f "$TABLE"
APICHECK_SCHEMA_COMPLIANCE_TABLE=$TABLE swift test --package-path "$PACKAGE_PATH" \
    --filter meetsTheComplianceTargets >"$TABLE.log" 2>&1
status=$?
if [ -s "$TABLE" ]; then
    cat "$TABLE"
    if [ $status -eq 0 ]; then echo "Targets met."; else echo "Targets not met (details: $TABLE.log)."; fi
else
    tail -n 30 "$TABLE.log"
    echo "No table was written: the build or the test failed before the suite ran (see $TABLE.log)." >&2
fi
exit $status
