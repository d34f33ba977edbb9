#!/usr/bin/env python3
"""The client of Benchmarks/soak.sh (standard library only; talks to 127.0.0.1 only).

Raw HTTP/1.1 over asyncio streams: C persistent keep-alive connections (no pipelining), each
sending one GET, reading the head and exactly Content-Length bytes, checking it, then the next.
Every request is counted exactly once, as ok or as one kind of error; every response is checked
(status, Content-Type, the body byte for byte) against what the stub files say it must be, worked
out here from the files themselves (XML body text, body files, the movie template rendered with a
small Mustache subset), not from the server.

  soak-client.py paths SRC                    the GET paths SRC's stubs answer 2xx (literal paths)
  soak-client.py make-set SRC DIR LABEL       a copy of SRC in DIR whose stub files carry set LABEL:
                                              an `X-Set: LABEL` header on every stub that has a
                                              Content-Type, `"set":"LABEL"` first in every inline
                                              JSON body, " [set LABEL]" at the end of each movie's
                                              synopsis (a template variable)
  soak-client.py soak --port P --pid PID --src SRC --requests N --connections C --rss-at M --out F
                                              exactly N requests over C connections, rotating over
                                              the paths; RSS of PID (/proc/PID/status VmRSS) when
                                              the M-th response arrived, when the last did, and
                                              every second; results to F (JSON) and stdout
  soak-client.py reload --port P --pid PID --src SRC --dir DIR --duration S --connections C
                        --interval I --out F  the same load for S seconds while DIR (served with
                                              --watch, first written as set A) is rewritten every
                                              I seconds, alternating sets B and A, rotating three
                                              ways of writing: temp file + rename (editors),
                                              plain overwrite in place (O_TRUNC), unlink + create
                                              (git checkout); every response must be exactly set
                                              A's or set B's answer for its path (status, type,
                                              X-Set, body); then the set last written must be
                                              what every connection gets
  soak-client.py rewrite --src SRC --dir DIR --interval I --duration S --log F
                                              the rewriter (started by `reload` as a process of its
                                              own): one JSON line per rewrite in F
  soak-client.py table SOAK.json RELOAD.json [APPLIED REJECTED]
                                              the results table ("-" for a phase not run; the
                                              reload counts of the server log); exit 1 when a limit
                                              is broken or a phase left no results
"""
import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

REQUEST_TIMEOUT = 10.0  # seconds without the complete response: a timeout error
CONNECT_TIMEOUT = 5.0
RSS_TOLERANCE = 0.10  # RSS at the end within ±10% of RSS at the mark
MAX_ERROR_SAMPLES = 20
SWITCH_WINDOW = 0.3  # seconds; the watcher needs two 300 ms polls between reloads, so two real
# switches of the served set are at least 600 ms apart


# ---------------------------------------------------------------------------------------------
# What the stub files say (enough of the formats for stubs/acmeflix: inline XML bodies, XML
# body files, JSON stubs with a Mustache template; other body kinds are reported and skipped).


class Expected:
    __slots__ = ("path", "status", "content_type", "x_set", "body", "source")

    def __init__(self, path, status, content_type, x_set, body, source):
        self.path, self.status, self.content_type, self.x_set, self.body, self.source = path, status, content_type, x_set, body, source


def _is_literal(path):
    return not any(c in path for c in "{}*?")


def _stub_files(src):
    """Relative paths of the stub files under src, in byte order (the loader's order)."""
    found = []
    for folder, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.startswith(".") or not name.lower().endswith((".xml", ".json")):
                continue
            found.append(os.path.relpath(os.path.join(folder, name), src))
    return sorted(found, key=lambda p: p.encode())


class RawNumber(str):
    """A JSON number kept as written (templates render numbers as written)."""


def _json_load_raw(data):
    return json.loads(data, parse_float=RawNumber, parse_int=RawNumber)


def _render_mustache(template, values):
    """The Mustache subset the acmeflix template uses: {{name}} (escaped for the inside of a JSON
    string: the template is *.json.mustache) and {{#name}}…{{/name}} sections on booleans."""
    def section(match):
        value = values.get(match.group(1))
        if value is True or (value not in (None, False, "", []) and not isinstance(value, bool)):
            return _render_mustache(match.group(2), values)
        return ""

    text = re.sub(r"\{\{#\s*([\w.]+)\s*\}\}(.*?)\{\{/\s*\1\s*\}\}", section, template, flags=re.S)

    def variable(match):
        value = values.get(match.group(1))
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, RawNumber):
            return str(value)
        escaped = json.dumps(str(value), ensure_ascii=False)[1:-1]
        return escaped.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")

    return re.sub(r"\{\{\s*([\w.]+)\s*\}\}", variable, text)


def _resolve(src, stub_file, relative):
    """A body or template path: against the stub file's folder first, then the root."""
    for base in (os.path.dirname(os.path.join(src, stub_file)), src):
        candidate = os.path.normpath(os.path.join(base, relative))
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(f"{relative} (from {stub_file})")


