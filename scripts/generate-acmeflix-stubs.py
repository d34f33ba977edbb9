#!/usr/bin/env python3
"""Generate the AcmeFlix stub set (stubs/acmeflix) from the AcmeFlix fixture data.

AcmeFlix is a small demo hypermedia API (an Express service on http://localhost:3000) with
realistic contract defects. This script rebuilds a faithful, static copy of its answers as
APICheck stub files, partly XML (PEWire-Control compatible) and partly JSON, so that the set
is reproducible:

    python3 scripts/generate-acmeflix-stubs.py [FIXTURES_DIR] [--output DIR]

FIXTURES_DIR holds movies.json and cart.json (default: ../shared/fixtures/acmeflix relative
to the repository root); DIR defaults to stubs/acmeflix in the repository. Only the Python 3
standard library is needed. The JPEG posters the poster stubs point to are made by
scripts/generate-posters.py (which needs Pillow); this script only warns if they are missing.

Faithfulness: JSON bodies are what the service sends (compact JSON.stringify output, keys in
the service's order), including its defects; see the README.md written next to the stubs.
After writing, the script checks its own output (every JSON file parses, every XML file is
well-formed, every JSON body inside CDATA parses, every movie appears) and exits 1 if not.
"""

import argparse
import json
import os
import sys
import xml.dom.minidom
from xml.sax.saxutils import escape, quoteattr

ORIGIN = "http://localhost:3000"
JSON_TYPE = "application/json; charset=utf-8"
POSTER_TYPE = "image/jpg"  # sic: what the service sends and declares on movie pages

# Declared (link) types, exactly as the service writes them.
LIBRARY_TYPE = "vnd.acmeflix.api.library+json"
CART_TYPE = "vnd.acmeflix.api.cart+json"
MOVIE_TYPE = "vnd.acmeflix.api.movie+json"
MOVIES_TYPE = "vnd.acmeflix.api.movies+json"  # sic: plural, used by the library and the cart
LIBRARY_POSTER_TYPE = "image/jpeg"  # the library and the cart declare image/jpeg

# Posters the service cannot serve: GET /poster/{id} answers 500 with an empty body.
BROKEN_POSTERS = {"10CFL"}
# Movies whose page carries an untyped duplicate `self` link before the typed one (the service
# does this for pLDhp, its one out-of-stock movie; named explicitly rather than guessed from stock).
DUPLICATE_SELF = {"pLDhp"}

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" ?>\n'


# MARK: - Representations (what the service answers)


def url(path):
    return ORIGIN + path


