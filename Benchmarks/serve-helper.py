#!/usr/bin/env python3
"""Helpers for Benchmarks/serve.sh (standard library only; talks to 127.0.0.1 only).

  serve-helper.py generate N DIR      N stub files in DIR/stubs (even: literal /items/N; odd:
                                      templated /collection-N/{id}) with the same 300-byte JSON
                                      body; writes it to DIR/body.json too
  serve-helper.py first-request BIN DIR PATH
                                      starts `BIN serve DIR --port 0`, prints the milliseconds from
                                      process start to the first 200 for PATH, then stops it
  serve-helper.py free-port           a free TCP port on 127.0.0.1
  serve-helper.py requests PORT PATH N
                                      N GETs of PATH, one after another on one keep-alive
                                      connection; fails unless every answer is a 200
  serve-helper.py wrk FILE            from `wrk --latency` output: req/s, p99 (ms), non-2xx
                                      responses and the total number of requests ("N requests
                                      in …"), in that order, space-separated
  serve-helper.py wrk-socket-errors FILE
                                      from `wrk` output: its socket errors (connect + read +
                                      write + timeout), 0 when it reports none
  serve-helper.py h2load FILE         from `h2load` output: req/s, mean time per request (ms),
                                      errors (failed + errored + timed out + non-2xx) and the
                                      number of succeeded requests, space-separated
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

BODY = {
    "id": "u-0001",
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "roles": ["admin", "author"],
    "active": True,
    "_links": [
        {"rel": "self", "href": "http://localhost:3000/users/u-0001", "type": "application/json"},
        {"rel": "orders", "href": "http://localhost:3000/users/u-0001/orders"},
    ],
}


def body_bytes():
    text = json.dumps(BODY, separators=(",", ":"))
    # Pad to exactly 300 bytes so every server sends the same payload size.
    text = text[:-1] + ',"pad":"' + "x" * max(0, 300 - len(text) - 9) + '"}'
    assert len(text) == 300, len(text)
    return text.encode()


def generate(count, folder):
    os.makedirs(folder, exist_ok=True)
    body = body_bytes()
    with open(os.path.join(folder, "body.json"), "wb") as handle:
        handle.write(body)
    text = body.decode()
    for index in range(count):
        # Even: literal paths (/items/0); odd: a template per collection (/collection-1/{id}).
        path = f"/items/{index}" if index % 2 == 0 else f"/collection-{index}/{{id}}"
        stub = {
            "name": f"stub {index}",
            "request": {"method": "GET", "path": path},
            "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyText": text},
        }
        sub = os.path.join(folder, "stubs", f"{index // 1000:03d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"stub-{index:06d}.json"), "w") as handle:
            json.dump(stub, handle)


def requests(port, path, count):
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        pending = b""
        for _ in range(count):
            connection.sendall(request)
            while b"\r\n\r\n" not in pending:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the server closed the connection")
                pending += chunk
            head, _, pending = pending.partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200 "):
                status_line = head.split(b"\r\n")[0].decode()
                sys.exit(f"answered {status_line}")
            length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
            while len(pending) < length:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the server closed the connection")
                pending += chunk
            pending = pending[length:]


def http_get(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0


def first_request(binary, folder, path):
    start = time.monotonic()
    process = subprocess.Popen(
        [binary, "serve", folder, "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise SystemExit(f"no URL in the first line: {line!r}")
        port = int(match.group(1))
        while http_get(port, path) != 200:
            time.sleep(0.001)
        elapsed = (time.monotonic() - start) * 1000
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    print(f"{elapsed:.0f}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        print(probe.getsockname()[1])


def parse_wrk(file):
    text = open(file).read()
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.MULTILINE)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    total = re.search(r"^\s*(\d+) requests in ", text, re.MULTILINE)
    if not rate or not p99 or not total:
        raise SystemExit(f"cannot read wrk output:\n{text}")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    print(f"{float(rate.group(1)):.0f} {float(p99.group(1)) * scale:.3f} {errors.group(1) if errors else 0} {total.group(1)}")


def parse_wrk_socket_errors(file):
    text = open(file).read()
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    print(sum(int(group) for group in errors.groups()) if errors else 0)


def parse_h2load(file):
    text = open(file).read()
    rate = re.search(r"^finished in [\d.]+m?s, ([\d.]+) req/s", text, re.MULTILINE)
    counts = re.search(r"^requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored, (\d+) timeout", text, re.MULTILINE)
    codes = re.search(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text, re.MULTILINE)
    mean = re.search(r"^time for request:\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)\s", text, re.MULTILINE)
    if not rate or not counts or not codes or not mean:
        raise SystemExit(f"cannot read h2load output:\n{text}")
    succeeded, failed, errored, timeout = (int(group) for group in counts.groups())
    non_2xx = sum(int(group) for group in codes.groups()[1:])
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[mean.group(2)]
    print(f"{float(rate.group(1)):.0f} {float(mean.group(1)) * scale:.3f} {failed + errored + timeout + non_2xx} {succeeded}")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "generate":
        generate(int(sys.argv[2]), sys.argv[3])
    elif command == "first-request":
        first_request(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "free-port":
        free_port()
    elif command == "requests":
        requests(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    elif command == "wrk":
        parse_wrk(sys.argv[2])
    elif command == "wrk-socket-errors":
        parse_wrk_socket_errors(sys.argv[2])
    elif command == "h2load":
        parse_h2load(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
