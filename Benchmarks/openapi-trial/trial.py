#!/usr/bin/env python3
"""Runs issue #32's framework trial (Benchmarks/openapi-trial.sh sets up the tools; 127.0.0.1 only).

For each service (FastAPI's /openapi.json, Django REST framework's generateschema):
  1. starts it on a free loopback port, every request journaled to a file;
  2. `apicheck crawl ROOT --openapi DOC --format json=…`: its defects against the planted ones
     (each planted defect reported exactly once, nothing else reported), requests and time;
  3. `st run DOC --checks all --include-method GET` (Schemathesis, seeded): its failures by check
     and operation, requests and time; every response-schema violation it finds must be among
     APICheck's `openapi-body` defects.
Prints a table and exits 1 if a target is missed.

  trial.py APICHECK ST PYTHON
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))

# (rule, text every matching defect title contains): the planted defects of each service.
PLANTED = {
    "fastapi": [
        ("openapi-status", "GET /movies/{movie_id}/cast answered 204"),
        ("openapi-body", "/year: expected an integer"),
        ("openapi-operation", "GET /internal/stats"),
    ],
    "drf": [
        ("openapi-status", "GET /books/{id}/ answered 203"),
        ("openapi-body", "/pages: expected an integer"),
        ("openapi-operation", "/stats/ is not an operation"),
    ],
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except Exception:
            time.sleep(0.1)
    raise SystemExit(f"trial: {url} did not answer within {seconds} s")


def count_lines(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for _ in f)


def start(service, python, work, journal):
    port = free_port()
    env = dict(os.environ, TRIAL_LOG=journal)
    if service == "fastapi":
        command = [python, "-m", "uvicorn", "fastapi_app:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        document = None
    else:
        document = os.path.join(work, "drf-openapi.json")
        subprocess.run([python, "drf_app.py", "schema", document], cwd=HERE, env=env, check=True)
        command = [python, "drf_app.py", "serve", str(port)]
    server = subprocess.Popen(command, cwd=HERE, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, service + ".err"), "w"))
    root = f"http://127.0.0.1:{port}/"
    wait_for(root)
    if service == "fastapi":
        # Both tools read it by URL, as FastAPI's users point them at it.
        document = root + "openapi.json"
    os.remove(journal)
    return server, root, document


def run_apicheck(apicheck, root, document, work, service):
    report = os.path.join(work, service + "-apicheck.json")
    began = time.monotonic()
    result = subprocess.run([apicheck, "crawl", root, "--openapi", document, "--format", "json=" + report],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - began
    if result.returncode not in (0, 1):
        raise SystemExit(f"trial: apicheck crawl failed ({result.returncode}):\n{result.stderr}")
    with open(report) as f:
        defects = json.load(f)["defects"]
    return defects, seconds, result.stderr


def run_schemathesis(st, root, document, work, service):
    # Run in the trial's own folder: Schemathesis keeps a cache of earlier failures (.schemathesis/)
    # in its working directory and replays them, which would make runs depend on each other.
    junit = os.path.join(work, service + "-st.xml")
    began = time.monotonic()
    subprocess.run([st, "run", document, "--url", root.rstrip("/"), "--checks", "all", "--include-method", "GET", "--seed", "1",
                    "--report", "junit", "--report-junit-path", junit], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - began
    failures = []  # (operation, first line of the failure)
    errors = []
    if os.path.exists(junit):
        for case in ElementTree.parse(junit).getroot().iter("testcase"):
            for failure in case.findall("failure"):
                text = (failure.get("message") or "") + "\n" + (failure.text or "")
                failures.append((case.get("name"), text))
            for error in case.findall("error"):
                errors.append((case.get("name"), (error.get("message") or error.text or "").strip().splitlines()[0][:100]))
    return failures, errors, seconds


def main():
    apicheck, st, python = (os.path.abspath(argument) for argument in sys.argv[1:4])
    work = tempfile.mkdtemp(prefix="apicheck-openapi-trial.")
    missed = []
    rows = []
    for service in ("fastapi", "drf"):
        journal = os.path.join(work, service + ".journal")
        open(journal, "w").close()
        server, root, document = start(service, python, work, journal)
        try:
            defects, apicheck_seconds, notes = run_apicheck(apicheck, root, document, work, service)
            apicheck_requests = count_lines(journal)
            open(journal, "w").close()
            failures, errors, st_seconds = run_schemathesis(st, root, document, work, service)
            st_requests = count_lines(journal)
        finally:
            server.terminate()
            server.wait()

        print(f"\n## {service}: {root} with {document}")
        for line in notes.strip().splitlines():
            print("  apicheck said: " + line[:200])
        found = {planted: [d for d in defects if d["rule"] == planted[0] and planted[1] in d["title"]] for planted in PLANTED[service]}
        for (rule, text), matches in found.items():
            verdict = "once" if len(matches) == 1 else f"{len(matches)} times"
            print(f"  planted {rule:<18} {text!r}: reported {verdict}")
            if len(matches) != 1:
                missed.append(f"{service}: planted {rule} {text!r} reported {verdict}")
        planted_ids = {d["id"] for matches in found.values() for d in matches}
        for defect in defects:
            if defect["id"] not in planted_ids:
                print(f"  FALSE ALARM {defect['rule']}: {defect['title']}")
                missed.append(f"{service}: false alarm {defect['rule']}: {defect['title']}")

        schema_failures = [(op, text) for op, text in failures if "Response violates schema" in text]
        print(f"  Schemathesis: {len(failures)} failures, {len(errors)} errors")
        for op, text in failures:
            kind = next((line.strip() for line in text.splitlines() if line.strip().startswith("- ")), text.strip().splitlines()[0])
            print(f"    {op}: {kind[:110]}")
        for op, message in errors:
            print(f"    error {op}: {message}")
        body_defects = [d for d in defects if d["rule"] == "openapi-body"]
        for op, text in schema_failures:
            if not any(op in d["title"] for d in body_defects):
                print(f"  NOT FOUND BY APICHECK: Schemathesis' schema violation on {op}")
                missed.append(f"{service}: Schemathesis found a schema violation on {op} that APICheck did not")
        caught = sum(1 for matches in found.values() if len(matches) == 1)
        st_caught = 0
        for rule, text in PLANTED[service]:
            if rule == "openapi-body":
                st_caught += any(text.split(":")[0] in t for _, t in schema_failures)
            elif rule == "openapi-status":
                code = text.split()[-1]
                st_caught += any("Undocumented status code" in t and f"Received: {code}" in t for _, t in failures)
        rows.append((service, caught, apicheck_requests, apicheck_seconds, st_caught, len(failures), st_requests, st_seconds))

    print("\n| service | planted | APICheck found | its requests | its time | Schemathesis found (planted) | its failures | its requests | its time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for service, caught, requests, seconds, st_caught, st_failures, st_requests, st_seconds in rows:
        print(f"| {service} | {len(PLANTED[service])} | {caught} | {requests} | {seconds:.2f} s | {st_caught} | {st_failures} | {st_requests} | {st_seconds:.2f} s |")
    if missed:
        print("\nTargets missed:\n  " + "\n  ".join(missed))
        sys.exit(1)
    print("\nEvery planted defect reported once, no false alarm; every schema violation Schemathesis found was found.")


if __name__ == "__main__":
    main()
