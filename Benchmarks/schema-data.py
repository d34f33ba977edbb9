#!/usr/bin/env python3
"""Generates the inputs of Benchmarks/schema.sh, deterministically from a seed.

  movie/schema.json        a vendor-style 2020-12 schema: a "movie" object with $refs into $defs,
                           pattern, enum, multipleOf, unevaluatedProperties: false, nested arrays of people
  movie/instances.jsonl    COUNT movies, one per line, about 5% invalid (one defect each)
  openapi/schema.json      the OpenAPI 3.1 meta-schema (https://spec.openapis.org/oas/3.1/schema/2022-10-07),
                           copied from the file given with --openapi-schema
  openapi/instances.jsonl  DOCS OpenAPI 3.1 documents of OPERATIONS operations each, one per line,
                           about 5% invalid
  */expected.json          how many instances are valid, so every validator's answer can be checked

Usage: schema-data.py OUT_DIR --openapi-schema PATH [--seed N] [--count N] [--docs N] [--operations N]
"""
import argparse
import json
import os
import random
import shutil

MOVIE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://schemas.example.com/catalog/movie.json",
    "title": "Movie",
    "type": "object",
    "required": ["id", "title", "year", "rating", "runtime", "genres", "cast"],
    "properties": {
        "id": {"type": "string", "pattern": "^tt[0-9]{7,8}$"},
        "title": {"type": "string", "minLength": 1, "maxLength": 200},
        "originalTitle": {"type": "string"},
        "year": {"type": "integer", "minimum": 1888, "maximum": 2030},
        "rating": {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 0.5},
        "votes": {"type": "integer", "minimum": 0},
        "runtime": {"type": "integer", "exclusiveMinimum": 0, "maximum": 1000},
        "certification": {"enum": ["G", "PG", "PG-13", "R", "NC-17", "NR"]},
        "genres": {"type": "array", "items": {"$ref": "#/$defs/genre"}, "minItems": 1, "uniqueItems": True},
        "languages": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]{2}(-[A-Z]{2})?$"}},
        "releaseDate": {"type": "string", "format": "date"},
        "budget": {"type": ["integer", "null"], "minimum": 0, "multipleOf": 1000},
        "cast": {"type": "array", "items": {"$ref": "#/$defs/castMember"}, "maxItems": 50},
        "crew": {"type": "array", "items": {"$ref": "#/$defs/crewMember"}},
        "studio": {"$ref": "#/$defs/company"},
        "sequelOf": {"type": "string", "pattern": "^tt[0-9]{7,8}$"},
    },
    "dependentRequired": {"sequelOf": ["originalTitle"]},
    "unevaluatedProperties": False,
    "$defs": {
        "genre": {"enum": ["Action", "Adventure", "Animation", "Comedy", "Crime", "Documentary", "Drama",
                           "Family", "Fantasy", "Horror", "Mystery", "Romance", "Science Fiction", "Thriller", "War", "Western"]},
        "person": {
            "type": "object",
            "required": ["name", "personId"],
            "properties": {
                "personId": {"type": "string", "pattern": "^nm[0-9]{7,8}$"},
                "name": {"type": "string", "minLength": 1, "maxLength": 120},
                "born": {"type": "integer", "minimum": 1850, "maximum": 2025},
                "aliases": {"type": "array", "items": {"type": "string"}},
            },
        },
        "castMember": {
            "allOf": [{"$ref": "#/$defs/person"}],
            "required": ["character", "order"],
            "properties": {"character": {"type": "string", "minLength": 1}, "order": {"type": "integer", "minimum": 0}},
            "unevaluatedProperties": False,
        },
        "crewMember": {
            "$ref": "#/$defs/person",
            "required": ["job"],
            "properties": {
                "job": {"enum": ["Director", "Writer", "Producer", "Composer", "Editor", "Cinematographer"]},
                "department": {"type": "string"},
            },
            "unevaluatedProperties": False,
        },
        "company": {
            "type": "object",
            "required": ["name"],
            "properties": {"name": {"type": "string"}, "country": {"type": "string", "pattern": "^[A-Z]{2}$"}},
            "additionalProperties": False,
        },
    },
}