def expected_answers(src, base_url, read=None):
    """{path: Expected} for every GET stub with a literal path and a 2xx status under src.
    `read(relpath)` gives a stub file's bytes (default: from src)."""
    read = read or (lambda rel: open(os.path.join(src, rel), "rb").read())
    answers, notes = {}, []
    for rel in _stub_files(src):
        data = read(rel)
        if rel.lower().endswith(".xml"):
            root = ET.fromstring(data)
            responses = [root] if root.tag == "http-response" else root.findall("http-response")
            for index, element in enumerate(responses):
                annotation = element.find("annotation")
                if annotation is None or element.find("failure") is not None:
                    continue
                method = (annotation.get("request-method") or "GET").upper()
                path = annotation.get("uri-path") or ""
                status = int(element.get("statusCode") or 0)
                if method != "GET" or not (200 <= status < 300) or not _is_literal(path):
                    continue
                headers = {h.get("name").lower(): h.get("value") for h in element.findall("headers/header")}
                if element.find("body-file") is not None:
                    body = open(_resolve(src, rel, element.find("body-file").get("path")), "rb").read()
                elif element.find("body") is not None:
                    body = (element.find("body").text or "").encode()
                else:
                    notes.append(f"{rel}#{index} {path}: body kind not supported here, skipped")
                    continue
                if path in answers:
                    continue  # the first in load order answers
                answers[path] = Expected(path, status, headers.get("content-type"), headers.get("x-set"), body, f"{rel}#{index}")
        else:
            document = _json_load_raw(data)
            stubs = document["stubs"] if isinstance(document, dict) and "stubs" in document else [document]
            for index, stub in enumerate(stubs):
                request, response = stub.get("request", {}), stub.get("response")
                if response is None:
                    continue
                method = str(request.get("method", "GET")).upper()
                path = request.get("path", "")
                status = int(response.get("status", 200))
                if method != "GET" or not (200 <= status < 300) or not _is_literal(path):
                    continue
                headers = {str(k).lower(): v for k, v in (response.get("headers") or {}).items()}
                if "template" in response:
                    template = response["template"]
                    template_path = template if isinstance(template, str) else template["path"]
                    variables = {} if isinstance(template, str) else dict(template.get("variables") or {})
                    variables["baseURL"] = base_url
                    text = open(_resolve(src, rel, template_path), encoding="utf-8").read()
                    body = _render_mustache(text, variables).encode()
                elif "bodyText" in response:
                    body = response["bodyText"].encode()
                elif "bodyFile" in response:
                    body = open(_resolve(src, rel, response["bodyFile"]), "rb").read()
                else:
                    notes.append(f"{rel}#{index} {path}: body kind not supported here, skipped")
                    continue
                if path in answers:
                    continue
                answers[path] = Expected(path, status, headers.get("content-type"), headers.get("x-set"), body, f"{rel}#{index}")
    return answers, notes


# ---------------------------------------------------------------------------------------------
# Sets A and B: the same stubs, told apart by a header and a body marker.


def variant_files(src, label):
    """{relpath: bytes} of every stub file of src, marked as set `label`."""
    files = {}
    for rel in _stub_files(src):
        text = open(os.path.join(src, rel), encoding="utf-8").read()
        if rel.lower().endswith(".xml"):
            text = re.sub(
                r'^([ \t]*)(<header name="Content-Type" value="[^"]*" */>)[ \t]*$',
                lambda m: f'{m.group(1)}{m.group(2)}\n{m.group(1)}<header name="X-Set" value="{label}" />',
                text, flags=re.M,
            )
            text = text.replace("<body><![CDATA[{", '<body><![CDATA[{"set":"' + label + '",')
        else:
            text = re.sub(
                r'^([ \t]*)("Content-Type": "[^"]*")[ \t]*$',
                lambda m: f'{m.group(1)}{m.group(2)},\n{m.group(1)}"X-Set": "{label}"',
                text, flags=re.M,
            )
            text = re.sub(r'("synopsis": ")((?:[^"\\]|\\.)*)(")', lambda m: f"{m.group(1)}{m.group(2)} [set {label}]{m.group(3)}", text)
        files[rel] = text.encode()
    return files


def make_set(src, dest, label):
    shutil.copytree(src, dest, dirs_exist_ok=False)
    for rel, data in variant_files(src, label).items():
        with open(os.path.join(dest, rel), "wb") as handle:
            handle.write(data)


MODES = ("rename", "overwrite", "unlink-create")


