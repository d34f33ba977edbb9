#!/usr/bin/env python3
"""A small bookshop API with planted bugs, for `apicheck probe` (issue 33) and Benchmarks/probe-trial.sh.

Python 3.11+ standard library only; binds 127.0.0.1 only; state in memory.

    python3 target.py --port N [--read-only] [--verbose]

prints `listening on http://127.0.0.1:PORT/` when ready (`--port 0` picks a free port).

Normal mode. The root (HAL-FORMS, `application/prs.hal-forms+json`) links four collections, each
advertising its write affordances in another format, and carries a search template for books:

  /authors  HAL-FORMS: `_templates.default` POST {name (required, regex ^[A-Za-z .'-]{1,80}$,
            maxLength 80), born (number, min 1000, max 2100), country (options inline FR/GB/US)};
            /authors/{id} has `_templates` default (PUT, same properties, values filled in) and
            delete (DELETE).
  /books    Siren (`application/vnd.siren+json`): action `add-book` POST application/json
            {title text, year number, authorIds text = "1" or "1,2"}; /books/{id} has action
            `delete-book` (DELETE). Listing `GET /books?page=P&size=S`, advertised by the root's
            templated link `books-page` (`/books{?page,size}`) and its HAL-FORMS template
            `searchBooks` (GET, target /books, page min 1, size min 1 max 100).
  /reviews  JSON:API (`application/vnd.api+json`): POST {"data": {"type": "reviews",
            "attributes": {"rating": 1..5 integer, "text": string}}} creates.
  /tags     HAL-FORMS, no bug: validates everything (400/415/422, 409 for a duplicate name,
            problem+json), 201 with a Location that resolves, 404 for unknown ids, DELETE works.

Planted bugs (and the finding that must report each):

  1 POST /authors (or PUT /authors/{id}) with a `name` another author already has: an unhandled
    "UNIQUE constraint failed" error, 500 text/html.                      -> probe-server-error
      curl -i -X POST localhost:PORT/authors -H 'Content-Type: application/json' -d '{"name":"Jane Austen"}'
  2 POST /books with `authorIds` as a JSON list (the field is advertised as text): the code
    calls .split on it, 500 text/html.                                     -> probe-server-error
      curl -i -X POST localhost:PORT/books -H 'Content-Type: application/json' -d '{"title":"T","year":2000,"authorIds":[1]}'
  3 GET /books?size=0 (or -1, or 101): the advertised range (searchBooks: size min 1, max 100)
    is not enforced, 200 instead of 400 (`page` out of range is rejected). -> probe-accepts-invalid
      curl -i 'localhost:PORT/books?size=0'
  4 POST /reviews answers 201 with Location (and data.links.self) /reviews/{id}, but a new
    review waits for moderation and GET of it answers 404.                 -> probe-created-resolves
      curl -si -X POST localhost:PORT/reviews -H 'Content-Type: application/vnd.api+json' \
        -d '{"data":{"type":"reviews","attributes":{"rating":4,"text":"Good"}}}' | grep -i '^location'
      curl -i localhost:PORT/reviews/3

What a prober has to do to see them: bug 1 takes two creates with the same valid name (the valid
case, then an edge case that varies another field and keeps that name; seeded names: Jane Austen,
Victor Hugo, Mark Twain), unless the prober deletes between them; bug 2 takes a list sent for a
text field; bug 3 is a finding only through the searchBooks template, whose `size` carries the
range (the `books-page` link has none, so 200 for size=0 through it alone is not a violation);
bug 4 takes a POST in `application/vnd.api+json` (anything else is a 415, as JSON:API requires).
A template's `contentType` and a Siren action's `type` are what the request is sent as; answers
come in the resource's own type (root link `type` hints are all correct).

Read-only mode (`--read-only`): the root (HAL) links /items (HAL-FORMS, items 1..5, an advertised
`_templates.default` POST that a probe without --unsafe must not send) and the templated link
/items/{id}. Every unsafe request is refused (403 for the advertised form, 405 elsewhere) and counted.

  5 GET /items/{id} for an unknown numeric id (0, -1, 6, huge): an unhandled KeyError, 500
    (non-numeric ids answer 404, as they should).                          -> probe-server-error
      curl -i localhost:PORT/items/6

Both modes: GET /__stats answers {"unsafe": n, "requests": n} (requests other than /__*, unsafe =
not GET/HEAD/OPTIONS); POST /__reset restores the initial state and zeroes the counters. Otherwise
every answer is meant to be correct: 404 problem+json for unknown paths and ids, 405 with Allow,
415 for another Content-Type than the one advertised, 400 for malformed JSON, 422 for invalid
fields. Any exception other than the planted ones is a bug of this file (printed on stderr).
"""
import argparse
import copy
import json
import math
import re
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