GENRES = MOVIE_SCHEMA["$defs"]["genre"]["enum"]
JOBS = MOVIE_SCHEMA["$defs"]["crewMember"]["properties"]["job"]["enum"]
WORDS = ["night", "river", "iron", "last", "garden", "silent", "empire", "shadow", "winter", "gold", "city",
         "storm", "glass", "kingdom", "echo", "harbor", "wild", "paper", "moon", "signal", "Zoë", "Ørsted", "naïve"]
FIRST = ["Ada", "Ben", "Chloé", "Dmitri", "Eva", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena", "Mateo", "Noor"]
LAST = ["Okafor", "Park", "Quinn", "Rossi", "Silva", "Tanaka", "Ulrich", "Varga", "Weber", "Xu", "Yilmaz", "Zhou"]


def person(rng):
    p = {"personId": "nm%07d" % rng.randrange(10**7), "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}"}
    if rng.random() < 0.7:
        p["born"] = rng.randint(1900, 2010)
    if rng.random() < 0.1:
        p["aliases"] = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(1, 3))]
    return p


def movie(rng, index):
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))).title()
    m = {
        "id": "tt%07d" % (1000000 + index),
        "title": title,
        "year": rng.randint(1920, 2025),
        "rating": rng.randint(0, 20) / 2,
        "votes": rng.randint(0, 2_000_000),
        "runtime": rng.randint(60, 200),
        "certification": rng.choice(["G", "PG", "PG-13", "R", "NC-17", "NR"]),
        "genres": rng.sample(GENRES, rng.randint(1, 3)),
        "languages": rng.sample(["en", "fr", "de", "ja", "es-MX", "pt-BR", "it"], rng.randint(1, 3)),
        "releaseDate": "%04d-%02d-%02d" % (rng.randint(1920, 2025), rng.randint(1, 12), rng.randint(1, 28)),
        "budget": None if rng.random() < 0.2 else rng.randint(1, 300_000) * 1000,
        "cast": [dict(person(rng), character=f"{rng.choice(FIRST)} {rng.choice(WORDS)}", order=i) for i in range(rng.randint(2, 10))],
        "crew": [dict(person(rng), job=rng.choice(JOBS), department="Production") for _ in range(rng.randint(1, 5))],
    }
    if rng.random() < 0.5:
        m["studio"] = {"name": f"{rng.choice(WORDS).title()} Pictures", "country": rng.choice(["US", "FR", "JP", "GB"])}
    if rng.random() < 0.1:
        m["sequelOf"] = "tt%07d" % (1000000 + rng.randrange(max(index, 1)))
        m["originalTitle"] = title
    return m


def break_movie(rng, m):
    """One defect, each from a different keyword."""
    defect = rng.randrange(10)
    if defect == 0:
        m["id"] = "movie-%d" % rng.randrange(1000)                      # pattern
    elif defect == 1:
        m["year"] = str(m["year"])                                       # type
    elif defect == 2:
        m["rating"] = 7.25                                               # multipleOf
    elif defect == 3:
        m["genres"].append("Musical Noir")                               # enum through $ref
    elif defect == 4:
        m["posterUrl"] = "https://example.com/p.jpg"                     # unevaluatedProperties
    elif defect == 5:
        del m["cast"][-1]["character"]                                   # required in a nested $ref
    elif defect == 6:
        m["cast"][0]["agent"] = "CAA"                                    # unevaluatedProperties through allOf
    elif defect == 7:
        m["crew"][0]["personId"] = "x%d" % rng.randrange(100)           # pattern through $ref
    elif defect == 8:
        del m["runtime"]                                                 # required
    else:
        m["sequelOf"] = "tt0000001"                                      # dependentRequired
        m.pop("originalTitle", None)
    return m


SCHEMA_TYPES = ["string", "integer", "number", "boolean"]