def compact(value):
    """JSON.stringify(value): no spaces, non-ASCII kept as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def poster_link(movie_id, declared_type):
    return {"rel": "poster", "href": url("/poster/" + movie_id), "type": declared_type}


def library_item(movie):
    """A movie as the library lists it."""
    movie_id = movie["id"]
    return {
        "name": movie["name"],
        "year": movie["year"],
        "director": movie["director"],
        "id": movie_id,
        "_links": [
            {"rel": "self", "href": url("/movies/" + movie_id), "type": MOVIES_TYPE},
            poster_link(movie_id, LIBRARY_POSTER_TYPE),
        ],
    }


def cart_item(movie, cart_id):
    """A movie as the cart lists it: the library shape plus a `delete` link."""
    item = library_item(movie)
    item["_links"].append(
        {
            "rel": "delete",
            "href": url("/cart/" + cart_id),
            "method": "DELETE",
            "type": CART_TYPE,
            "parameters": {"movieId": movie["id"]},
        }
    )
    return item


def movie_page(movie, cart_id):
    """GET /movies/{id}."""
    movie_id = movie["id"]
    href = url("/movies/" + movie_id)
    links = []
    if movie_id in DUPLICATE_SELF:
        links.append({"rel": "self", "href": href})  # the defect: an untyped duplicate self
    links.append({"rel": "self", "href": href, "type": MOVIE_TYPE})
    if movie["stock"] > 0:
        links.append(
            {
                "rel": "rent",
                "href": url("/cart/" + cart_id),
                "type": CART_TYPE,
                "method": "PUT",
                "parameters": {"movieId": movie_id},
            }
        )
    if movie["ratingEnabled"]:
        links.append(
            {
                "rel": "rate",
                "href": href,
                "type": MOVIE_TYPE,
                "method": "PUT",
                "parameters": {"rating": "{rating}"},
            }
        )
    links.append(poster_link(movie_id, POSTER_TYPE))
    return {
        "id": movie_id,
        "name": movie["name"],
        "year": movie["year"],
        "director": movie["director"],
        "rating": movie["rating"],
        "ratingEnabled": movie["ratingEnabled"],
        "synopsis": movie["synopsis"],
        "stock": movie["stock"],
        "_links": links,
    }


def library(movies):
    """GET /library."""
    return {
        "count": len(movies),
        "movies": [library_item(m) for m in movies],
        "_links": [{"rel": "self", "href": url("/library"), "type": LIBRARY_TYPE}],
    }


def cart(cart_id, movies):
    """GET|PUT|DELETE /cart/{id}: the cart holding `movies`."""
    href = url("/cart/" + cart_id)
    return {
        "count": len(movies),
        "items": [cart_item(m, cart_id) for m in movies],
        "_links": [
            {"rel": "self", "href": href},
            {
                "rel": "add",
                "href": href,
                "type": CART_TYPE,
                "method": "PUT",
                "parameters": {"movieId": "{movieId}"},
            },
        ],
    }


def root(cart_id, cart_movies):
    """GET /: the cart link only while the cart holds movies."""
    links = [
        {"rel": "self", "href": url("/")},
        {"rel": "library", "href": url("/library"), "type": LIBRARY_TYPE},
    ]
    if cart_movies:
        links.append({"rel": "cart", "href": url("/cart/" + cart_id), "type": CART_TYPE})
    return {"_links": links}


# MARK: - Stub files


def cdata(text):
    # A body never holds "]]>" here, but split it safely if it ever does.
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def xml_stub(status, name, method, path, description, headers=(), body_json=None, body=None,
             body_file=None, request_json=(), indent=""):
    """One <http-response> element. body: text for <body>; body_json: a value to serialise
    compactly; body_file: a path for <body-file>; none of them: an empty <body/>."""
    i = indent
    lines = [f'{i}<http-response statusCode="{status}">']
    lines.append(
        f"{i}  <annotation name={quoteattr(name)} uri-path={quoteattr(path)} "
        f"request-method={quoteattr(method)}>{escape(description)}</annotation>"
    )
    if request_json:
        lines.append(f"{i}  <request>")
        for pointer, equals in request_json:
            lines.append(f"{i}    <body-json path={quoteattr(pointer)} equals={quoteattr(equals)} />")
        lines.append(f"{i}  </request>")
    if headers:
        lines.append(f"{i}  <headers>")
        for header_name, value in headers:
            lines.append(f"{i}    <header name={quoteattr(header_name)} value={quoteattr(value)} />")
        lines.append(f"{i}  </headers>")
    if body_json is not None:
        body = compact(body_json)
    if body is not None:
        lines.append(f"{i}  <body>{cdata(body)}</body>")
    elif body_file is not None:
        lines.append(f"{i}  <body-file path={quoteattr(body_file)} />")
    else:
        lines.append(f"{i}  <body/>")
    lines.append(f"{i}</http-response>")
    return "\n".join(lines)


def xml_file(stub):
    return XML_DECLARATION + stub + "\n"


def xml_files(stubs, comment=None):
    parts = [XML_DECLARATION]
    if comment:
        parts.append(f"<!-- {escape(comment)} -->\n")
    parts.append("<http-responses>\n")
    parts.append("\n\n".join(stubs))
    parts.append("\n</http-responses>\n")
    return "".join(parts)


def json_stub(name, description, method, path, body, status=200):
    return {
        "name": name,
        "description": description,
        "request": {"method": method, "path": path},
        "response": {"status": status, "headers": {"Content-Type": JSON_TYPE}, "body": body},
    }


MOVIE_TEMPLATE = "movie.json.mustache"


def movie_template():
    """movie_page as a Mustache template: compact JSON on one line, as the service sends it."""
    self_href = "{{baseURL}}/movies/{{id}}"
    return "".join([
        '{"id":"{{id}}","name":"{{name}}","year":{{year}},"director":"{{director}}","rating":{{rating}},',
        '"ratingEnabled":{{ratingEnabled}},"synopsis":"{{synopsis}}","stock":{{stock}},"_links":[',
        '{{#untypedSelf}}{"rel":"self","href":"' + self_href + '"},{{/untypedSelf}}',
        '{"rel":"self","href":"' + self_href + '","type":"' + MOVIE_TYPE + '"}',
        '{{#inStock}},{"rel":"rent","href":"{{baseURL}}/cart/{{cartId}}","type":"' + CART_TYPE + '",',
        '"method":"PUT","parameters":{"movieId":"{{id}}"}}{{/inStock}}',
        '{{#ratingEnabled}},{"rel":"rate","href":"' + self_href + '","type":"' + MOVIE_TYPE + '",',
        '"method":"PUT","parameters":{"rating":"{rating}"}}{{/ratingEnabled}}',
        ',{"rel":"poster","href":"{{baseURL}}/poster/{{id}}","type":"' + POSTER_TYPE + '"}]}',
    ])


def templated_movie_stub(name, description, method, movie, cart_id):
    variables = {key: movie[key] for key in
                 ("id", "name", "year", "director", "rating", "ratingEnabled", "synopsis", "stock")}
    variables.update({"inStock": movie["stock"] > 0, "untypedSelf": movie["id"] in DUPLICATE_SELF,
                      "cartId": cart_id})
    return {
        "name": name,
        "description": description,
        "request": {"method": method, "path": "/movies/" + movie["id"]},
        "response": {"status": 200, "headers": {"Content-Type": JSON_TYPE},
                     "template": {"path": MOVIE_TEMPLATE, "variables": variables}},
    }


def json_text(value):
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def title(movie):
    return f'{movie["name"]} ({movie["year"]}, {movie["director"]})'


# MARK: - README


def readme(movies, cart_id, cart_movies, rentable, rateable, served_posters):
    cart_names = ", ".join(f'{m["id"]} ({m["name"]})' for m in cart_movies) or "nothing"
    rows = []
    for m in movies:
        flags = []
        if m["stock"] <= 0:
            flags.append("out of stock (no `rent`)")
        if m["id"] in DUPLICATE_SELF:
            flags.append("duplicate `self`")
        if m["id"] in BROKEN_POSTERS:
            flags.append("poster answers 500")
        rows.append(
            f'| `{m["id"]}` | {m["name"]} | {m["year"]} | {m["stock"]} | '
            f'{"yes" if m["ratingEnabled"] else "no"} | {"; ".join(flags) or "-"} |'
        )
    table = "\n".join(rows)
    broken = ", ".join(f'`GET /poster/{m["id"]}` ({m["name"]})' for m in movies if m["id"] in BROKEN_POSTERS)
    dup = ", ".join(f'`{m["id"]}` ({m["name"]})' for m in movies if m["id"] in DUPLICATE_SELF)
    return f"""# AcmeFlix stub set

