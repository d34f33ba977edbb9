#!/usr/bin/env python3
"""Times JSON Schema validation of JSON Lines files: APICheck against jsonschema and jsonschema-rs.

Run by Benchmarks/schema.sh (which makes the venv and the data); see there for the workloads.

What is timed, for every implementation the same way: read the file line by line, parse each line,
answer valid/invalid. Python: `json.loads(line)` then `validator.is_valid(instance)` (both
libraries take Python objects; json.loads is CPython's C parser). APICheck:
`apicheck schema check --jsonl FILE --jobs 1 SCHEMA` as a whole process (one thread, as
Python is; --jobs N to see more); its compile time (and process start)
is the same command on an empty file, and is subtracted. Python compile time is
`validator_for(schema)` (jsonschema compiles lazily, so its first instances pay part of it).

Rounds alternate the implementations (APICheck, jsonschema-rs, jsonschema, APICheck, ...) and the
median is quoted. Python jsonschema is two orders of magnitude slower, so it validates only the first
--sample-movies / --sample-docs instances, and its time is scaled to the whole set (stated in the table).

Usage: schema-bench.py DATA_DIR [--apicheck PATH] [--jobs N] [--rounds N] [--sample-movies N] [--sample-docs N]
"""
import argparse
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import jsonschema
import jsonschema_rs


def python_run(validator, path, limit=None):
    """(seconds, instances, valid) for parsing and validating the first `limit` lines of `path`."""
    start = time.perf_counter()
    count = valid = 0
    with open(path, "rb") as lines:
        for line in itertools.islice(lines, limit):
            count += 1
            valid += validator.is_valid(json.loads(line))
    return time.perf_counter() - start, count, valid