HAL = "application/hal+json"
HAL_FORMS = "application/prs.hal-forms+json"
SIREN = "application/vnd.siren+json"
JSONAPI = "application/vnd.api+json"
PROBLEM = "application/problem+json"
SAFE = {"GET", "HEAD", "OPTIONS"}
MAX_BODY = 1 << 20
NAME_PATTERN = re.compile(r"^[A-Za-z .'-]{1,80}$")
TAG_PATTERN = re.compile(r"^[a-z0-9-]{1,30}$")
COUNTRIES = ["FR", "GB", "US"]
COLOURS = ["red", "green", "blue"]
SERVER_ERROR_PAGE = ('<!doctype html>\n<html lang="en">\n<head><title>Server Error (500)</title></head>\n'
                     '<body>\n<h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n')

INITIAL = {
    "authors": {1: {"name": "Jane Austen", "born": 1775, "country": "GB"},
                2: {"name": "Victor Hugo", "born": 1802, "country": "FR"},
                3: {"name": "Mark Twain", "born": 1835, "country": "US"}},
    "books": {1: {"title": "Emma", "year": 1815, "authorIds": [1]},
              2: {"title": "Les Misérables", "year": 1862, "authorIds": [2]},
              3: {"title": "Adventures of Huckleberry Finn", "year": 1884, "authorIds": [3]}},
    "reviews": {1: {"rating": 5, "text": "A classic."}, 2: {"rating": 3, "text": "Long."}},
    "pending": {},
    "tags": {1: {"name": "classic", "colour": "blue", "weight": 5}, 2: {"name": "french", "colour": "red", "weight": 2}},
    "items": {n: {"name": f"Item {n}"} for n in range(1, 6)},
}


class IntegrityError(Exception):
    """What the (pretend) database raises on a unique constraint."""


class HTTPError(Exception):
    def __init__(self, status, detail, headers=None):
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers or {}


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.reset()

    def reset(self):
        with self.lock:
            self.data = copy.deepcopy(INITIAL)
            self.next_id = {name: max(rows, default=0) + 1 for name, rows in self.data.items()}
            self.requests = 0
            self.unsafe = 0

    def insert(self, table, row):
        self.data[table][self.next_id[table]] = row
        self.next_id[table] += 1
        return self.next_id[table] - 1

    def insert_author(self, row, replacing=None):
        # BUG 1: the UNIQUE index on authors.name is enforced here, and nobody catches it.
        if any(other["name"] == row["name"] for key, other in self.data["authors"].items() if key != replacing):
            raise IntegrityError("UNIQUE constraint failed: authors.name")
        if replacing is not None:
            self.data["authors"][replacing] = row
            return replacing
        return self.insert("authors", row)


# Validation helpers: each answers the cleaned value or raises a 422.

def invalid(field, why):
    raise HTTPError(422, f"{field}: {why}")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def text_field(body, field, pattern, max_length, required):
    if field not in body:
        if required:
            invalid(field, "required")
        return None
    value = body[field]
    if not isinstance(value, str):
        invalid(field, "must be a string")
    if len(value) > max_length:
        invalid(field, f"at most {max_length} characters")
    if not pattern.fullmatch(value):
        invalid(field, f"must match {pattern.pattern}")
    return value


def number_field(body, field, low, high, integer=False):
    if field not in body:
        return None
    value = body[field]
    if not is_number(value) or (integer and not isinstance(value, int)):
        invalid(field, "must be an integer" if integer else "must be a number")
    if low is not None and value < low or high is not None and value > high:
        invalid(field, f"must be between {low} and {high}")
    return value


def option_field(body, field, options):
    if field not in body:
        return None
    if body[field] not in options or not isinstance(body[field], str):
        invalid(field, f"must be one of {', '.join(options)}")
    return body[field]


def query_int(query, name, default, low=None):
    values = query.get(name)
    if not values:
        return default
    if len(values) > 1 or not re.fullmatch(r"-?[0-9]{1,30}", values[0]):
        raise HTTPError(400, f"{name} must be an integer")
    value = int(values[0])
    if low is not None and value < low:
        raise HTTPError(400, f"{name} must be at least {low}")
    return value