A complete, static copy of the **AcmeFlix** demo hypermedia API (an Express service on
`http://localhost:3000`), as APICheck stub files. It is the project's realistic example: a real
API with real contract defects, kept on purpose so that `apicheck crawl` has something to find.

Generated, do not edit by hand: the data is `../shared/fixtures/acmeflix/movies.json` (outside
the repository; {len(movies)} movies) and `cart.json` (cart `{cart_id}` holding {cart_names}).

```sh
python3 scripts/generate-acmeflix-stubs.py          # the XML and JSON stub files, this README
/tmp/venv/bin/python scripts/generate-posters.py    # the JPEG posters (needs Pillow)
```

Serve it with `apicheck serve stubs/acmeflix --port 3000` so that the absolute hrefs
(`http://localhost:3000/...`) point back at the stubs, or use it in-process with the interceptor.

## Endpoints

| Request | File | Format | Answer |
|---|---|---|---|
| `GET /` | `root.xml` | XML | links `self`, `library`, `cart` (the cart holds movies) |
| `GET /library` | `library.xml` | XML | all {len(movies)} movies with `self` and `poster` links |
| `GET /movies/{{id}}` | `movies/movies.json` | JSON, `{{"stubs": [...]}}`, templated | one stub per movie ({len(movies)}), all rendered by `movies/{MOVIE_TEMPLATE}` |
| `PUT /movies/{{id}}` | `movies/rate.json` | JSON, `{{"stubs": [...]}}`, templated | {len(rateable)} rateable movies; matched on method + path only; answers the movie as `GET` does |
| `GET /cart/{cart_id}` | `cart/cart.xml` | XML | the cart: {len(cart_movies)} item{"" if len(cart_movies) == 1 else "s"}, a `delete` link per item, an `add` link |
| `PUT /cart/{cart_id}` | `cart/rent.xml` | XML, `<http-responses>` | {len(rentable)} stubs, one per movie in stock, matched on the body's `/movieId`; answers the cart holding {", ".join(m["id"] for m in cart_movies)} and that movie |
| `DELETE /cart/{cart_id}` | `cart/delete.xml` | XML | body `{{"movieId":"{cart_movies[0]["id"] if cart_movies else ""}"}}`: the empty cart |
| `GET /poster/{{id}}` | `posters/posters.xml` | XML, `<http-responses>` | {len(served_posters)} `image/jpg` posters from `posters/<id>.jpg`, and a 500 for {", ".join(sorted(BROKEN_POSTERS))} |

