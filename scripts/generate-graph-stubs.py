#!/usr/bin/env python3
"""Generate a large hypermedia graph as APICheck JSON stub files, for benchmarks.

Usage:

    python3 scripts/generate-graph-stubs.py N OUT_DIR [--links 5] [--seed 1] [--per-file 500]

    python3 scripts/generate-graph-stubs.py 10000 /tmp/graph-10k     # served by `apicheck serve`
    python3 scripts/generate-graph-stubs.py 100000 /tmp/graph-100k   # crawled in memory

The graph has N resources: `/` and `/r/1` … `/r/{N-1}`. Each is a `GET` stub that answers 200
with an `application/hal+json` body like this:

    {"id": 17, "name": "Resource 17", "tags": [...], "description": "...",
     "_links": {"self": {"href": "/r/17"}, "next": {"href": "/r/18"},
                "item": [{"href": "/r/52"}, ...], "related": [{"href": "/r/9031"}, ...]}}

- Besides `self`, every resource has `--links` distinct outgoing links (default 5, at least 2;
  fewer only when N is too small): `next` (the following id, wrapping around), `item` (its
  children in a spanning tree), and `related` (random targets).
- Every resource is reachable from `/`. The spanning tree is a heap of branching
  min(links - 1, 3) laid over a shuffled order of the ids, so its depth is about log3 N. The
  random `related` links bring the BFS depth from `/` down further (about log N / log links).
  The script measures and prints that depth.
- Body sizes are spread evenly over 300–600 bytes, as the stub server sends them (compact JSON
  in key order). A `description` of filler words pads each body. Bodies are larger only when
  the links alone take more room (about `--links 20` and up at N = 100,000).
- The stubs are grouped `--per-file` to a file (`{"stubs": [...]}`, one stub per line), named
  `graph-00000.json`, `graph-00001.json`, … in OUT_DIR. Older `graph-*.json` files in OUT_DIR
  are removed first, so a smaller graph never leaves stale stubs behind. Other files are kept.
- The output depends only on the arguments. The randomness is a built-in SplitMix64 generator,
  not Python's `random`, so the output is the same on every machine and Python version.

Prints one summary line. Only the Python 3 standard library is needed.
"""

import argparse
import glob
import json
import os
import sys
from collections import deque

MASK64 = (1 << 64) - 1
WORDS = (
    "order invoice shipment parcel customer account ledger catalogue product variant stock warehouse "
    "route carrier tracking label payment refund voucher review rating basket checkout address region "
    "tariff quota schedule archive export import batch cursor window snapshot revision audit"
).split()
TAGS = ("alpha", "beta", "gamma", "delta", "omega", "north", "south", "east", "west", "core", "edge", "legacy")
MIN_BODY, MAX_BODY = 300, 600


