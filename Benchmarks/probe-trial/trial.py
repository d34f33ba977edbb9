#!/usr/bin/env python3
"""Runs issue 33's side-by-side trial (Benchmarks/probe-trial.sh sets up the tools; 127.0.0.1 only).

  trial.py --st ST --apicheck APICHECK

1. Starts target.py (normal mode) on a free loopback port.
2. Schemathesis: `st run openapi.yaml --checks all --seed 1` in the trial's own temporary folder
   (its failure cache stays out of the repository); its JUnit failures mapped to planted bugs 1-4.
3. APICheck: `apicheck probe ROOT --unsafe --seed 1 --format json --output FILE`; its findings
   (rule, method, URL) mapped to planted bugs 1-4; any other finding is a false alarm.
4. Read-only half: target.py --read-only, `apicheck probe ROOT` without --unsafe: the 500 on an
   unknown item id (bug 5) must be found and the target must have received no unsafe request.

Requests are counted by the target (GET /__stats; POST /__reset before each tool), so the figures
do not depend on what either tool reports. Prints a table. Exit 0 when APICheck meets every target
(all bugs found, no false alarm, at most 0.2 times Schemathesis's requests, no unsafe request
without --unsafe), 1 when it misses one, 2 when the APICheck half could not run (missing binary or
`probe` command; the Schemathesis half still runs).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ElementTree
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))

BUGS = {
    1: "POST /authors (or PUT /authors/{id}), a name already taken: 500",
    2: "POST /books, authorIds as a list: 500",
    3: "GET /books?size=0, -1 or 101 (advertised 1..100): 200",
    4: "POST /reviews: 201 whose Location answers 404",
    5: "read-only: GET /items/{unknown id}: 500",
}


def segments(url):
    return [part for part in urlsplit(url).path.split("/") if part]


def apicheck_bug(finding, read_only):
    """The planted bug an APICheck finding reports, or None."""
    rule, method, parts = finding["rule"], (finding.get("method") or "").upper(), segments(finding["url"])
    if read_only:
        if rule == "probe-server-error" and method in ("GET", "") and parts[:1] == ["items"] and len(parts) == 2:
            return 5
        return None
    if rule == "probe-server-error" and parts[:1] == ["authors"] and method in ("POST", "PUT", ""):
        return 1
    if rule == "probe-server-error" and parts == ["books"] and method in ("POST", ""):
        return 2
    if rule == "probe-accepts-invalid" and parts == ["books"] and method in ("GET", ""):
        return 3
    if rule == "probe-created-resolves" and parts[:1] == ["reviews"]:
        return 4
    return None


def schemathesis_bug(operation, text):
    """The planted bug a Schemathesis failure (JUnit test case name, failure text) reports, or None."""
    if "ST101" in text and operation in ("POST /authors", "PUT /authors/{id}"):
        return 1
    if "ST101" in text and operation == "POST /books":
        return 2
    if "ST201" in text and "/books?" in text and "size=" in text:
        return 3
    if "ST302" in text and "/reviews" in text:
        return 4
    return None


class Target:
    def __init__(self, work, read_only=False):
        command = [sys.executable, os.path.join(HERE, "target.py"), "--port", "0"] + (["--read-only"] if read_only else [])
        self.errors = open(os.path.join(work, "target-read-only.err" if read_only else "target.err"), "w")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.errors, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening on "):
            raise SystemExit(f"trial: target.py did not start: {line!r}")
        self.root = line.removeprefix("listening on ")

    def call(self, method, path):
        request = urllib.request.Request(self.root.rstrip("/") + path, method=method, data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def reset(self):
        self.call("POST", "/__reset")

    def stats(self):
        return self.call("GET", "/__stats")

    def stop(self):
        self.process.terminate()
        self.process.wait()
        self.errors.close()


def run_schemathesis(st, target, work):
    target.reset()
    junit = os.path.join(work, "schemathesis.xml")
    began = time.monotonic()
    result = subprocess.run([st, "run", os.path.join(HERE, "openapi.yaml"), "--url", target.root.rstrip("/"), "--checks", "all",
                             "--seed", "1", "--workers", "1", "--report", "junit", "--report-junit-path", junit],
                            cwd=work, stdout=open(os.path.join(work, "schemathesis.txt"), "w"), stderr=subprocess.STDOUT)
    seconds = time.monotonic() - began
    stats = target.stats()
    failures = []  # (operation, codes, bug or None, first reproduction)
    if os.path.exists(junit):
        for case in ElementTree.parse(junit).getroot().iter("testcase"):
            for failure in case.findall("failure") + case.findall("error"):
                text = (failure.get("message") or "") + "\n" + (failure.text or "")
                curl = next((line.strip() for line in text.splitlines() if line.strip().startswith("curl ")), "")
                failures.append((case.get("name"), failure.get("message") or "", schemathesis_bug(case.get("name"), text), curl))
    else:
        print(f"trial: Schemathesis wrote no report (exit {result.returncode}); see {work}/schemathesis.txt", file=sys.stderr)
    return {"failures": failures, "seconds": seconds, "requests": stats["requests"], "unsafe": stats["unsafe"],
            "found": {bug for _, _, bug, _ in failures if bug}}


def apicheck_usable(apicheck):
    """None when `apicheck probe` can run, else why not."""
    if not apicheck or not (os.path.isfile(apicheck) and os.access(apicheck, os.X_OK)) and not shutil.which(apicheck):
        return f"no apicheck binary at {apicheck!r} (build it: swift build -c release --product apicheck, or set APICHECK)"
    result = subprocess.run([apicheck, "probe", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        return f"{apicheck} has no working `probe` command yet ({result.stdout.strip().splitlines()[-1:] or result.returncode})"
    return None


def findings_in(report):
    """Every finding anywhere in the JSON report (top-level `findings`, or inside defects), once each."""
    seen = {}

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("rule"), str) and isinstance(node.get("url"), str):
                key = (node["rule"], node.get("method"), node["url"], node.get("message"))
                seen.setdefault(key, {"rule": node["rule"], "method": node.get("method"), "url": node["url"],
                                      "message": node.get("message") or node.get("title") or ""})
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(report)
    return list(seen.values())


def run_apicheck(apicheck, target, work, unsafe, name):
    target.reset()
    report_path = os.path.join(work, name + ".json")
    command = [apicheck, "probe", target.root] + (["--unsafe"] if unsafe else []) + ["--seed", "1", "--format", "json", "--output", report_path]
    began = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - began
    stats = target.stats()
    outcome = {"command": " ".join(command), "exit": result.returncode, "seconds": seconds, "requests": stats["requests"],
               "unsafe": stats["unsafe"], "findings": [], "reported_requests": None, "stderr": result.stderr.strip()}
    if result.returncode not in (0, 1) or not os.path.exists(report_path):
        outcome["error"] = f"exit {result.returncode}: {result.stderr.strip()[-500:]}"
        return outcome
    with open(report_path) as f:
        report = json.load(f)
    outcome["reported_requests"] = (report.get("statistics") or {}).get("requests")
    outcome["findings"] = [dict(finding, bug=apicheck_bug(finding, read_only=not unsafe)) for finding in findings_in(report)]
    outcome["found"] = {finding["bug"] for finding in outcome["findings"] if finding["bug"]}
    return outcome


def yes(flag):
    return "y" if flag else "n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--st", help="Schemathesis's `st`; the Schemathesis half is skipped without it")
    parser.add_argument("--apicheck")
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="apicheck-probe-trial.")
    print(f"trial folder: {work}")
    problems = []

    schemathesis = None
    apicheck = None
    target = Target(work)
    try:
        print(f"target: {target.root}")
        if arguments.st:
            print("Schemathesis: st run openapi.yaml --checks all --seed 1 --workers 1 …", flush=True)
            schemathesis = run_schemathesis(os.path.abspath(arguments.st), target, work)
        why_not = apicheck_usable(arguments.apicheck)
        if why_not:
            print(f"APICheck: not run: {why_not}")
        else:
            print(f"APICheck: {arguments.apicheck} probe {target.root} --unsafe --seed 1 …", flush=True)
            apicheck = run_apicheck(arguments.apicheck, target, work, unsafe=True, name="apicheck")
    finally:
        target.stop()

    read_only = None
    if apicheck is not None:
        target = Target(work, read_only=True)
        try:
            print(f"APICheck, read-only target {target.root}: probe without --unsafe …", flush=True)
            read_only = run_apicheck(arguments.apicheck, target, work, unsafe=False, name="apicheck-read-only")
        finally:
            target.stop()

    if schemathesis:
        print(f"\nSchemathesis failures ({len(schemathesis['failures'])}):")
        for operation, codes, bug, curl in schemathesis["failures"]:
            print(f"  {operation:<20} {codes:<12} {'bug ' + str(bug) if bug else 'not a planted bug'}   {curl[:150]}")
    for outcome, label in ((apicheck, "APICheck --unsafe"), (read_only, "APICheck read-only")):
        if outcome is None:
            continue
        print(f"\n{label}: exit {outcome['exit']}, {len(outcome['findings'])} findings")
        if "error" in outcome:
            print(f"  could not run: {outcome['error']}")
            problems.append(f"{label} could not run")
        for finding in outcome["findings"]:
            print(f"  {finding['rule']:<24} {finding['method'] or '':<6} {finding['url'][:80]:<80} "
                  f"{'bug ' + str(finding['bug']) if finding['bug'] else 'FALSE ALARM'}  {finding['message'][:100]}")

    print("\n| bug | planted | Schemathesis | APICheck |")
    print("|---|---|---|---|")
    for bug, what in BUGS.items():
        st_cell = "n/a (no OpenAPI for read-only)" if bug == 5 else (yes(bug in schemathesis["found"]) if schemathesis else "not run")
        source = read_only if bug == 5 else apicheck
        ac_cell = yes(bug in source.get("found", set())) if source else "not run"
        print(f"| {bug} | {what} | {st_cell} | {ac_cell} |")
        if source and bug not in source.get("found", set()):
            problems.append(f"APICheck missed bug {bug}: {what}")

    def cell(outcome, key, suffix=""):
        return f"{outcome[key]:.1f}{suffix}" if outcome and isinstance(outcome[key], float) else (str(outcome[key]) + suffix if outcome else "not run")

    print(f"| | requests (counted by the target) | {cell(schemathesis, 'requests')} | {cell(apicheck, 'requests')} |")
    print(f"| | of which unsafe | {cell(schemathesis, 'unsafe')} | {cell(apicheck, 'unsafe')} |")
    if apicheck and apicheck["reported_requests"] is not None:
        print(f"| | requests in APICheck's report (statistics.requests) | | {apicheck['reported_requests']} |")
    print(f"| | time | {cell(schemathesis, 'seconds', ' s')} | {cell(apicheck, 'seconds', ' s')} |")
    if schemathesis and apicheck and schemathesis["requests"]:
        ratio = apicheck["requests"] / schemathesis["requests"]
        print(f"| | requests APICheck / Schemathesis (target <= 0.2) | | {ratio:.3f} |")
        if ratio > 0.2:
            problems.append(f"APICheck sent {ratio:.3f} times Schemathesis's requests (target <= 0.2)")
    st_other = sum(1 for _, _, bug, _ in schemathesis["failures"] if not bug) if schemathesis else None
    ac_false = sum(1 for finding in apicheck["findings"] if not finding["bug"]) if apicheck else None
    print(f"| | failures / findings not mapped to a planted bug (false alarms) | "
          f"{st_other if st_other is not None else 'not run'} | {ac_false if ac_false is not None else 'not run'} |")
    if ac_false:
        problems.append(f"APICheck raised {ac_false} false alarm(s)")
    if read_only:
        ro_false = sum(1 for finding in read_only["findings"] if not finding["bug"])
        print(f"| | read-only: requests / unsafe requests / false alarms | | {read_only['requests']} / {read_only['unsafe']} / {ro_false} |")
        if read_only["unsafe"]:
            problems.append(f"`apicheck probe` without --unsafe sent {read_only['unsafe']} unsafe request(s)")
        if ro_false:
            problems.append(f"APICheck raised {ro_false} false alarm(s) on the read-only target")

    if apicheck is None:
        print("\nAPICheck half not run: only Schemathesis's figures above.")
        sys.exit(2)
    if problems:
        print("\nTargets missed:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print("\nEvery planted bug found by APICheck, no false alarm, within the request budget, nothing unsafe without --unsafe.")


if __name__ == "__main__":
    main()
