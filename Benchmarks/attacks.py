#!/usr/bin/env python3
"""The hostile-input attacks of issues #19 and #34, long versions, against a release build on loopback.

    Benchmarks/attacks.py [ATTACK ...]        # all attacks by default
    APICHECK=.build/release/apicheck Benchmarks/attacks.py slow-body chain

Crawler attacks run `apicheck crawl` against a hostile HTTP server written here; server attacks
run `apicheck serve` and attack it. Each prints what it measured, one line per figure, and
whether the bound held. Only 127.0.0.1 is used; every process started is stopped at the end.
The TLS and HTTP/2 attacks of issue #34 (h2-*, tls-*, crawl-bad-cert) live in attacks_h2.py;
ATTACK_TLS_PORT=PORT ATTACK_TLS_PID=PID aims its server attacks at another server (e.g. nginx).
"""
import json
import os
import resource
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

APICHECK = os.environ.get("APICHECK", ".build/release/apicheck")
RESULTS = []


def report(attack, figure, value, held=None):
    mark = "" if held is None else ("  ok" if held else "  FAILS")
    line = f"{attack:<21} {figure:<56} {value}{mark}"
    RESULTS.append(line)
    print(line, flush=True)


# MARK: A hostile API


class HostileHandler(socketserver.BaseRequestHandler):
    """Raw HTTP/1.1, one request per connection, so each attack controls every byte."""

    chain_depth = 4000
    many_links = 1_000_000

    def handle(self):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return
            data += chunk
        path = data.split(b" ", 2)[1].decode()
        try:
            self.answer(path)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send(self, body, content_type="application/hal+json", status="200 OK"):
        head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        self.request.sendall(head.encode() + body)

    def answer(self, path):
        if path == "/drip-root":
            self.send(json.dumps({"_links": {"self": {"href": "/drip-root"}, "drip": {"href": "/drip"}}}).encode())
        elif path == "/drip":
            body = json.dumps({"_links": {"self": {"href": "/drip"}}}).encode()
            self.request.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: application/hal+json\r\nContent-Length: {len(body)}\r\n\r\n".encode())
            for byte in body:
                self.request.sendall(bytes([byte]))
                time.sleep(1)
        elif path.startswith("/chain/"):
            n = int(path.rsplit("/", 1)[1])
            links = {"self": {"href": path}}
            if n < self.chain_depth:
                links["next"] = {"href": f"/chain/{n + 1}"}
            self.send(json.dumps({"_links": links}).encode())
        elif path == "/many":
            parts = [b'{"_links": {"self": {"href": "/many"}, "item": [']
            parts.append(b",".join(b'{"href": "/item/%d"}' % i for i in range(self.many_links)))
            parts.append(b"]}}")
            self.send(b"".join(parts))
        elif path.startswith("/item/"):
            self.send(json.dumps({"_links": {"self": {"href": path}}}).encode())
        elif path == "/big-root":
            self.send(json.dumps({"_links": {"self": {"href": "/big-root"}, "big": {"href": "/big"}}}).encode())
        elif path == "/big":
            self.send(b'{"_links": {"self": {"href": "/big"}}, "pad": "' + b"x" * 200_000 + b'"}')
        else:
            self.send(b'{"title": "not found"}', "application/problem+json", "404 Not Found")


class HostileServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def hostile_api():
    server = HostileServer(("127.0.0.1", 0), HostileHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


last_crawl_peak_mb = 0.0


def crawl(arguments, timeout=300, interrupt_after=None, sig=signal.SIGINT):
    """Runs `apicheck crawl` and returns (exit code, seconds, the JSON report or None, report bytes)."""
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False)
    out.close()
    os.unlink(out.name)
    start = time.monotonic()
    process = subprocess.Popen([APICHECK, "crawl", *arguments, "--format", "json", "--output", out.name],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if interrupt_after is not None:
        time.sleep(interrupt_after)
        process.send_signal(sig)
    # wait4, not wait: the crawler's own peak RSS (the hostile API runs in this process).
    global last_crawl_peak_mb
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            last_crawl_peak_mb = usage.ru_maxrss / 1024
            break
        if time.monotonic() - start > timeout:
            process.kill()
            process.wait()
            return None, time.monotonic() - start, None, 0
        time.sleep(0.02)
    seconds = time.monotonic() - start
    size = os.path.getsize(out.name) if os.path.exists(out.name) else 0
    document = None
    if size:
        with open(out.name, "rb") as handle:
            try:
                document = json.load(handle)
            except ValueError:
                document = "invalid"
        os.unlink(out.name)
    return process.returncode, seconds, document, size


def attack_slow_body():
    server, base = hostile_api()
    code, seconds, document, _ = crawl([f"{base}/drip-root", "--timeout", "2", "--deadline", "20"], timeout=120)
    report("slow-body", "crawl with --timeout 2 --deadline 20 ended after (s)", f"{seconds:.1f}", seconds < 25)
    report("slow-body", "exit code", code, code == 2)
    report("slow-body", "report written", document is not None and document != "invalid", document not in (None, "invalid"))
    if isinstance(document, dict):
        drip = [c for c in document.get("checks", []) if c.get("url", "").endswith("/drip")]
        report("slow-body", "/drip check outcome", drip[0].get("outcome") if drip else "absent")
    server.shutdown()


def attack_chain():
    server, base = hostile_api()
    code, seconds, document, size = crawl([f"{base}/chain/0", "--max-depth", "5000", "--concurrency", "8"], timeout=600)
    report("chain", "4,000-deep chain: JSON report size (MB)", f"{size / 1e6:.1f}", size <= 20e6)
    report("chain", "exit code / seconds", f"{code} / {seconds:.1f}")
    report("chain", "crawler peak RSS (MB)", f"{last_crawl_peak_mb:.0f}")
    server.shutdown()


def attack_many_links():
    server, base = hostile_api()
    code, seconds, document, size = crawl([f"{base}/many", "--max-body", str(64 << 20), "--max-requests", "20000"], timeout=600)
    checks = document.get("counts", {}).get("linksFound") if isinstance(document, dict) else None
    findings = [f for f in document.get("findings", [])] if isinstance(document, dict) else []
    said = [f for f in findings if f.get("rule") == "crawl-limit" and "--max-links" in f.get("message", "")]
    report("many-links", "1,000,000 links: linksFound", checks)
    report("many-links", "a finding says links were dropped", bool(said), bool(said))
    report("many-links", "exit code / seconds", f"{code} / {seconds:.1f}")
    server.shutdown()


def attack_big_body():
    server, base = hostile_api()
    code, seconds, document, _ = crawl([f"{base}/big-root", "--max-body", "1000"], timeout=120)
    if isinstance(document, dict):
        check = [c for c in document.get("checks", []) if c.get("url", "").endswith("/big")]
        errors = [f for f in document.get("findings", []) if f.get("url", "").endswith("/big")]
        outcome = check[0].get("outcome") if check else "absent"
        report("big-body", "body over --max-body: check outcome", outcome, outcome != "passed")
        report("big-body", "findings for it", [(f["rule"], f["severity"]) for f in errors])
    server.shutdown()


def attack_signals():
    server, base = hostile_api()
    for sig in (signal.SIGINT, signal.SIGTERM):
        code, seconds, document, _ = crawl([f"{base}/chain/0", "--max-depth", "5000", "--concurrency", "1"], interrupt_after=2, sig=sig, timeout=60)
        incomplete = isinstance(document, dict) and any(("interrupted" in e.get("message", "") or "stopped" in e.get("message", "")) for e in document.get("errors", []))
        report("signals", f"{sig.name} mid-crawl: exit code", code, code == 2)
        report("signals", f"{sig.name} mid-crawl: report written, marked incomplete", incomplete, incomplete)
    server.shutdown()


# MARK: The stub server under attack


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(*extra, nofile=None, paths=("stubs/acmeflix",)):
    port = free_port()
    def limit():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    # The log goes to a file: a pipe nobody reads would fill and block the server's logging.
    log = open(os.path.join(tempfile.gettempdir(), f"apicheck-attack-serve-{port}.log"), "w")
    process = subprocess.Popen([APICHECK, "serve", *paths, "--port", str(port), "--threads", "2", *extra],
                               stdout=subprocess.DEVNULL, stderr=log, preexec_fn=limit)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    return process, port


def get_ok(port, timeout=3):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def put_body(port, size, results, index):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(f"PUT /movies/1 HTTP/1.1\r\nHost: x\r\nContent-Length: {size}\r\n\r\n".encode())
            chunk = b"x" * 65536
            sent = 0
            while sent < size:
                sent += s.send(chunk[: min(len(chunk), size - sent)])
            results[index] = s.recv(64)[:12]
    except OSError as error:
        results[index] = str(error).encode()


def attack_parallel_bodies():
    process, port = start_server()
    idle = rss_mb(process.pid)
    results = [None] * 200
    threads = [threading.Thread(target=put_body, args=(port, 8_000_000, results, i)) for i in range(200)]
    peak = idle
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        peak = max(peak, rss_mb(process.pid))
        time.sleep(0.05)
    time.sleep(5)
    after = rss_mb(process.pid)
    statuses = sorted(set(r.decode(errors="replace") for r in results))
    report("bodies", "200 × 8 MB PUT: peak RSS (MB), idle", f"{peak:.0f} (idle {idle:.0f})", peak < 300)
    report("bodies", "answers", statuses)
    report("bodies", "RSS 5 s after the burst (MB), within 20% of idle", f"{after:.0f}", after <= idle * 1.2)
    report("bodies", "still serves", get_ok(port), get_ok(port))
    process.terminate()
    process.wait()


def attack_sequential_bodies():
    process, port = start_server()
    idle = rss_mb(process.pid)
    results = [None]
    for _ in range(30):
        put_body(port, 7_000_000, results, 0)
    time.sleep(2)
    after = rss_mb(process.pid)
    report("journal", "30 sequential 7 MB PUTs: RSS growth (MB)", f"{after - idle:.0f} (idle {idle:.0f}, after {after:.0f})", after <= idle * 1.2)
    process.terminate()
    process.wait()


def attack_descriptors():
    # This client needs more descriptors than the server it starves.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))
    process, port = start_server(nofile=1024)
    sockets = []
    for _ in range(1100):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=1))
        except OSError:
            break
    report("descriptors", "connections opened by the client", len(sockets))
    time.sleep(1)
    before = cpu_seconds(process.pid)
    time.sleep(5)
    spent = cpu_seconds(process.pid) - before
    report("descriptors", "1,100 idle connections, ulimit 1024: CPU s per 5 s", f"{spent:.2f}", spent < 0.5)
    for s in sockets[:200]:
        s.close()
    time.sleep(1.5)
    report("descriptors", "a new client is served once some close", get_ok(port, timeout=5), get_ok(port, timeout=5))
    for s in sockets[200:]:
        s.close()
    process.terminate()
    process.wait()