# Representations.

def author_properties(values=None):
    values = values or {}
    properties = [
        {"name": "name", "prompt": "Name", "type": "text", "required": True, "regex": NAME_PATTERN.pattern, "maxLength": 80},
        {"name": "born", "prompt": "Year of birth", "type": "number", "min": 1000, "max": 2100},
        {"name": "country", "prompt": "Country", "options": {"inline": COUNTRIES, "maxItems": 1}},
    ]
    for prop in properties:
        if values.get(prop["name"]) is not None:
            prop["value"] = values[prop["name"]]
    return properties


def tag_properties(values=None):
    values = values or {}
    properties = [
        {"name": "name", "prompt": "Name", "type": "text", "required": True, "regex": TAG_PATTERN.pattern,
         "minLength": 1, "maxLength": 30},
        {"name": "colour", "prompt": "Colour", "options": {"inline": COLOURS, "maxItems": 1}},
        {"name": "weight", "prompt": "Weight", "type": "number", "min": 0, "max": 10},
    ]
    for prop in properties:
        if values.get(prop["name"]) is not None:
            prop["value"] = values[prop["name"]]
    return properties


def hal_item(kind, key, row, properties):
    return dict({"id": key}, **row, _links={"self": {"href": f"/{kind}/{key}"}, "collection": {"href": f"/{kind}"}},
                _templates={"default": {"title": f"Update {kind[:-1]}", "method": "PUT", "contentType": "application/json",
                                        "properties": properties(row)},
                            "delete": {"title": f"Delete {kind[:-1]}", "method": "DELETE"}})


def hal_collection(kind, rows, properties):
    return {"_links": {"self": {"href": f"/{kind}"}, "item": [{"href": f"/{kind}/{key}"} for key in rows]},
            "_embedded": {kind: [dict({"id": key}, **row, _links={"self": {"href": f"/{kind}/{key}"}}) for key, row in rows.items()]},
            "count": len(rows),
            "_templates": {"default": {"title": f"Create {kind[:-1]}", "method": "POST", "contentType": "application/json",
                                       "properties": properties()}}}


def siren_book(key, row, embedded=False):
    entity = {"class": ["book"], "properties": dict({"id": key}, **row),
              "links": [{"rel": ["self"], "href": f"/books/{key}"}]
              + [{"rel": ["author"], "href": f"/authors/{author}", "type": HAL_FORMS} for author in row["authorIds"]]}
    if embedded:
        entity["rel"] = ["item"]
    else:
        entity["actions"] = [{"name": "delete-book", "title": "Delete the book", "method": "DELETE", "href": f"/books/{key}"}]
        entity["links"].append({"rel": ["collection"], "href": "/books", "type": SIREN})
    return entity


