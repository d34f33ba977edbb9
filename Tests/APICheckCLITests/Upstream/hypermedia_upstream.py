#!/usr/bin/env python3
"""A small hypermedia API written without APICheck, in Python's standard library only.

The recording tests record it through `apicheck record`, so the recorder is not tested only
against `apicheck serve`. It listens on 127.0.0.1 on a free port and prints
"Listening on http://127.0.0.1:PORT" as its first line. Its links are absolute, with its own origin.

/hostile/... misbehaves on purpose (a redirect to another host, a body over the proxy's limit, a
slow drip, a reset mid-body, invalid UTF-8, lying Content-Types, a slow large body).
"""
import gzip
import json
import socket
import struct
import sys
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png(width, height):
    """A real PNG (RGB gradient): bytes that are not UTF-8 and contain NULs."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes((x * 37 + y * 11) % 256 for x in range(width * 3)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


LOGO = png(16, 16)
HAL = "application/hal+json"


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "IndependentUpstream/1.0"

    def log_message(self, *args):
        pass

    def send(self, status, content_type, body, headers=()):
        body = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def head_only(self, content_type, length):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self):
        o = self.server.origin
        path, _, query = self.path.partition("?")
        if path == "/":
            root = {"_links": {
                "self": {"href": o + "/"},
                "items": {"href": o + "/items", "type": HAL},
                "search": {"href": o + "/items{?q}", "templated": True},
                "first-item": {"href": o + "/items/1"},
                "logo": {"href": o + "/logo.png", "type": "image/png"},
                "readme": {"href": o + "/readme.txt", "type": "text/plain"},
                "report": {"href": o + "/report", "type": "application/json"},  # served as text/csv: a finding
                "greeting": {"href": o + "/greeting"},
                "measurements": {"href": o + "/measurements"},
                "moved": {"href": o + "/old-home"},
                "gone": {"href": o + "/gone"},
            }, "name": "Independent upstream"}
            self.send(200, HAL, compact(root), [("Set-Cookie", "visit=v-8812; Path=/; HttpOnly"), ("Cache-Control", "no-cache")])
        elif path == "/items":
            page = 2 if query == "page=2" else 1
            links = {"self": {"href": o + "/items" + ("?page=2" if page == 2 else "")},
                     "item": [{"href": o + "/items/%d" % page}]}
            links["next" if page == 1 else "prev"] = {"href": o + "/items" + ("?page=2" if page == 1 else "")}
            headers = [("Link", '<%s/items?page=2>; rel="next"' % o)] if page == 1 else []
            self.send(200, HAL, compact({"_links": links, "page": page}), headers)
        elif path in ("/items/1", "/items/2"):
            number = int(path[-1])
            item = {"_links": {"self": {"href": o + path}, "collection": {"href": o + "/items"}},
                    "id": number, "title": "Item %d" % number, "price": 9.5 * number}
            self.send(200, HAL, compact(item))
        elif path == "/logo.png":
            self.send(200, "image/png", LOGO)
        elif path == "/readme.txt":
            self.send(200, "text/plain; charset=utf-8", "This API lists items at %s/items.\nStart at %s/ and follow links.\n" % (o, o))
        elif path == "/report":
            self.send(200, "text/csv", "id,title\n1,Item 1\n2,Item 2\n")
        elif path == "/greeting":
            self.send(200, "application/json; charset=utf-8", compact({"text": "Grüße aus Köln — 日本語 ✓ 🎉", "self": o + "/greeting"}))
        elif path == "/measurements":
            self.send(200, "application/json", '{"one":1.0,"thousand":1e3,"tiny":1E-7,"negativeZero":-0.0,"big":12345678901234567890123,"precise":0.10000000000000000555}')
        elif path == "/old-home":
            self.send(302, "text/plain", "Moved to %s/items/1\n" % o, [("Location", o + "/items/1")])
        elif path == "/gone":
            problem = {"type": o + "/problems/gone", "title": "Not Found", "status": 404, "detail": "Nothing lives here."}
            self.send(404, "application/problem+json", compact(problem))
        elif path.startswith("/hostile/"):
            self.hostile(path[len("/hostile/"):])
        else:
            self.send(404, "application/problem+json", compact({"title": "Not Found", "status": 404}))

    do_HEAD = do_GET

    def hostile(self, name):
        o = self.server.origin
        if name == "index":  # a root whose links lead to hostile answers (crawl's attacks)
            self.send(200, HAL, compact({"_links": {"self": {"href": o + "/hostile/index"}, "drip": {"href": o + "/hostile/drip"},
                                                    "chain": {"href": o + "/hostile/chain/1"}}}))
        elif name.startswith("chain/"):  # `next` links 300 deep
            number = int(name[len("chain/"):])
            links = {"self": {"href": o + "/hostile/" + name}}
            if number < 300:
                links["next"] = {"href": "%s/hostile/chain/%d" % (o, number + 1)}
            self.send(200, HAL, compact({"_links": links}))
        elif name == "elsewhere":
            self.send(302, None, b"", [("Location", "http://127.0.0.2:1/elsewhere")])
        elif name == "huge":  # 5 MiB, over `--max-upstream-body 1M`
            self.send(200, "application/octet-stream", b"0123456789abcdef" * (5 << 16))
        elif name == "drip":  # 1 byte every 0.5 s for 20 bytes, then the rest
            self.head_only("text/plain", 40)
            for _ in range(20):
                self.wfile.write(b"d")
                time.sleep(0.5)
            self.wfile.write(b"e" * 20)
        elif name == "reset":  # 10 of 1000 promised bytes, then a TCP reset
            self.head_only("application/json", 1000)
            self.wfile.write(b'{"part":12')
            time.sleep(0.1)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif name == "bad-utf8":
            self.send(200, "application/json; charset=utf-8", b'{"name":"caf\xe9 \xff\xfe","ok":true}')
        elif name == "bad-utf8-linked":  # not UTF-8, and names the origin
            self.send(200, "application/json", b'{"next":"' + self.server.origin.encode() + b'/items","name":"\xff"}')
        elif name == "gzip":  # compressed only when asked, as real servers do
            body = compact({"compressed": True, "next": self.server.origin + "/items", "pad": "z" * 2000}).encode()
            if "gzip" in self.headers.get("Accept-Encoding", ""):
                self.send(200, "application/json", gzip.compress(body), [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")])
            else:
                self.send(200, "application/json", body, [("Vary", "Accept-Encoding")])
        elif name == "png-as-text":
            self.send(200, "text/plain", LOGO)
        elif name == "json-as-html":
            self.send(200, "text/html", compact({"looks": "like JSON", "n": 1.50}))
        elif name.startswith("big-slow"):  # 768 KiB in 8 pieces, 0.1 s apart
            self.head_only("application/octet-stream", 8 * 96 * 1024)
            for index in range(8):
                self.wfile.write(bytes([65 + index]) * (96 * 1024))
                time.sleep(0.1)
        else:
            self.send(404, "application/problem+json", compact({"title": "Not Found", "status": 404}))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients (the proxy) hang up on hostile answers on purpose


def main():
    server = Server(("127.0.0.1", 0), Handler)
    server.origin = "http://127.0.0.1:%d" % server.server_address[1]
    print("Listening on " + server.origin, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