def schema_object(rng, depth=0):
    if depth > 1 or rng.random() < 0.4:
        s = {"type": rng.choice(SCHEMA_TYPES)}
        if s["type"] == "string" and rng.random() < 0.3:
            s["format"] = rng.choice(["date-time", "uuid", "email"])
        return s
    props = {f"{rng.choice(WORDS).lower()}{i}": schema_object(rng, depth + 1) for i in range(rng.randint(1, 5))}
    return {"type": "object", "properties": props, "required": list(props)[:1]}


def operation(rng, name, method):
    op = {
        "operationId": f"{method}{name.title().replace('-', '')}",
        "summary": f"{method.upper()} {name}",
        "tags": [name.split("-")[0]],
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
        ],
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": schema_object(rng)}}},
            "404": {"$ref": "#/components/responses/NotFound"},
        },
    }
    if method in ("post", "put", "patch"):
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema_object(rng)}}}
    if rng.random() < 0.2:
        op["security"] = [{"bearer": []}]
    if rng.random() < 0.1:
        op["x-rate-limit"] = rng.randint(10, 1000)
    return op


def openapi_document(rng, index, operations):
    paths = {}
    methods = ["get", "post", "put", "patch", "delete"]
    count = 0
    while count < operations:
        name = f"{rng.choice(WORDS).lower()}-{len(paths)}"
        item = {}
        for method in rng.sample(methods, rng.randint(1, 3)):
            if count == operations:
                break
            item[method] = operation(rng, name, method)
            count += 1
        paths[f"/{name}/{{id}}"] = item
    return {
        "openapi": "3.1.0",
        "info": {"title": f"Service {index}", "version": f"1.{index}.0", "license": {"name": "MIT", "identifier": "MIT"}},
        "servers": [{"url": "https://api.example.com/v1"}],
        "paths": paths,
        "components": {
            "responses": {"NotFound": {"description": "Not found"}},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def break_openapi(rng, doc):
    defect = rng.randrange(4)
    first = next(iter(doc["paths"].values()))
    op = next(iter(first.values()))
    if defect == 0:
        doc["openapi"] = "3.0.3"                                # pattern
    elif defect == 1:
        op["parameters"][0]["in"] = "body"                      # enum (a 3.0/Swagger habit)
    elif defect == 2:
        del op["responses"]["200"]["description"]               # required
    else:
        op["summary"] = 42                                      # type
    return doc


def write(folder, name, schema, instances, valid):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "instances.jsonl"), "w", encoding="utf-8") as out:
        for instance in instances:
            out.write(json.dumps(instance, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(os.path.join(folder, "expected.json"), "w") as out:
        json.dump({"workload": name, "instances": len(valid), "valid": sum(valid)}, out)
        out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--openapi-schema", required=True)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--operations", type=int, default=500)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    movies, valid = [], []
    for index in range(args.count):
        m = movie(rng, index)
        ok = rng.random() >= 0.05
        movies.append(m if ok else break_movie(rng, m))
        valid.append(ok)
    folder = os.path.join(args.out, "movie")
    write(folder, "movie", MOVIE_SCHEMA, movies, valid)
    with open(os.path.join(folder, "schema.json"), "w") as out:
        json.dump(MOVIE_SCHEMA, out, indent=2)
        out.write("\n")

    rng = random.Random(args.seed + 1)
    docs, valid = [], []
    for index in range(args.docs):
        doc = openapi_document(rng, index, args.operations)
        ok = rng.random() >= 0.05 or index == 0
        docs.append(doc if ok else break_openapi(rng, doc))
        valid.append(ok)
    folder = os.path.join(args.out, "openapi")
    write(folder, "openapi-3.1", None, docs, valid)
    with open(args.openapi_schema) as source:
        meta = json.load(source)
    assert meta.get("$id") == "https://spec.openapis.org/oas/3.1/schema/2022-10-07", meta.get("$id")
    shutil.copyfile(args.openapi_schema, os.path.join(folder, "schema.json"))


if __name__ == "__main__":
    main()