def attack_slowloris(wait=45):
    process, port = start_server()
    sockets = []
    for _ in range(300):
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        s.sendall(b"GET / HTTP/1.1\r\n")
        sockets.append(s)
    start = time.monotonic()
    closed = set()
    while time.monotonic() - start < wait and len(closed) < len(sockets):
        for index, s in enumerate(sockets):
            if index in closed:
                continue
            try:
                s.sendall(b"X")
            except OSError:
                closed.add(index)
        time.sleep(1)
    report("slowloris", f"300 header-dripping connections closed within {wait} s", len(closed), len(closed) == 300)
    report("slowloris", "still serves", get_ok(port), get_ok(port))
    for s in sockets:
        s.close()
    process.terminate()
    process.wait()


import attacks_h2  # noqa: E402  (the TLS and HTTP/2 attacks of issue #34; they use the helpers above)

attacks_h2.use(sys.modules[__name__])

ATTACKS = {
    "slow-body": (attack_slow_body, "crawl an API that drips a body 1 byte/s: --timeout and --deadline end it"),
    "chain": (attack_chain, "crawl a 4,000-deep chain of links: the report stays bounded"),
    "many-links": (attack_many_links, "crawl one body of 1,000,000 links: dropped links are reported"),
    "big-body": (attack_big_body, "crawl a body over --max-body: not checked, reported"),
    "signals": (attack_signals, "SIGINT/SIGTERM mid-crawl: exit 2, an incomplete report"),
    "bodies": (attack_parallel_bodies, "200 PUTs of 8 MB at once: peak RSS, back to idle"),
    "journal": (attack_sequential_bodies, "30 sequential 7 MB PUTs: the journal does not grow RSS"),
    "descriptors": (attack_descriptors, "1,100 idle connections under ulimit 1024: no busy loop"),
    "slowloris": (attack_slowloris, "300 connections dripping a request head: all closed"),
    **attacks_h2.ATTACKS,
}

if __name__ == "__main__":
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__ + "\nAttacks:")
        for name, (_, description) in ATTACKS.items():
            print(f"  {name:<22} {description}")
        sys.exit(0)
    if not os.access(APICHECK, os.X_OK):
        sys.exit(f"{APICHECK}: not found; run 'swift build -c release' first, or set APICHECK.")
    chosen = sys.argv[1:] or list(ATTACKS)
    for name in chosen:
        if name not in ATTACKS:
            sys.exit(f"unknown attack '{name}'; attacks: {', '.join(ATTACKS)}")
        ATTACKS[name][0]()
    print("\n" + "\n".join(RESULTS))
    sys.exit(1 if any(line.endswith("FAILS") for line in RESULTS) else 0)
