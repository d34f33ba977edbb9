#!/usr/bin/env python3
"""Write the OpenAPI 3.1 document that describes the graph of scripts/generate-graph-stubs.py.

Usage:

    python3 scripts/generate-graph-openapi.py OUT_FILE

    python3 scripts/generate-graph-openapi.py /tmp/graph.openapi.json
    apicheck crawl http://localhost:3000/ --stubs /tmp/graph-10k --openapi /tmp/graph.openapi.json

The graph has the same shape at every size, so the document does not depend on N: `GET /` and
`GET /r/{id}` answer 200 with an `application/hal+json` body the schema describes in full (the
resource's fields, its tags, its HAL links), so `crawl --openapi` matches every answer to its
operation and validates every body. `GET /r/{id}` also documents a 404, and `DELETE /r/{id}` is never
linked to, so the coverage report has something to list. Only the Python 3 standard
library is needed; the output is JSON (a YAML parser reads it too).
"""

import json
import sys

TAGS = ["alpha", "beta", "gamma", "delta", "omega", "north", "south", "east", "west", "core", "edge", "legacy"]


def document():
    link = {"type": "object", "required": ["href"], "properties": {"href": {"type": "string", "pattern": "^/(r/[0-9]+)?$"}}}
    links = {"type": "array", "items": {"$ref": "#/components/schemas/Link"}, "minItems": 1}
    resource = {
        "type": "object",
        "required": ["id", "name", "tags", "description", "_links"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "integer", "minimum": 0},
            "name": {"type": "string", "minLength": 1},
            "tags": {"type": "array", "items": {"enum": TAGS}, "minItems": 1, "maxItems": 3},
            "description": {"type": "string"},
            "_links": {
                "type": "object",
                "required": ["self"],
                "additionalProperties": False,
                "properties": {
                    "self": {"$ref": "#/components/schemas/Link"},
                    "next": {"$ref": "#/components/schemas/Link"},
                    "item": links,
                    "related": links,
                },
            },
        },
    }
    answer = {"description": "a resource", "content": {"application/hal+json": {"schema": {"$ref": "#/components/schemas/Resource"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Generated graph (scripts/generate-graph-stubs.py)", "version": "1"},
        "paths": {
            "/": {"get": {"operationId": "getRoot", "responses": {"200": answer}}},
            "/r/{id}": {
                "get": {
                    "operationId": "getResource",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                    "responses": {"200": answer, "404": {"description": "no such resource"}},
                },
                "delete": {
                    "operationId": "deleteResource",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                    "responses": {"204": {"description": "deleted (never linked to: the coverage report lists it)"}},
                },
            },
        },
        "components": {"schemas": {"Resource": resource, "Link": link}},
    }


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump(document(), f, indent=2)
        f.write("\n")
    print(f"generate-graph-openapi: wrote {sys.argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