def apicheck_run(apicheck, instances, schema, jobs):
    """(wall seconds, cpu seconds, exit status, output tail) of one `apicheck schema check` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run([apicheck, "schema", "check", "--jsonl", instances, "--jobs", str(jobs), schema],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, None, None, str(error)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = done.stdout.decode("utf-8", "replace").strip().splitlines()[-3:]
    return wall, cpu, done.returncode, " | ".join(tail)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(seconds):
    if seconds is None:
        return "n/a"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def ratio(a, b):
    return "n/a" if a is None or b is None or b == 0 else f"{a / b:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("--apicheck", default=os.environ.get("APICHECK", ".build/release/apicheck"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="apicheck's --jobs (1: one thread, like the Python side)")
    parser.add_argument("--sample-movies", type=int, default=2000)
    parser.add_argument("--sample-docs", type=int, default=4)
    args = parser.parse_args()

    workloads = [("movie", args.sample_movies, 100_000, "per 100,000 instances"),
                 ("openapi", args.sample_docs, None, "per file")]
    rows = []
    for name, sample, per, unit in workloads:
        folder = os.path.join(args.data, name)
        schema_path = os.path.join(folder, "schema.json")
        instances = os.path.join(folder, "instances.jsonl")
        with open(os.path.join(folder, "expected.json")) as f:
            expected = json.load(f)
        with open(schema_path) as f:
            schema = json.load(f)
        total = expected["instances"]
        scale = (per or total) / total

        start = time.perf_counter()
        slow = jsonschema.validators.validator_for(schema)(schema)
        slow_compile = time.perf_counter() - start
        start = time.perf_counter()
        fast = jsonschema_rs.validator_for(schema)
        fast_compile = time.perf_counter() - start

        with tempfile.NamedTemporaryFile(suffix=".jsonl") as empty:
            times = {"apicheck": [], "apicheck-cpu": [], "apicheck-compile": [], "rs": [], "py": []}
            status = notes = None
            answers = {}
            for round_ in range(args.rounds):
                wall, cpu, status, notes = apicheck_run(args.apicheck, instances, schema_path, args.jobs)
                times["apicheck"].append(wall)
                times["apicheck-cpu"].append(cpu)
                times["apicheck-compile"].append(apicheck_run(args.apicheck, empty.name, schema_path, args.jobs)[0])
                seconds, count, valid = python_run(fast, instances)
                times["rs"].append(seconds)
                answers["jsonschema-rs"] = (count, valid)
                seconds, count, valid = python_run(slow, instances, sample)
                times["py"].append(seconds)
                answers["jsonschema"] = (count, valid)
                print(f"  {name} round {round_ + 1}/{args.rounds}: apicheck {fmt(wall)} s (exit {status}), "
                      f"jsonschema-rs {fmt(times['rs'][-1])} s, jsonschema {fmt(seconds)} s for {count}", file=sys.stderr)

        class ParseOnly:
            def is_valid(self, instance):
                return True
        parse_only = python_run(ParseOnly(), instances)[0] * scale
        rs_count, rs_valid = answers["jsonschema-rs"]
        py_count, py_valid = answers["jsonschema"]
        check = "agree" if (rs_count, rs_valid) == (total, expected["valid"]) else f"jsonschema-rs says {rs_valid}/{rs_count} valid"
        apicheck_total = median(times["apicheck"])
        apicheck_compile = median(times["apicheck-compile"])
        apicheck_validate = None if apicheck_total is None or status not in (0, 1) else max(apicheck_total - (apicheck_compile or 0), 0)
        py_seconds = median(times["py"]) * total / max(py_count, 1) * scale
        rs_seconds = median(times["rs"]) * scale
        ap_seconds = None if apicheck_validate is None else apicheck_validate * scale
        rows.append({
            "workload": f"{name} ({total} instances, {expected['valid']} valid)", "unit": unit,
            "apicheck": ap_seconds, "jsonschema": py_seconds, "jsonschema-rs": rs_seconds,
            "compile": (apicheck_compile, slow_compile, fast_compile), "check": check, "parse-only": parse_only,
            "sample": f"jsonschema: first {py_count} instances ({py_valid} valid), scaled",
            "apicheck-status": status, "apicheck-output": notes,
        })

    print()
    print(f"JSON Schema validation, JSON Lines, parsing included; median of {args.rounds} rounds; seconds; "
          f"APICheck with --jobs {args.jobs}")
    header = ["workload", "unit", "APICheck", "jsonschema", "jsonschema-rs", "APICheck/jsonschema", "APICheck/jsonschema-rs"]
    table = [header]
    for row in rows:
        table.append([row["workload"], row["unit"], fmt(row["apicheck"]), fmt(row["jsonschema"]), fmt(row["jsonschema-rs"]),
                      ratio(row["apicheck"], row["jsonschema"]), ratio(row["apicheck"], row["jsonschema-rs"])])
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        print("  ".join(cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(r)))
    print()
    print("Compile (seconds): APICheck = process start + compile (the command on an empty file); "
          "jsonschema and jsonschema-rs = validator_for(schema)")
    for row in rows:
        ap, py, rs = row["compile"]
        print(f"  {row['workload']}: APICheck {fmt(ap)}, jsonschema {py:.5f}, jsonschema-rs {rs:.5f}")
    print("Python's share spent in json.loads alone (one pass, same unit): " +
          ", ".join(f"{row['workload'].split()[0]} {fmt(row['parse-only'])} s" for row in rows))
    for row in rows:
        print(f"  {row['workload']}: {row['sample']}; jsonschema-rs vs expected: {row['check']}; "
              f"APICheck exit {row['apicheck-status']}: {row['apicheck-output']}")
    print(f"jsonschema {jsonschema_version()}, jsonschema-rs {jsonschema_rs_version()}, Python {sys.version.split()[0]}")


def jsonschema_version():
    from importlib.metadata import version
    return version("jsonschema")


def jsonschema_rs_version():
    from importlib.metadata import version
    return version("jsonschema-rs")


if __name__ == "__main__":
    main()