Every JSON answer is compact (`JSON.stringify`, keys in the service's order) and served as
`{JSON_TYPE}`; posters are served as `{POSTER_TYPE}`. Poster `body-file` paths are relative
to `posters/` (the stub file's own folder), so `posters/posters.xml` also loads on its own.

The movie representation is written once, as the Mustache template `movies/{MOVIE_TEMPLATE}`
(the service's shape: the untyped duplicate `self`, `rent` only when in stock, `rate` only when
rating is enabled); each movie stub carries only its data as template variables. Its hrefs are
`{{{{baseURL}}}}`, the origin serving the stub, so at `http://localhost:3000` the output is
byte-for-byte the service's (`Tests/APICheckInterceptorTests/Fixtures/acmeflix-movies` holds
the service's answers and a test compares), and served anywhere else the movie links point back at
whoever serves them.

The set is stateless: `PUT` and `DELETE` on the cart answer the resulting cart, but later
`GET`s still show the initial cart (and `GET /` keeps its `cart` link). Requests the service
would answer but the set does not cover (renting an out-of-stock movie, renting a movie twice,
removing a movie that is not in the cart, unknown ids) are unmatched and get APICheck's
near-miss 404.

## Movies

| id | name | year | stock | rating enabled | notes |
|---|---|---|---|---|---|
{table}

The data is kept verbatim, typos included ("Stanley Kuberick", "Reservior Dogs",
"Quentin Taratino", Inception dated 2008, `TUSP8` named "The Great Dictator" with the
synopsis, year and director of The Usual Suspects).

## Profiles (the contract for bodies)

`apicheck.json` maps each AcmeFlix vendor type to a JSON Schema (2020-12) in `schemas/`, written
by hand from the article that describes the service (the contract), not generated: this script
neither writes nor removes them, and the stub loader skips `apicheck.json` and `schemas/`.
`crawl --stubs`, `serve` and `lint` read them; the `body-schema` rule checks every body of those
types against its schema (the served type's profile, else the declared one's).

| Type | Schema | Asserts |
|---|---|---|
| `application/vnd.acmeflix.api.library+json` | `schemas/library.json` | `count` (integer ≥ 0), `movies` (movie summaries: `id` string, `name`, `year` integer, `director`, `_links`), `_links` |
| `application/vnd.acmeflix.api.movie+json` | `schemas/movie.json` | a summary plus `rating` (number) and `synopsis`; optional `ratingEnabled` (boolean) and `stock` (integer ≥ 0), kept "for indication" only |
| `application/vnd.acmeflix.api.movies+json` | `schemas/movies.json` | the same as `movie.json`: the library's and the cart's type for the link to a movie's details |
| `application/vnd.acmeflix.api.cart+json` | `schemas/cart.json` | `count` (integer ≥ 0), `items` (movie summaries), `_links` |

`schemas/links.json` holds the link they share (`rel` and `href` (a URI) required; `type`; `method`
one of GET, PUT, POST, DELETE; `parameters` an object) and `_links` (an array of links with a
`self`). The root declares no type, so it has no profile.

Every body of this set conforms to its profile, so `body-schema` reports nothing here: AcmeFlix's
defects are in its types and links, not in the shape of its bodies. To see the rule at work, break
a body (`"year": "1980"` in `library.xml`) and run `apicheck lint stubs/acmeflix`.

## Deliberate defects (what a contract check should report)

1. **Declared types without a top-level type**: links declare `vnd.acmeflix.api.library+json`,
   `vnd.acmeflix.api.movie+json`, `vnd.acmeflix.api.cart+json`, `vnd.acmeflix.api.movies+json`
   instead of `application/vnd.acmeflix.api.…+json` (`type-syntax`).
2. **Served type differs from the declared type**: every JSON resource is served as
   `application/json; charset=utf-8`, never as the declared vendor type (`type-matches`).
3. **`movies+json` vs `movie+json`**: the library and the cart link to a movie with
   `vnd.acmeflix.api.movies+json` (plural), the movie's own `self` says `vnd.acmeflix.api.movie+json`.
4. **`image/jpg`**: movie pages declare `poster` as `image/jpg` and the service serves posters as
   `image/jpg`, which is not a registered type (`image/jpeg`); the library and the cart declare the
   same posters as `image/jpeg` (`type-syntax`, and the served type disagrees with the library's).
5. **Duplicate `self`**: the out-of-stock movie {dup} has two `self` links, first an
   untyped one, then the typed one (`duplicate-rel`).
6. **Broken poster**: {broken} answers 500 with an empty body,
   although the library and the movie's page link to it (`link-resolves`).
7. **Fixed origin**: the root, library, cart and poster hrefs are absolute on `http://localhost:3000`,
   whatever host or port serves the set (the movie pages use `{{{{baseURL}}}}`); serve the set with
   `apicheck serve --rewrite-origin http://localhost:3000` to have them point at the server.
8. Minor: the root's and the cart's `self` links declare no type at all.

### The report: 13 defects

`apicheck crawl http://localhost:3000/ --stubs stubs/acmeflix` prints one entry per defect (the
findings of one rule with the same problem at the same place): 116 findings, 13 defects. These are
its entry lines, in order; `Tests/APICheckCrawlerTests/FixtureDefectTests.swift` checks that the
crawl reports exactly these:

```text
error[type-matches] declared vnd.acmeflix.api.movies+json, served application/json; charset=utf-8: serve the declared type, or declare the one served (13 links)
error[type-matches] declared image/jpeg, served image/jpg: serve the declared type, or declare the one served (12 links)
error[type-matches] declared vnd.acmeflix.api.movie+json, served application/json; charset=utf-8: serve the declared type, or declare the one served (12 links)
error[link-resolves] GET poster links answer 500: /poster/{id} must answer 2xx (2 links)
error[type-matches] declared vnd.acmeflix.api.library+json, served application/json; charset=utf-8: serve the declared type, or declare the one served (2 links)
error[type-matches] declared vnd.acmeflix.api.cart+json, served application/json; charset=utf-8: serve the declared type, or declare the one served (1 link)
warning[type-syntax] the declared type 'vnd.acmeflix.api.movie+json' lacks a top-level type: write 'application/vnd.acmeflix.api.movie+json' (21 links)
warning[type-syntax] the declared type 'vnd.acmeflix.api.cart+json' lacks a top-level type: write 'application/vnd.acmeflix.api.cart+json' (14 links)
warning[type-syntax] the declared type 'vnd.acmeflix.api.movies+json' lacks a top-level type: write 'application/vnd.acmeflix.api.movies+json' (13 links)
warning[type-syntax] the declared type 'image/jpg' is not a registered media type: use 'image/jpeg' (12 links)
warning[type-syntax] the served type 'image/jpg' is not a registered media type: use 'image/jpeg' (11 links)
warning[type-syntax] the declared type 'vnd.acmeflix.api.library+json' lacks a top-level type: write 'application/vnd.acmeflix.api.library+json' (2 links)
warning[duplicate-rel] the rel self appears 2 times with different targets or attributes: /movies/pLDhp, /movies/pLDhp (vnd.acmeflix.api.movie+json) (1 link)
```
"""


# MARK: - Main


def write(path, text, written):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    written.append(path)


def generate(fixtures, output, expected=None):
    with open(os.path.join(fixtures, "movies.json"), encoding="utf-8") as handle:
        by_id = json.load(handle)
    with open(os.path.join(fixtures, "cart.json"), encoding="utf-8") as handle:
        cart_data = json.load(handle)
    movies = list(by_id.values())  # the file's order, which is the service's order
    for key, movie in by_id.items():
        if movie["id"] != key:
            sys.exit(f"movies.json: key {key} holds movie id {movie['id']}")
    cart_id = cart_data["id"]
    cart_movies = [by_id[i] for i in cart_data["movies"]]
    cart_path = "/cart/" + cart_id
    rentable = [m for m in movies if m["stock"] > 0]
    rateable = [m for m in movies if m["ratingEnabled"]]
    served_posters = [m for m in movies if m["id"] not in BROKEN_POSTERS]
    json_headers = [("Content-Type", JSON_TYPE)]
    written = []

    # GET /
    write(os.path.join(output, "root.xml"), xml_file(xml_stub(
        200, "root", "GET", "/",
        "GET /: the API root, linking self, library and (while the cart holds movies) the cart "
        f"{cart_id}.",
        headers=json_headers, body_json=root(cart_id, cart_movies))), written)

    # GET /library
    write(os.path.join(output, "library.xml"), xml_file(xml_stub(
        200, "library", "GET", "/library",
        f"GET /library: all {len(movies)} movies with self (vnd.acmeflix.api.movies+json) and "
        "poster (image/jpeg) links.",
        headers=json_headers, body_json=library(movies))), written)

    # GET /cart/{id}
    held = ", ".join(f'{m["id"]} ({m["name"]})' for m in cart_movies) or "nothing"
    write(os.path.join(output, "cart", "cart.xml"), xml_file(xml_stub(
        200, f"cart {cart_id}", "GET", cart_path,
        f"GET {cart_path}: the cart holding {held}, with a delete link per item and an add link.",
        headers=json_headers, body_json=cart(cart_id, cart_movies))), written)

    # PUT /cart/{id}, one stub per movie in stock, matched on the body
    held_ids = {m["id"] for m in cart_movies}
    rent_stubs = []
    for movie in rentable:
        after = cart_movies + ([] if movie["id"] in held_ids else [movie])
        rent_stubs.append(xml_stub(
            200, f"rent {movie['id']}", "PUT", cart_path,
            f'PUT {cart_path} {{"movieId":"{movie["id"]}"}}: rent {title(movie)}; '
            f"the cart now holds {', '.join(m['id'] for m in after)}.",
            headers=json_headers, body_json=cart(cart_id, after),
            request_json=[("/movieId", movie["id"])], indent="  "))
    write(os.path.join(output, "cart", "rent.xml"), xml_files(
        rent_stubs,
        f"PUT {cart_path}: one stub per movie in stock ({len(rentable)}), matched on the JSON body's "
        "movieId. Generated by scripts/generate-acmeflix-stubs.py."), written)

    # DELETE /cart/{id}: remove the (first) held movie, leaving the rest
    if cart_movies:
        removed = cart_movies[0]
        after = cart_movies[1:]
        write(os.path.join(output, "cart", "delete.xml"), xml_file(xml_stub(
            200, f"remove {removed['id']} from cart", "DELETE", cart_path,
            f'DELETE {cart_path} {{"movieId":"{removed["id"]}"}}: remove {title(removed)}; '
            + ("the cart is now empty." if not after else
               f"the cart now holds {', '.join(m['id'] for m in after)}."),
            headers=json_headers, body_json=cart(cart_id, after),
            request_json=[("/movieId", removed["id"])])), written)

    # GET and PUT /movies/{id}: one template holds the representation's shape (movie_page), each
    # stub only its movie's data; hrefs use {{baseURL}}, so they name whichever origin serves them.
    write(os.path.join(output, "movies", MOVIE_TEMPLATE), movie_template(), written)
    movie_stubs = []
    for movie in movies:
        notes = []
        if movie["stock"] <= 0:
            notes.append("out of stock, so no rent link")
        if movie["id"] in DUPLICATE_SELF:
            notes.append("an untyped duplicate self link before the typed one (defect)")
        if movie["ratingEnabled"]:
            notes.append("rateable")
        description = f"GET /movies/{movie['id']}: {title(movie)}" + (
            "; " + "; ".join(notes) if notes else "") + "."
        movie_stubs.append(templated_movie_stub(f"movie {movie['id']}", description, "GET", movie, cart_id))
    write(os.path.join(output, "movies", "movies.json"), json_text({"stubs": movie_stubs}), written)

    # PUT /movies/{id} for rateable movies
    rate_stubs = [
        templated_movie_stub(
            f"rate {movie['id']}",
            f'PUT /movies/{movie["id"]} {{"rating": …}}: rate {title(movie)}; '
            "answers the movie as GET does (matched on method and path only).",
            "PUT", movie, cart_id)
        for movie in rateable
    ]
    write(os.path.join(output, "movies", "rate.json"), json_text({"stubs": rate_stubs}), written)

    # What the service itself answers for each movie, byte for byte: the interceptor tests render
    # the template for every movie and compare.
    if expected:
        for movie in movies:
            write(os.path.join(expected, movie["id"] + ".json"), compact(movie_page(movie, cart_id)), written)

    # GET /poster/{id}
    poster_stubs = []
    for movie in movies:
        poster_path = "/poster/" + movie["id"]
        if movie["id"] in BROKEN_POSTERS:
            poster_stubs.append(xml_stub(
                500, f"poster {movie['id']} (broken)", "GET", poster_path,
                f"GET {poster_path}: the poster of {title(movie)} is broken: 500 with an empty body "
                "(defect), although the library and the movie's page link to it.",
                indent="  "))
        else:
            poster_stubs.append(xml_stub(
                200, f"poster {movie['id']}", "GET", poster_path,
                f"GET {poster_path}: the poster of {title(movie)}, served as image/jpg (sic).",
                headers=[("Content-Type", POSTER_TYPE)], body_file=movie["id"] + ".jpg",
                indent="  "))
    write(os.path.join(output, "posters", "posters.xml"), xml_files(
        poster_stubs,
        f"GET /poster/{{id}}: {len(served_posters)} JPEG posters (body files beside this file, made by "
        "scripts/generate-posters.py) and a 500 for " + ", ".join(sorted(BROKEN_POSTERS)) + "."),
        written)

    write(os.path.join(output, "README.md"),
          readme(movies, cart_id, cart_movies, rentable, rateable, served_posters), written)

    for movie in served_posters:
        jpg = os.path.join(output, "posters", movie["id"] + ".jpg")
        if not os.path.exists(jpg):
            print(f"warning: {os.path.relpath(jpg)} is missing; run scripts/generate-posters.py",
                  file=sys.stderr)
    return movies, written


# MARK: - Self-check


def check(movies, written):
    problems = []
    seen_text = ""
    for path in written:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        seen_text += text
        if path.endswith(".json") and "acmeflix-movies" not in path:
            try:
                json.loads(text)
            except ValueError as error:
                problems.append(f"{path}: invalid JSON: {error}")
        elif path.endswith(".xml"):
            try:
                document = xml.dom.minidom.parseString(text.encode("utf-8"))
            except Exception as error:  # noqa: BLE001 - report any parser failure
                problems.append(f"{path}: malformed XML: {error}")
                continue
            for body in document.getElementsByTagName("body"):
                content = "".join(node.data for node in body.childNodes
                                  if node.nodeType in (node.TEXT_NODE, node.CDATA_SECTION_NODE))
                if content.strip():
                    try:
                        json.loads(content)
                    except ValueError as error:
                        problems.append(f"{path}: a <body> is not JSON: {error}")
            for body_file in document.getElementsByTagName("body-file"):
                target = os.path.join(os.path.dirname(path), body_file.getAttribute("path"))
                if not os.path.exists(target):
                    print(f"warning: {path}: body-file {body_file.getAttribute('path')} does not "
                          "exist yet", file=sys.stderr)
    for movie in movies:
        if f'"id":"{movie["id"]}"' not in seen_text and f'"id": "{movie["id"]}"' not in seen_text:
            problems.append(f"movie {movie['id']} appears in no stub body")
    return problems


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", nargs="?", default=os.path.join(repo, "..", "shared", "fixtures", "acmeflix"),
                        help="folder holding movies.json and cart.json (default: %(default)s)")
    parser.add_argument("--output", default=os.path.join(repo, "stubs", "acmeflix"),
                        help="the stub folder to write (default: %(default)s)")
    parser.add_argument("--expected", default=os.path.join(repo, "Tests", "APICheckInterceptorTests", "Fixtures", "acmeflix-movies"),
                        help="where to write each movie as the service sends it, for the template tests "
                             "(default: %(default)s; '' to skip)")
    arguments = parser.parse_args()
    movies, written = generate(os.path.normpath(arguments.fixtures), os.path.normpath(arguments.output),
                               os.path.normpath(arguments.expected) if arguments.expected else None)
    problems = check(movies, written)
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    print(f"wrote {len(written)} files to {os.path.relpath(arguments.output)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