def jsonapi_review(key, row):
    return {"type": "reviews", "id": str(key), "attributes": dict(row), "links": {"self": f"/reviews/{key}"}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "probe-target/1.0"
    store: Store
    read_only = False
    verbose = False

    def log_message(self, format, *args):
        if self.verbose:
            sys.stderr.write("%s\n" % (format % args))

    def __getattr__(self, name):
        # Every method, known or not, goes through `dispatch` (405 rather than http.server's 501).
        if name.startswith("do_"):
            return self.dispatch
        raise AttributeError(name)

    # Plumbing.

    def send(self, status, body=None, content_type="application/json", headers=None):
        data = b""
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", content_type)
        if status != 204:
            self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def problem(self, status, detail, headers=None):
        titles = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
                  411: "Length Required", 413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content"}
        title = titles.get(status, "Error")
        if self.jsonapi:
            self.send(status, {"errors": [{"status": str(status), "title": title, "detail": detail}]}, JSONAPI, headers)
        else:
            self.send(status, {"type": "about:blank", "title": title, "status": status, "detail": detail}, PROBLEM, headers)

    def absolute(self, path):
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def read_raw_body(self):
        """Reads the whole body of every request, so that the connection stays usable whatever the answer."""
        self.raw = b""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            self.close_connection = True
            raise HTTPError(411, "send a Content-Length")
        length = (self.headers.get("Content-Length") or "0").strip()
        if not length.isdigit():
            self.close_connection = True
            raise HTTPError(400, "invalid Content-Length")
        if int(length) > MAX_BODY:
            self.close_connection = True
            raise HTTPError(413, f"at most {MAX_BODY} bytes")
        self.raw = self.rfile.read(int(length)) if int(length) else b""

    def read_body(self, accepted):
        essence = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if essence != accepted:
            raise HTTPError(415, f"send {accepted}")
        try:
            body = json.loads(self.raw.decode("utf-8"), parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
        except Exception:
            raise HTTPError(400, "the body is not JSON")
        if not isinstance(body, dict):
            raise HTTPError(422, "the body must be a JSON object")
        return body

    def dispatch(self):
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        self.jsonapi = path == "/reviews" or path.startswith("/reviews/")  # errors as JSON:API error documents
        query = parse_qs(parts.query, keep_blank_values=True)
        method = self.command
        store = self.store
        if not path.startswith("/__"):
            with store.lock:
                store.requests += 1
                store.unsafe += method not in SAFE
        try:
            self.read_raw_body()
            if path == "/__stats" and method in ("GET", "HEAD"):
                with store.lock:
                    return self.send(200, {"unsafe": store.unsafe, "requests": store.requests})
            if path == "/__reset" and method == "POST":
                store.reset()
                return self.send(204)
            # Read-only: /items advertises (and allows) its create form, refused with 403 by
            # policy, so that a crawl sees no broken affordance; every other write is a 405.
            if self.read_only and method not in SAFE and path != "/items":
                raise HTTPError(405, "this service is read-only", {"Allow": "GET, HEAD, OPTIONS"})
            routes = self.read_only_routes() if self.read_only else self.routes()
            for pattern, methods in routes:
                match = re.fullmatch(pattern, path)
                if not match:
                    continue
                allowed = ", ".join(sorted(set(methods) | {"HEAD", "OPTIONS"}))
                if method == "OPTIONS":
                    return self.send(204, headers={"Allow": allowed})
                handler = methods.get("GET" if method == "HEAD" else method)
                if handler is None:
                    raise HTTPError(405, f"{method} is not allowed here", {"Allow": allowed})
                with store.lock:
                    return handler(query, *match.groups())
            raise HTTPError(404, f"no resource at {path}")
        except HTTPError as error:
            self.problem(error.status, error.detail, error.headers)
        except Exception as error:
            sys.stderr.write(f"500 on {method} {self.path}: {type(error).__name__}: {error}\n")
            if not isinstance(error, (IntegrityError, AttributeError, KeyError)):  # not a planted one
                traceback.print_exc()
            self.send(500, SERVER_ERROR_PAGE, "text/html; charset=utf-8")

    # Normal mode.

    def routes(self):
        return [
            (r"/", {"GET": self.get_root}),
            (r"/authors", {"GET": self.get_authors, "POST": self.post_author}),
            (r"/authors/([^/]+)", {"GET": self.get_author, "PUT": self.put_author, "DELETE": self.delete_author}),
            (r"/books", {"GET": self.get_books, "POST": self.post_book}),
            (r"/books/([^/]+)", {"GET": self.get_book, "DELETE": self.delete_book}),
            (r"/reviews", {"GET": self.get_reviews, "POST": self.post_review}),
            (r"/reviews/([^/]+)", {"GET": self.get_review}),
            (r"/tags", {"GET": self.get_tags, "POST": self.post_tag}),
            (r"/tags/([^/]+)", {"GET": self.get_tag, "PUT": self.put_tag, "DELETE": self.delete_tag}),
        ]

    def get_root(self, query):
        self.send(200, {
            "title": "Bookshop",
            "_links": {
                "self": {"href": "/"},
                "authors": {"href": "/authors", "type": HAL_FORMS},
                "books": {"href": "/books", "type": SIREN},
                "reviews": {"href": "/reviews", "type": JSONAPI},
                "tags": {"href": "/tags", "type": HAL_FORMS},
                "author": {"href": "/authors/{id}", "templated": True, "type": HAL_FORMS},
                "book": {"href": "/books/{id}", "templated": True, "type": SIREN},
                "review": {"href": "/reviews/{id}", "templated": True, "type": JSONAPI},
                "tag": {"href": "/tags/{id}", "templated": True, "type": HAL_FORMS},
                "books-page": {"href": "/books{?page,size}", "templated": True, "type": SIREN},
            },
            "_templates": {"searchBooks": {
                "title": "List books, a page at a time", "method": "GET", "target": "/books",
                "properties": [{"name": "page", "prompt": "Page", "type": "number", "min": 1},
                               {"name": "size", "prompt": "Books per page", "type": "number", "min": 1, "max": 100}]}},
        }, HAL_FORMS)

    def key(self, table, text):
        if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) not in self.store.data[table]:
            raise HTTPError(404, f"no {table[:-1]} {text}")
        return int(text)

    def valid_author(self, body):
        row = {"name": text_field(body, "name", NAME_PATTERN, 80, required=True),
               "born": number_field(body, "born", 1000, 2100), "country": option_field(body, "country", COUNTRIES)}
        return {name: value for name, value in row.items() if value is not None}

    def get_authors(self, query):
        self.send(200, hal_collection("authors", self.store.data["authors"], author_properties), HAL_FORMS)

    def post_author(self, query):
        row = self.valid_author(self.read_body("application/json"))
        key = self.store.insert_author(row)
        self.send(201, hal_item("authors", key, row, author_properties), HAL_FORMS, {"Location": self.absolute(f"/authors/{key}")})

    def get_author(self, query, text):
        key = self.key("authors", text)
        self.send(200, hal_item("authors", key, self.store.data["authors"][key], author_properties), HAL_FORMS)

    def put_author(self, query, text):
        key = self.key("authors", text)
        row = self.valid_author(self.read_body("application/json"))
        self.store.insert_author(row, replacing=key)
        self.send(200, hal_item("authors", key, row, author_properties), HAL_FORMS)

    def delete_author(self, query, text):
        del self.store.data["authors"][self.key("authors", text)]
        self.send(204)

    def get_books(self, query):
        page = query_int(query, "page", 1, low=1)
        size = query_int(query, "size", 10)  # BUG 3: size is never checked against 1...100
        books = list(self.store.data["books"].items())
        start = (page - 1) * size
        shown = books[start:start + size]
        # self is the URL asked for (/books, or /books?page=2&size=10), as written.
        links = [{"rel": ["self"], "href": self.path}]
        if 0 < size and start + size < len(books):
            links.append({"rel": ["next"], "href": f"/books?page={page + 1}&size={size}"})
        self.send(200, {
            "class": ["collection", "books"], "properties": {"count": len(books), "page": page, "size": size},
            "entities": [siren_book(key, row, embedded=True) for key, row in shown],
            "actions": [{"name": "add-book", "title": "Add a book", "method": "POST", "href": "/books", "type": "application/json",
                         "fields": [{"name": "title", "type": "text", "title": "Title"},
                                    {"name": "year", "type": "number", "title": "Year of publication"},
                                    {"name": "authorIds", "type": "text", "title": "Author ids (1 or 1,2)", "value": "1"}]}],
            "links": links,
        }, SIREN)

    def post_book(self, query):
        body = self.read_body("application/json")
        title = body.get("title")
        if not isinstance(title, str) or not title.strip() or len(title) > 200:
            invalid("title", "a non-empty string of at most 200 characters is required")
        year = body.get("year")
        if year is not None and (not is_number(year) or year != int(year) or abs(year) > 9999):
            invalid("year", "must be a whole number")
        raw = body.get("authorIds", "")
        if raw is None or isinstance(raw, (bool, int, float, dict)):
            invalid("authorIds", "must be a text of ids separated by commas")
        author_ids = []
        for part in raw.split(","):  # BUG 2: a list gets here too, and lists have no split
            part = part.strip()
            if not part:
                continue
            if not re.fullmatch(r"[0-9]{1,9}", part) or int(part) not in self.store.data["authors"]:
                invalid("authorIds", f"no author {part}")
            author_ids.append(int(part))
        row = {"title": title, "year": None if year is None else int(year), "authorIds": author_ids}
        key = self.store.insert("books", row)
        self.send(201, siren_book(key, row), SIREN, {"Location": self.absolute(f"/books/{key}")})

    def get_book(self, query, text):
        key = self.key("books", text)
        self.send(200, siren_book(key, self.store.data["books"][key]), SIREN)

    def delete_book(self, query, text):
        del self.store.data["books"][self.key("books", text)]
        self.send(204)

    def get_reviews(self, query):
        self.send(200, {"data": [jsonapi_review(key, row) for key, row in self.store.data["reviews"].items()],
                        "links": {"self": "/reviews"}}, JSONAPI)

    def post_review(self, query):
        body = self.read_body(JSONAPI)
        data = body.get("data")
        if not isinstance(data, dict):
            invalid("data", "a resource object is required")
        if data.get("type") != "reviews":
            raise HTTPError(409, "the resource type must be 'reviews'")
        if "id" in data:
            raise HTTPError(403, "client-generated ids are not supported")
        attributes = data.get("attributes")
        if not isinstance(attributes, dict):
            invalid("data.attributes", "an object is required")
        rating = attributes.get("rating")
        if not is_number(rating) or rating != int(rating) or not 1 <= rating <= 5:
            invalid("rating", "an integer from 1 to 5 is required")
        rating = int(rating)
        text = attributes.get("text", "")
        if not isinstance(text, str) or len(text) > 2000:
            invalid("text", "a string of at most 2000 characters")
        # BUG 4: new reviews wait for moderation, but the answer points at where they will be once published.
        key = self.store.insert("reviews", {"rating": rating, "text": text})
        self.store.data["pending"][key] = self.store.data["reviews"].pop(key)
        self.send(201, {"data": jsonapi_review(key, self.store.data["pending"][key])}, JSONAPI,
                  {"Location": self.absolute(f"/reviews/{key}")})

    def get_review(self, query, text):
        key = self.key("reviews", text)
        self.send(200, {"data": jsonapi_review(key, self.store.data["reviews"][key]), "links": {"self": f"/reviews/{key}"}}, JSONAPI)

    def valid_tag(self, body, replacing=None):
        row = {"name": text_field(body, "name", TAG_PATTERN, 30, required=True),
               "colour": option_field(body, "colour", COLOURS), "weight": number_field(body, "weight", 0, 10)}
        if any(other["name"] == row["name"] for key, other in self.store.data["tags"].items() if key != replacing):
            raise HTTPError(409, f"there is already a tag named {row['name']}")
        return {name: value for name, value in row.items() if value is not None}

    def get_tags(self, query):
        self.send(200, hal_collection("tags", self.store.data["tags"], tag_properties), HAL_FORMS)

    def post_tag(self, query):
        row = self.valid_tag(self.read_body("application/json"))
        key = self.store.insert("tags", row)
        self.send(201, hal_item("tags", key, row, tag_properties), HAL_FORMS, {"Location": self.absolute(f"/tags/{key}")})

    def get_tag(self, query, text):
        key = self.key("tags", text)
        self.send(200, hal_item("tags", key, self.store.data["tags"][key], tag_properties), HAL_FORMS)

    def put_tag(self, query, text):
        key = self.key("tags", text)
        row = self.valid_tag(self.read_body("application/json"), replacing=key)
        self.store.data["tags"][key] = row
        self.send(200, hal_item("tags", key, row, tag_properties), HAL_FORMS)

    def delete_tag(self, query, text):
        del self.store.data["tags"][self.key("tags", text)]
        self.send(204)

    # Read-only mode.

    def read_only_routes(self):
        return [
            (r"/", {"GET": self.get_read_only_root}),
            (r"/items", {"GET": self.get_items, "POST": self.refuse_write}),
            (r"/items/([^/]+)", {"GET": self.get_item}),
        ]

    def refuse_write(self, query):
        raise HTTPError(403, "this demo is read-only: its create form is shown, never carried out")

    def get_read_only_root(self, query):
        self.send(200, {"title": "Items (read-only)",
                        "_links": {"self": {"href": "/"}, "items": {"href": "/items", "type": HAL_FORMS},
                                   "item": {"href": "/items/{id}", "templated": True, "type": HAL}}}, HAL)

    def get_items(self, query):
        items = self.store.data["items"]
        self.send(200, {
            "_links": {"self": {"href": "/items"}, "item": [{"href": f"/items/{key}"} for key in items],
                       "find": {"href": "/items/{id}", "templated": True}},
            "_embedded": {"items": [{"id": key, "name": row["name"], "_links": {"self": {"href": f"/items/{key}"}}}
                                    for key, row in items.items()]},
            "_templates": {"default": {"title": "Create item", "method": "POST", "contentType": "application/json",
                                       "properties": [{"name": "name", "type": "text", "required": True, "maxLength": 40}]}},
        }, HAL_FORMS)

    def get_item(self, query, text):
        if not re.fullmatch(r"-?[0-9]{1,100}", text):
            raise HTTPError(404, f"no item {text}")
        row = self.store.data["items"][int(text)]  # BUG 5: an unknown numeric id is a KeyError, a 500
        self.send(200, {"id": int(text), "name": row["name"], "_links": {"self": {"href": f"/items/{text}"},
                                                                         "collection": {"href": "/items"}}}, HAL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--read-only", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="log every request and every 500 on stderr")
    arguments = parser.parse_args()
    Handler.store = Store()
    Handler.read_only = arguments.read_only
    Handler.verbose = arguments.verbose
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