class SplitMix64:
    """A small deterministic PRNG (Steele, Lea, Flood 2014), identical on every platform."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        """Uniform in [0, n) without modulo bias (rejection sampling)."""
        limit = MASK64 - (MASK64 + 1) % n
        while True:
            value = self.next()
            if value <= limit:
                return value % n


def path(resource):
    return "/" if resource == 0 else f"/r/{resource}"


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def build_links(n, links, rng):
    """Outgoing targets per resource: (next, children, related), all distinct and never itself."""
    # Shuffle the non-root ids (Fisher-Yates); heap positions map to ids through this order.
    order = list(range(n))
    for i in range(n - 1, 1, -1):
        j = 1 + rng.below(i)  # position 0 stays the root
        order[i], order[j] = order[j], order[i]
    branching = max(1, min(links - 1, 3))
    children = [[] for _ in range(n)]
    for position in range(1, n):
        children[order[(position - 1) // branching]].append(order[position])

    result = []
    distinct_others = n - 1
    for resource in range(n):
        taken = {resource}
        nxt = None
        if n > 1:
            nxt = resource % (n - 1) + 1  # / → /r/1 → … → /r/{N-1} → /r/1
            if nxt == resource:
                nxt = None
            else:
                taken.add(nxt)
        kids = [c for c in children[resource] if c not in taken]
        taken.update(kids)
        wanted = max(0, min(links, distinct_others) - (1 if nxt is not None else 0) - len(kids))
        related = []
        attempts = 0
        while len(related) < wanted and attempts < 64 * (wanted + 1):
            attempts += 1
            target = rng.below(n)
            if target not in taken:
                taken.add(target)
                related.append(target)
        result.append((nxt, kids, related))
    return result


def body(resource, nxt, kids, related, target_size, rng):
    link_object = {"self": {"href": path(resource)}}
    if nxt is not None:
        link_object["next"] = {"href": path(nxt)}
    if kids:
        link_object["item"] = [{"href": path(k)} for k in kids]
    if related:
        link_object["related"] = [{"href": path(r)} for r in related]
    tags = [TAGS[rng.below(len(TAGS))] for _ in range(1 + rng.below(3))]
    value = {"id": resource, "name": f"Resource {resource}", "tags": tags, "description": "", "_links": link_object}
    room = target_size - len(compact(value).encode())
    words = []
    length = 0
    while length < room:
        word = WORDS[rng.below(len(WORDS))]
        length += len(word) + (1 if words else 0)
        words.append(word)
    # Cut to the exact size; a word cut in half is fine for filler.
    value["description"] = " ".join(words)[: max(0, room)]
    return value


def remove_stale(out_dir):
    for stale in glob.glob(os.path.join(out_dir, "graph-*.json")):
        os.remove(stale)


def bfs_depth(adjacency):
    depth = [-1] * len(adjacency)
    depth[0] = 0
    queue = deque([0])
    while queue:
        current = queue.popleft()
        for target in adjacency[current]:
            if depth[target] < 0:
                depth[target] = depth[current] + 1
                queue.append(target)
    return depth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, metavar="N", help="number of resources, including /")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder for the stub files (created if missing)")
    parser.add_argument("--links", type=int, default=5, help="outgoing links per resource besides self (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--per-file", type=int, default=500, help="stubs per file (default 500)")
    args = parser.parse_args()
    if args.n < 1 or args.n > 10_000_000:
        parser.error("N must be between 1 and 10,000,000")
    if args.links < 2 or args.links > 1000:
        # `next` and the spanning tree need two links per resource to keep everything reachable.
        parser.error("--links must be between 2 and 1000")
    if args.per_file < 1:
        parser.error("--per-file must be at least 1")

    rng = SplitMix64(args.seed)
    graph = build_links(args.n, args.links, rng)
    os.makedirs(args.out_dir, exist_ok=True)
    remove_stale(args.out_dir)

    files = 0
    link_count = 0
    sizes_total = 0
    smallest, largest = None, 0
    for start in range(0, args.n, args.per_file):
        lines = []
        for resource in range(start, min(start + args.per_file, args.n)):
            nxt, kids, related = graph[resource]
            link_count += (nxt is not None) + len(kids) + len(related)
            target = MIN_BODY + rng.below(MAX_BODY - MIN_BODY + 1)
            value = body(resource, nxt, kids, related, target, rng)
            size = len(compact(value).encode())
            sizes_total += size
            smallest = size if smallest is None else min(smallest, size)
            largest = max(largest, size)
            stub = {
                "name": f"r{resource}",
                "request": {"method": "GET", "path": path(resource)},
                "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": value},
            }
            lines.append(compact(stub))
        name = os.path.join(args.out_dir, f"graph-{files:05d}.json")
        with open(name, "w", encoding="utf-8") as f:
            f.write('{"stubs": [\n' + ",\n".join(lines) + "\n]}\n")
        files += 1

    adjacency = [[t for t in ([nxt] if nxt is not None else []) + kids + related] for nxt, kids, related in graph]
    depth = bfs_depth(adjacency)
    unreachable = sum(1 for d in depth if d < 0)
    if unreachable:
        print(f"generate-graph-stubs: {unreachable} resources are unreachable from / (a bug)", file=sys.stderr)
        return 1
    print(
        f"generate-graph-stubs: {args.n} resources, {link_count} links ({link_count / args.n:.1f} per resource "
        f"besides self), BFS depth {max(depth)} from /, bodies {smallest}-{largest} B "
        f"(mean {sizes_total // args.n}), {files} file{'s' if files != 1 else ''} in {args.out_dir} (seed {args.seed})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