def write_file(folder, rel, data, mode):
    path = os.path.join(folder, rel)
    if mode == "rename":  # an editor: a hidden temp file beside it, then rename over it
        directory, name = os.path.split(path)
        temp = os.path.join(directory, f".{name}.soak-{os.getpid()}.tmp")
        with open(temp, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    elif mode == "overwrite":  # truncate and write in place: the same inode
        with open(path, "wb") as handle:
            handle.write(data)
    else:  # git checkout: unlink, then create a new file
        os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def rewrite_main(args):
    """The rewriter, a process of its own (no GIL shared with the load): every `interval` seconds
    all stub files of `dir` become set B, then A, …, each time in the next of MODES; one JSON line
    per rewrite in `log`. Stops on SIGTERM, after `duration`, or when its parent is gone."""
    sets = {label: variant_files(args.src, label) for label in ("A", "B")}
    parent = os.getppid()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    version, cycle = "A", 0  # make-set wrote A
    deadline = time.monotonic() + args.duration
    next_at = time.monotonic() + args.interval
    with open(args.log, "a", buffering=1) as log:
        try:
            while not stop and time.monotonic() < deadline and os.getppid() == parent:
                delay = next_at - time.monotonic()
                if delay > 0:
                    time.sleep(min(delay, 0.05))
                    continue
                version = "B" if version == "A" else "A"
                mode = MODES[cycle % len(MODES)]
                started = time.monotonic()
                for rel, data in sets[version].items():
                    write_file(args.dir, rel, data, mode)
                log.write(json.dumps({"t": started, "v": version, "m": mode, "d": time.monotonic() - started}) + "\n")
                cycle += 1
                # Never two rewrites closer than the interval (a late one does not catch up).
                next_at = max(next_at + args.interval, time.monotonic() + args.interval)
        except Exception as error:  # noqa: BLE001 — reported by the client
            log.write(json.dumps({"failure": f"{type(error).__name__}: {error}"}) + "\n")
    return 0


class RewriterProcess:
    """The client's handle on the rewriter process and its log."""

    def __init__(self, src, folder, interval, duration):
        self.log_path = folder.rstrip("/") + ".rewrites.jsonl"  # beside the watched folder, not in it
        self.command = [sys.executable, os.path.abspath(__file__), "rewrite", "--src", src, "--dir", folder,
                        "--interval", str(interval), "--duration", str(duration + 5), "--log", self.log_path]
        self.process = None

    def start(self):
        open(self.log_path, "w").close()
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def entries(self):
        try:
            return [json.loads(line) for line in open(self.log_path) if line.strip()]
        except (OSError, ValueError):
            return []

    @property
    def log(self):  # (monotonic time, version, mode, seconds taken)
        return [(e["t"], e["v"], e["m"], e["d"]) for e in self.entries() if "v" in e]

    @property
    def version(self):
        log = self.log
        return log[-1][1] if log else "A"

    @property
    def rewrites(self):
        counts = {mode: 0 for mode in MODES}
        for _, _, mode, _ in self.log:
            counts[mode] += 1
        return counts

    @property
    def failure(self):
        failures = [e["failure"] for e in self.entries() if "failure" in e]
        if self.process is not None and self.process.returncode not in (None, 0):
            failures.append(f"the rewriter exited with status {self.process.returncode}")
        return "; ".join(failures) or None


# ---------------------------------------------------------------------------------------------
# The load.


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


async def report_progress(load, pid, rss_samples, describe):
    """Every second, samples the server's RSS into rss_samples; every 10 s, prints a progress line
    to stderr (describe(elapsed) adds the run's own counters)."""
    last_print = 0.0
    while True:
        await asyncio.sleep(1.0)
        elapsed = time.monotonic() - load.t0
        rss_samples.append((round(elapsed, 2), load.done, rss_kib(pid)))
        if elapsed - last_print >= 10:
            last_print = elapsed
            print(f"  {elapsed:6.1f} s  {load.done:>9,} responses  {describe(elapsed)}  RSS {rss_samples[-1][2] / 1024:.1f} MiB",
                  file=sys.stderr, flush=True)


def hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Connection:
    __slots__ = ("reader", "writer", "started", "timed_out", "files", "sent")

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.started = None
        self.timed_out = False
        self.files = {}  # the reload phase: per stub file, [set last answered, switch bound, last sent]
        self.sent = None  # when the current request was sent


class ProtocolError(Exception):
    pass


class Load:
    """C workers sharing one request counter; each response checked by `check(path, status,
    headers, body, connection)`, which returns None when it is right or (kind, detail)."""

    def __init__(self, port, paths, connections, check, requests=None, duration=None, on_response=None):
        self.port, self.paths, self.connection_count, self.check = port, paths, connections, check
        self.requests, self.duration, self.on_response = requests, duration, on_response
        self.issued = 0
        self.done = 0
        self.ok = 0
        self.errors = {}
        self.error_samples = []
        self.error_times = {}  # kind: [first, last] seconds into the run
        self.connects = 0
        self.live = []
        self.deadline = None
        self.stopped = False
        host = f"127.0.0.1:{port}"
        self.request_bytes = [f"GET {p} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: apicheck-soak\r\n\r\n".encode() for p in paths]

    def error(self, kind, index, path, detail):
        self.errors[kind] = self.errors.get(kind, 0) + 1
        at = round(time.monotonic() - self.t0, 3)
        span = self.error_times.setdefault(kind, [at, at])
        span[1] = at
        if len(self.error_samples) < MAX_ERROR_SAMPLES:
            self.error_samples.append({"kind": kind, "request": index, "path": path, "at": round(time.monotonic() - self.t0, 3), "detail": detail})

    def completed(self):
        self.done += 1
        if self.on_response is not None:
            self.on_response(self.done)

    def next_index(self):
        if self.stopped:
            return None
        if self.requests is not None and self.issued >= self.requests:
            return None
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return None
        index = self.issued
        self.issued += 1
        return index

    async def connect(self):
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20), CONNECT_TIMEOUT)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.connects += 1
        return Connection(reader, writer)

    def drop(self, connection):
        if connection is not None:
            try:
                connection.writer.transport.abort()
            except Exception:  # noqa: BLE001
                pass
            if connection in self.live:
                self.live.remove(connection)

    async def worker(self, number):
        connection = None
        count = len(self.paths)
        while True:
            index = self.next_index()
            if index is None:
                break
            slot = index % count
            path = self.paths[slot]
            if connection is None:
                try:
                    connection = await self.connect()
                    self.live.append(connection)
                except (OSError, asyncio.TimeoutError) as error:
                    self.error("connect", index, path, f"{type(error).__name__}: {error}")
                    self.completed()
                    await asyncio.sleep(0.05)
                    continue
            connection.started = time.monotonic()
            connection.sent = connection.started
            try:
                connection.writer.write(self.request_bytes[slot])
                head = await connection.reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 "):
                    raise ProtocolError(f"not an HTTP/1.1 status line: {head[:120]!r}")
                lines = head[:-4].split(b"\r\n")
                status = int(lines[0][9:12])
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name in headers:
                        headers[name] += b"," + value.strip()
                    else:
                        headers[name] = value.strip()
                length = headers.get(b"content-length")
                if length is None or b"transfer-encoding" in headers:
                    raise ProtocolError(f"no Content-Length: {head[:300]!r}")
                body = await connection.reader.readexactly(int(length)) if length != b"0" else b""
            except (ProtocolError, ValueError) as error:
                self.error("protocol", index, path, str(error))
                self.completed()
                self.drop(connection)
                connection = None
                continue
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
                kind = "timeout" if connection.timed_out else "connection"
                partial = getattr(error, "partial", b"")
                self.error(kind, index, path, f"{type(error).__name__}: {error}" + (f"; partial {partial[:200]!r}" if partial else ""))
                self.completed()
                self.drop(connection)
                connection = None
                continue
            connection.started = None
            self.completed()
            problem = self.check(path, status, headers, body, connection)
            closing = headers.get(b"connection", b"").lower() == b"close"
            if problem is None and closing:
                problem = ("server-closed", "the server answered a keep-alive request with Connection: close")
            if problem is None:
                self.ok += 1
            else:
                kind, detail = problem
                self.error(kind, index, path, detail)
            if closing:
                self.drop(connection)
                connection = None
        if connection is not None:
            try:
                connection.writer.close()
            except Exception:  # noqa: BLE001
                pass
            if connection in self.live:
                self.live.remove(connection)

    async def watchdog(self):
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            for connection in list(self.live):
                if connection.started is not None and now - connection.started > REQUEST_TIMEOUT:
                    connection.timed_out = True
                    connection.writer.transport.abort()

    async def lag_monitor(self):
        """The client's own stalls: how late a 50 ms sleep wakes up."""
        self.max_lag, self.stalls = 0.0, []
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            lag = time.monotonic() - before - 0.05
            self.max_lag = max(self.max_lag, lag)
            if lag > 0.25 and len(self.stalls) < MAX_ERROR_SAMPLES:
                self.stalls.append((round(before - self.t0, 3), round(lag * 1000)))

    async def run(self):
        self.t0 = time.monotonic()
        lag = asyncio.ensure_future(self.lag_monitor())
        if self.duration is not None:
            self.deadline = self.t0 + self.duration
        dog = asyncio.ensure_future(self.watchdog())
        try:
            await asyncio.gather(*(self.worker(n) for n in range(self.connection_count)))
        finally:
            dog.cancel()
            lag.cancel()
        self.seconds = time.monotonic() - self.t0


