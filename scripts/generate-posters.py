#!/usr/bin/env python3
"""Generate the small JPEG posters of the AcmeFlix stub set (stubs/acmeflix/posters/<id>.jpg).

Needs Pillow (a third-party package), e.g. in a throwaway virtual environment:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow
    /tmp/venv/bin/python scripts/generate-posters.py [FIXTURES_DIR] [--output DIR]

FIXTURES_DIR holds movies.json (default: ../shared/fixtures/acmeflix relative to the repository
root); DIR defaults to stubs/acmeflix/posters. One 120x180 JPEG (quality 70, a few KB) per movie:
a plain background colour derived from the movie id with a few stripes and shapes, no text and
no third-party imagery. The colours and shapes depend only on the id (SHA-256), so the output is
reproducible for a given Pillow version. Movies whose poster the service cannot serve (10CFL,
answering 500) get no file. scripts/generate-acmeflix-stubs.py writes the stubs that serve them.
"""

import argparse
import colorsys
import hashlib
import json
import os
import sys

try:
    from PIL import Image, ImageDraw
except ImportError:  # pragma: no cover - a clear message instead of a traceback
    sys.exit("generate-posters.py needs Pillow: python3 -m venv /tmp/venv && "
             "/tmp/venv/bin/pip install pillow, then run it with /tmp/venv/bin/python")

WIDTH, HEIGHT = 120, 180
QUALITY = 70
BROKEN_POSTERS = {"10CFL"}  # keep in step with scripts/generate-acmeflix-stubs.py


def rgb(hue, saturation, value):
    r, g, b = colorsys.hsv_to_rgb(hue % 1.0, saturation, value)
    return int(r * 255), int(g * 255), int(b * 255)


def poster(movie_id):
    digest = hashlib.sha256(movie_id.encode("utf-8")).digest()
    hue = digest[0] / 256
    background = rgb(hue, 0.55 + digest[1] / 1024, 0.55 + digest[2] / 1024)
    stripe = rgb(hue + 0.5, 0.6, 0.35 + digest[3] / 1024)
    accent = rgb(hue + 0.33 + digest[4] / 2048, 0.75, 0.9)
    image = Image.new("RGB", (WIDTH, HEIGHT), background)
    draw = ImageDraw.Draw(image)

    # Diagonal or horizontal stripes across the middle band.
    count = 3 + digest[5] % 4
    step = HEIGHT // (count * 2 + 2)
    diagonal = digest[6] % 2 == 0
    for index in range(count):
        top = step * (2 * index + 2)
        if diagonal:
            draw.polygon([(0, top), (WIDTH, top - 30), (WIDTH, top - 30 + step), (0, top + step)], fill=stripe)
        else:
            draw.rectangle([0, top, WIDTH, top + step - 1], fill=stripe)

    # One circle and one rectangle placed from the hash.
    radius = 14 + digest[7] % 20
    cx, cy = 20 + digest[8] % (WIDTH - 40), 20 + digest[9] % (HEIGHT - 40)
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=accent, outline=(255, 255, 255), width=2)
    x, y = digest[10] % (WIDTH - 40), digest[11] % (HEIGHT - 40)
    draw.rectangle([x, y, x + 20 + digest[12] % 20, y + 20 + digest[13] % 20], outline=accent, width=3)

    # A frame, like a poster border.
    draw.rectangle([3, 3, WIDTH - 4, HEIGHT - 4], outline=(250, 250, 245), width=2)
    return image


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", nargs="?", default=os.path.join(repo, "..", "shared", "fixtures", "acmeflix"),
                        help="folder holding movies.json (default: %(default)s)")
    parser.add_argument("--output", default=os.path.join(repo, "stubs", "acmeflix", "posters"),
                        help="the folder to write the posters to (default: %(default)s)")
    arguments = parser.parse_args()
    with open(os.path.join(os.path.normpath(arguments.fixtures), "movies.json"), encoding="utf-8") as handle:
        movies = json.load(handle)
    os.makedirs(arguments.output, exist_ok=True)
    written = 0
    for movie_id in movies:
        if movie_id in BROKEN_POSTERS:
            continue
        path = os.path.join(arguments.output, movie_id + ".jpg")
        poster(movie_id).save(path, "JPEG", quality=QUALITY, optimize=True)
        written += 1
        print(f"{os.path.relpath(path)}: {os.path.getsize(path)} bytes")
    print(f"wrote {written} posters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