def http_get(port, path, timeout=10):
    """One request on a new connection: (status, headers dict (lower-case str), body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                raise ConnectionError(f"closed before a complete head: {data[:200]!r}")
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode()] = value.strip().decode("latin-1")
        length = int(headers.get("content-length", "-1"))
        while length >= 0 and len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
    return int(lines[0].split(b" ")[1]), headers, body


def health(port):
    try:
        status, _, body = http_get(port, "/__apicheck/health")
        return json.loads(body) if status == 200 else {"status": status}
    except (OSError, ValueError) as error:
        return {"error": str(error)}


def describe_mismatch(expected, status, headers, body):
    parts = []
    if status != expected.status:
        parts.append(f"status {status}, expected {expected.status}")
    content_type = headers.get(b"content-type", b"").decode("latin-1")
    if content_type != (expected.content_type or ""):
        parts.append(f"Content-Type {content_type!r}, expected {expected.content_type!r}")
    if body != expected.body:
        at = next((i for i in range(min(len(body), len(expected.body))) if body[i] != expected.body[i]), min(len(body), len(expected.body)))
        parts.append(f"body {len(body)} bytes, expected {len(expected.body)}; first difference at byte {at}: "
                     f"got {body[max(0, at - 40):at + 60]!r}, expected {expected.body[max(0, at - 40):at + 60]!r}")
    return "; ".join(parts)


def print_errors(load):
    if load.errors:
        print("errors by kind: " + ", ".join(f"{k} {v} (from {load.error_times[k][0]} s to {load.error_times[k][1]} s)"
                                             for k, v in sorted(load.errors.items())))
        print(f"first {len(load.error_samples)} errors:")
        for sample in load.error_samples:
            print(f"  #{sample['request']} GET {sample['path']} at {sample['at']} s [{sample['kind']}] {sample['detail']}")


def preflight(port, expected, label):
    """One request per path on its own connection; every answer must be the expected one."""
    bad = []
    for path, answer in expected.items():
        try:
            status, headers, body = http_get(port, path)
        except (OSError, ValueError, IndexError) as error:
            bad.append(f"GET {path}: {type(error).__name__}: {error}")
            continue
        raw = {k.encode(): v.encode("latin-1") for k, v in headers.items()}
        if status != answer.status or raw.get(b"content-type", b"").decode() != (answer.content_type or "") or body != answer.body:
            bad.append(f"GET {path}: {describe_mismatch(answer, status, raw, body)}")
    if bad:
        print(f"preflight ({label}): {len(bad)} of {len(expected)} paths do not answer what the stub files say:")
        for line in bad:
            print("  " + line)
    return bad


# ---------------------------------------------------------------------------------------------
# soak


def run_soak(args):
    base_url = f"http://127.0.0.1:{args.port}"
    expected, notes = expected_answers(args.src, base_url)
    for note in notes:
        print("note: " + note, file=sys.stderr)
    paths = sorted(expected)
    bad = preflight(args.port, expected, "soak")
    results = {"phase": "soak", "paths": len(paths), "preflight_failures": bad}
    if bad:
        results["errors_total"] = len(bad)
        json.dump(results, open(args.out, "w"), indent=1)
        return 1

    by_path = {p: expected[p] for p in paths}
    rss_samples = []  # (seconds, responses, KiB)
    marks = {}

    def check(path, status, headers, body, connection):
        answer = by_path[path]
        if status == answer.status and body == answer.body and headers.get(b"content-type", b"").decode() == answer.content_type:
            return None
        kind = "status" if not (200 <= status < 300) else "body"
        return kind, describe_mismatch(answer, status, headers, body)

    mark_at = args.rss_at
    total = args.requests

    def on_response(done):
        if done == mark_at or done == total:
            marks[done] = rss_kib(args.pid)
            rss_samples.append((round(time.monotonic() - load.t0, 2), done, marks[done]))

    load = Load(args.port, paths, args.connections, check, requests=total, on_response=on_response)

    async def main():
        task = asyncio.ensure_future(report_progress(
            load, args.pid, rss_samples, lambda elapsed: f"{load.done / elapsed:8.0f} req/s  errors {sum(load.errors.values())}"))
        try:
            await asyncio.wait_for(load.run(), args.max_seconds)
        except asyncio.TimeoutError:
            load.stopped = True
            load.error("deadline", load.issued, "-", f"the run did not finish within {args.max_seconds} s")
        finally:
            task.cancel()

    rss_start = rss_kib(args.pid)
    asyncio.run(main())
    errors = sum(load.errors.values())
    rss_mark, rss_end = marks.get(mark_at, 0), marks.get(total, 0)
    ratio = rss_end / rss_mark if rss_mark else 0.0
    peak = max([s[2] for s in rss_samples] + [rss_end, rss_mark])
    results.update({
        "requests": total, "responses_checked": load.done, "ok": load.ok, "errors_total": errors, "errors": load.errors,
        "error_samples": load.error_samples, "connections": args.connections, "connects": load.connects,
        "seconds": round(load.seconds, 2), "rps": round(load.done / load.seconds) if load.seconds else 0,
        "rss_start_kib": rss_start, "rss_mark_at": mark_at, "rss_mark_kib": rss_mark, "rss_end_kib": rss_end,
        "rss_ratio": round(ratio, 4), "rss_peak_sampled_kib": peak, "vmhwm_kib": hwm_kib(args.pid),
        "rss_samples": rss_samples, "health_after": health(args.port),
    })
    json.dump(results, open(args.out, "w"), indent=1)

    print(f"soak: {load.done:,} requests ({load.ok:,} ok, {errors} errors) over {args.connections} keep-alive connections "
          f"({load.connects} connects) across {len(paths)} GET paths in {load.seconds:.1f} s = {results['rps']:,} req/s")
    print(f"  RSS: start {rss_start / 1024:.1f} MiB, at response {mark_at:,} {rss_mark / 1024:.1f} MiB, at the last "
          f"{rss_end / 1024:.1f} MiB (ratio {ratio:.3f}), peak sampled {peak / 1024:.1f} MiB, VmHWM {results['vmhwm_kib'] / 1024:.1f} MiB")
    step = max(1, len(rss_samples) // 12)
    print("  RSS samples (s, responses, MiB): " + "  ".join(f"{t:.0f}/{d:,}/{k / 1024:.1f}" for t, d, k in rss_samples[::step]))
    print_errors(load)
    return 0 if errors == 0 and rss_mark and abs(ratio - 1) <= RSS_TOLERANCE else 1


# ---------------------------------------------------------------------------------------------
# reload


def run_reload(args):
    base_url = f"http://127.0.0.1:{args.port}"
    sets = {label: variant_files(args.src, label) for label in ("A", "B")}
    expected = {}
    for label in ("A", "B"):
        answers, notes = expected_answers(args.src, base_url, read=lambda rel, label=label: sets[label][rel])
        for note in notes:
            print("note: " + note, file=sys.stderr)
        expected[label] = answers
    paths = sorted(expected["A"])
    assert paths == sorted(expected["B"]), "sets A and B answer different paths"
    for path in paths:
        a, b = expected["A"][path], expected["B"][path]
        assert a.x_set == "A" and b.x_set == "B", f"{path}: no X-Set marker ({a.source})"
    results = {"phase": "reload", "paths": len(paths)}
    bad = preflight(args.port, expected["A"], "reload, set A")
    results["preflight_failures"] = bad
    if bad:
        results["errors_total"] = len(bad)
        json.dump(results, open(args.out, "w"), indent=1)
        return 1

    counts = {"A": 0, "B": 0}
    file_of = {path: expected["A"][path].source.split("#")[0] for path in paths}
    same_body = sum(1 for p in paths if expected["A"][p].body == expected["B"][p].body)

    switch = {"version": None, "at": 0.0, "overlap": 0, "max_lag": 0.0, "switches": 0}

    def check(path, status, headers, body, connection):
        marker = headers.get(b"x-set", b"").decode("latin-1")
        answer = expected.get(marker, {}).get(path) if marker in ("A", "B") else None
        if answer is not None and status == answer.status and body == answer.body and headers.get(b"content-type", b"").decode() == answer.content_type:
            counts[marker] += 1
            now = time.monotonic()
            # Across connections: after the first answer of the other set, answers of the old one
            # within SWITCH_WINDOW are overlap (matched before the swap, or another event loop
            # not switched yet); the next real switch comes a rewrite interval later.
            if marker != switch["version"]:
                if switch["version"] is not None and now - switch["at"] < SWITCH_WINDOW:
                    switch["overlap"] += 1
                    switch["max_lag"] = max(switch["max_lag"], now - switch["at"])
                else:
                    switch["switches"] += switch["version"] is not None  # the first answer is no switch
                    switch.update(version=marker, at=now)
            # On one connection (no pipelining: each request is sent after the previous answer),
            # the answers from one stub file, once from the new set, never may be from the old
            # one again. (Per file, not per connection: a reload may catch a tree with some files
            # rewritten and others not yet, which is still a valid set for each path.) The server
            # switched the file between the match of this connection's last request answered
            # from the old set (sent at `bound`) and the match of the switching one; when it
            # switches back, both installs lie between that send and this answer. Less than
            # SWITCH_WINDOW between them is impossible for two real reloads (at least two 300 ms
            # polls apart), whatever the client's own stalls (they only widen the span): one
            # "back to the old set", counted once (the switch back is not counted again).
            stub_file = file_of[path]
            state = connection.files.get(stub_file)
            if state is None:
                connection.files[stub_file] = [marker, float("-inf"), connection.sent]
            elif marker != state[0]:
                if now - state[1] < SWITCH_WINDOW:
                    detail = (f"set {marker} from {stub_file}; this connection's previous answers from that file were set {state[0]} "
                              f"and, before them, set {marker}: both switches within {1000 * (now - state[1]):.1f} ms "
                              f"(from sending the last request answered by set {marker} to this answer)")
                    state[0], state[1], state[2] = marker, float("-inf"), connection.sent
                    return "regression", detail
                state[0], state[1], state[2] = marker, state[2], connection.sent
            else:
                state[2] = connection.sent
            return None
        if not (200 <= status < 300):
            kind = "status"
        else:
            other = "B" if marker == "A" else "A"
            if marker in ("A", "B") and body == expected[other][path].body and status == expected[other][path].status:
                kind = "mixed"  # the head of one set, the body of the other
            else:
                kind = "neither"
        reference = answer or expected["A"][path]
        return kind, f"X-Set {marker!r}; " + describe_mismatch(reference, status, headers, body)

    load = Load(args.port, paths, args.connections, check, duration=args.duration)
    rewriter = RewriterProcess(args.src, args.dir, args.interval, args.duration)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that `finally` stops the rewriter
    health_before = health(args.port)
    rss_start = rss_kib(args.pid)
    rss_samples = []

    async def main():
        task = asyncio.ensure_future(report_progress(
            load, args.pid, rss_samples,
            lambda _: f"A {counts['A']:,} B {counts['B']:,}  errors {sum(load.errors.values())}  rewrites {sum(rewriter.rewrites.values())}"))
        rewriter.start()
        try:
            await asyncio.wait_for(load.run(), args.duration + 60)
        except asyncio.TimeoutError:
            load.stopped = True
            load.error("deadline", load.issued, "-", f"the run did not finish within {args.duration + 60} s")
        finally:
            rewriter.stop()
            task.cancel()

    try:
        asyncio.run(main())
    finally:
        rewriter.stop()

    # Convergence: after the last rewrite, once the watcher had time (poll + settle + load), every
    # new connection and every path must get the set last written.
    final = rewriter.version
    settle_deadline = time.monotonic() + 15
    time.sleep(2.0)
    reloads_seen = None
    while time.monotonic() < settle_deadline:
        count = health(args.port).get("reloads")
        if count == reloads_seen:
            break
        reloads_seen = count
        time.sleep(1.0)
    stale = []
    for attempt in range(4):  # several connections, so each event loop is asked
        for path in paths:
            try:
                status, headers, body = http_get(args.port, path)
            except (OSError, ValueError, IndexError) as error:
                stale.append(f"GET {path} (connection {attempt + 1}): {type(error).__name__}: {error}")
                continue
            if headers.get("x-set") != final or body != expected[final][path].body or status != expected[final][path].status:
                stale.append(f"GET {path} (connection {attempt + 1}): status {status}, X-Set {headers.get('x-set')!r}, expected set {final}")
    health_after = health(args.port)

    rewrite_log = rewriter.log
    starts = [entry[0] for entry in rewrite_log]
    # Rewrites that took longer than ~ the watcher's 300 ms interval: a reload may then read a
    # half-written tree, which the watcher's settle rule cannot prevent.
    slow = [(round(t - load.t0, 3), v, m, round(1000 * d)) for t, v, m, d in rewrite_log if d > 0.25]
    spans = [b - a for a, b in zip(starts, starts[1:])]
    gaps = [round(min(spans), 3), round(max(spans), 3)] if spans else [0, 0]
    errors = sum(load.errors.values())
    mixed = load.errors.get("mixed", 0)
    neither = load.errors.get("neither", 0)
    regressed = load.errors.get("regression", 0)
    failed = errors - mixed - neither - regressed
    rewrites = sum(rewriter.rewrites.values())
    reloads = (health_after.get("reloads") or 0) - (health_before.get("reloads") or 0)
    results.update({
        "duration": args.duration, "interval": args.interval, "connections": args.connections, "connects": load.connects,
        "requests": load.done, "ok": load.ok, "set_A": counts["A"], "set_B": counts["B"], "paths_same_body": same_body,
        "errors_total": errors, "errors": load.errors, "failed": failed, "mixed": mixed, "neither": neither,
        "regressions": regressed, "switches_seen": switch["switches"], "overlap_answers": switch["overlap"],
        "overlap_max_ms": round(1000 * switch["max_lag"], 1),
        "error_samples": load.error_samples, "error_times": load.error_times, "seconds": round(load.seconds, 2),
        "slow_rewrites": slow,
        "rps": round(load.done / load.seconds) if load.seconds else 0, "rewrites": rewrites, "rewrites_by_mode": rewriter.rewrites,
        "rewrite_failure": rewriter.failure, "rewrite_gaps_s": gaps, "client_max_lag_ms": round(1000 * load.max_lag),
        "client_stalls": load.stalls, "rewrite_log": [(round(t - load.t0, 3), v, m, round(d * 1000, 2)) for t, v, m, d in rewrite_log],
        "final_set": final, "stale_after_settle": stale, "reloads_health": reloads, "health_before": health_before,
        "health_after": health_after, "rss_start_kib": rss_start, "rss_end_kib": rss_kib(args.pid), "rss_samples": rss_samples,
    })
    json.dump(results, open(args.out, "w"), indent=1)

    print(f"reload: {load.done:,} requests in {load.seconds:.1f} s ({results['rps']:,} req/s) over {args.connections} connections "
          f"({load.connects} connects) across {len(paths)} GET paths, files rewritten every {args.interval} s")
    print(f"  answers: set A {counts['A']:,}, set B {counts['B']:,}; failed {failed}, mixed (head of one set, body of the other) {mixed}, "
          f"neither set {neither}, back to the old set on a connection that had the new one {regressed}")
    print(f"  switches of the set seen by the client {switch['switches']}; answers of the old set after the first of the new one "
          f"(any connection, within {SWITCH_WINDOW * 1000:.0f} ms) {switch['overlap']:,}, the latest {1000 * switch['max_lag']:.1f} ms after")
    print(f"  rewrites {rewrites} ({', '.join(f'{m} {n}' for m, n in rewriter.rewrites.items())}); the server's reload count "
          f"(GET /__apicheck/health) went {health_before.get('reloads')} -> {health_after.get('reloads')}")
    print(f"  time between rewrites {gaps[0]:.3f}–{gaps[1]:.3f} s; the client's longest stall (a 50 ms sleep woken late) "
          f"{1000 * load.max_lag:.0f} ms" + (f"; stalls over 250 ms (s, ms): {load.stalls}" if load.stalls else ""))
    if slow:
        print(f"  rewrites that took over 250 ms (the machine was busy; a reload may then read a half-written tree) "
              f"(s, set, way, ms): {slow[:20]}")
    if rewriter.failure:
        print(f"  the rewriter failed: {rewriter.failure}")
    if stale:
        print(f"  after the last rewrite (set {final}) and {len(stale)} answers later still not set {final}:")
        for line in stale[:10]:
            print("    " + line)
    else:
        print(f"  after the last rewrite: all {len(paths)} paths on 4 new connections answer set {final}")
    step = max(1, len(rss_samples) // 12)
    print(f"  RSS: start {rss_start / 1024:.1f} MiB, end {results['rss_end_kib'] / 1024:.1f} MiB; samples (s, responses, MiB): "
          + "  ".join(f"{t:.0f}/{d:,}/{k / 1024:.1f}" for t, d, k in rss_samples[::step]))
    print_errors(load)
    return 0 if errors == 0 and not stale and not rewriter.failure else 1


# ---------------------------------------------------------------------------------------------
# table


def table(soak_file, reload_file, applied=None, rejected=None):
    rows, fail = [], []
    for name, file in (("soak", soak_file), ("reload", reload_file)):
        if file != "-" and not os.path.exists(file):
            rows.append((f"{name} results", "none: the client did not finish", "FAIL"))
            fail.append(f"{name} did not finish")
    if soak_file != "-" and os.path.exists(soak_file):
        s = json.load(open(soak_file))
        if s.get("preflight_failures"):
            rows.append(("soak preflight", f"{len(s['preflight_failures'])} paths wrong", "FAIL"))
            fail.append("soak preflight")
        else:
            drift = abs(s["rss_ratio"] - 1) if s["rss_mark_kib"] else 1
            rows += [
                ("soak requests", f"{s['responses_checked']:,} of {s['requests']:,} ({s['connections']} connections, {s['paths']} paths)", ""),
                ("soak seconds", f"{s['seconds']:.1f}", ""),
                ("soak requests/s", f"{s['rps']:,}", ""),
                ("soak errors", f"{s['errors_total']}" + (f" ({', '.join(f'{k} {v}' for k, v in s['errors'].items())})" if s["errors"] else ""),
                 "ok" if s["errors_total"] == 0 else "FAIL"),
                (f"RSS at response {s['rss_mark_at']:,}", f"{s['rss_mark_kib'] / 1024:.1f} MiB", ""),
                ("RSS at the last", f"{s['rss_end_kib'] / 1024:.1f} MiB", ""),
                ("RSS last / mark", f"{s['rss_ratio']:.3f} (limit 0.90–1.10)", "ok" if drift <= RSS_TOLERANCE else "FAIL"),
                ("RSS peak", f"{s['rss_peak_sampled_kib'] / 1024:.1f} MiB sampled, VmHWM {s['vmhwm_kib'] / 1024:.1f} MiB", ""),
            ]
            if s["errors_total"]:
                fail.append("soak errors")
            if drift > RSS_TOLERANCE:
                fail.append("RSS drift")
    if reload_file != "-" and os.path.exists(reload_file):
        r = json.load(open(reload_file))
        if r.get("preflight_failures"):
            rows.append(("reload preflight", f"{len(r['preflight_failures'])} paths wrong", "FAIL"))
            fail.append("reload preflight")
        else:
            rows += [
                ("reload requests", f"{r['requests']:,} in {r['seconds']:.1f} s ({r['rps']:,} req/s)", ""),
                ("reload answers A / B", f"{r['set_A']:,} / {r['set_B']:,}", ""),
                ("reload failed", f"{r['failed']}" + (f" ({', '.join(f'{k} {v}' for k, v in r['errors'].items() if k not in ('mixed', 'neither'))})" if r["failed"] else ""),
                 "ok" if r["failed"] == 0 else "FAIL"),
                ("reload mixed / neither", f"{r['mixed']} / {r['neither']}", "ok" if r["mixed"] + r["neither"] == 0 else "FAIL"),
                ("back to the old set", f"{r['regressions']} (same connection, after the new set)", "ok" if r["regressions"] == 0 else "FAIL"),
                ("set switches seen", f"{r['switches_seen']}; old-set answers after the first new one {r['overlap_answers']:,} (latest {r['overlap_max_ms']} ms)", ""),
                ("rewrites", f"{r['rewrites']} ({', '.join(f'{m} {n}' for m, n in r['rewrites_by_mode'].items())}), "
                             f"{r['rewrite_gaps_s'][0]:.2f}–{r['rewrite_gaps_s'][1]:.2f} s apart", ""),
                ("client's longest stall", f"{r['client_max_lag_ms']} ms", ""),
                ("rewrites over 250 ms", f"{len(r['slow_rewrites'])}" + (" (see above: a reload may read a half-written tree then)" if r["slow_rewrites"] else ""), ""),
                ("reloads (health)", f"{r['reloads_health']} for {r['rewrites']} rewrites",
                 "ok" if r["reloads_health"] == r["rewrites"] else ("WARN: not one per rewrite" if r["reloads_health"] > 0 else "FAIL")),
                ("reload RSS", f"{r['rss_start_kib'] / 1024:.1f} MiB at the start, {r['rss_samples'][0][2] / 1024 if r['rss_samples'] else 0:.1f} MiB after 1 s, "
                               f"{r['rss_end_kib'] / 1024:.1f} MiB at the end", ""),
                *([("reloads in the server log", f"{applied} applied, {rejected} rejected (a file read while being written; "
                                                  f"the last good set kept serving)" if rejected else f"{applied} applied, 0 rejected",
                    "WARN" if rejected else "")] if applied is not None else []),
                ("set last written served", f"{'yes' if not r['stale_after_settle'] else 'no: ' + str(len(r['stale_after_settle'])) + ' stale answers'}",
                 "ok" if not r["stale_after_settle"] else "FAIL"),
            ]
            if r["failed"]:
                fail.append("reload failures")
            if r["mixed"] + r["neither"]:
                fail.append("mixed answers")
            if r["regressions"]:
                fail.append("old set after the new one")
            if r["reloads_health"] <= 0:
                fail.append("no reload")
            if r["stale_after_settle"]:
                fail.append("stale set after the last rewrite")
            if r.get("rewrite_failure"):
                fail.append("rewriter failed")
    width = max(len(r[0]) for r in rows) if rows else 10
    print()
    for name, value, verdict in rows:
        print(f"  {name:<{width}}  {value}" + (f"   [{verdict}]" if verdict else ""))
    print()
    print("RESULT: " + ("PASS" if not fail else "FAIL (" + ", ".join(fail) + ")"))
    return 0 if not fail else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("paths")
    p.add_argument("src")
    p = sub.add_parser("make-set")
    p.add_argument("src")
    p.add_argument("dir")
    p.add_argument("label")
    for name in ("soak", "reload"):
        p = sub.add_parser(name)
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--pid", type=int, required=True)
        p.add_argument("--src", required=True)
        p.add_argument("--connections", type=int, default=64)
        p.add_argument("--out", required=True)
        if name == "soak":
            p.add_argument("--requests", type=int, default=1_000_000)
            p.add_argument("--rss-at", type=int, default=100_000)
            p.add_argument("--max-seconds", type=float, default=1800)
        else:
            p.add_argument("--dir", required=True)
            p.add_argument("--duration", type=float, default=60)
            p.add_argument("--interval", type=float, default=1.0)
    p = sub.add_parser("rewrite")
    p.add_argument("--src", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--interval", type=float, default=1.0)
    p.add_argument("--duration", type=float, required=True)
    p.add_argument("--log", required=True)
    p = sub.add_parser("table")
    p.add_argument("soak")
    p.add_argument("reload")
    p.add_argument("applied", nargs="?", type=int, help="reloads applied, from the server log")
    p.add_argument("rejected", nargs="?", type=int, help="reloads rejected, from the server log")
    args = parser.parse_args()
    if args.command == "paths":
        answers, notes = expected_answers(args.src, "http://127.0.0.1:0")
        for note in notes:
            print("note: " + note, file=sys.stderr)
        print("\n".join(sorted(answers)))
        return 0
    if args.command == "make-set":
        make_set(args.src, args.dir, args.label)
        return 0
    if args.command == "soak":
        return run_soak(args)
    if args.command == "reload":
        return run_reload(args)
    if args.command == "rewrite":
        return rewrite_main(args)
    return table(args.soak, args.reload, args.applied, args.rejected)


if __name__ == "__main__":
    sys.exit(main())
