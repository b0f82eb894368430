#!/usr/bin/env python3
"""merge.py - join the Google Benchmark JSON files of one run into one.

    merge.py PARTS_DIR OUT.json

The parts are PARTS_DIR/*.json and PARTS_DIR/<job>/<block>.json (make
bench's blocks), in the order of their numbers.  The result keeps Google Benchmark's schema (the first part's "context", every
part's "benchmarks" in order), so its compare.py reads it.  Written to a
temporary name and renamed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import plumbing  # noqa: E402


def fail(msg):
    print(f"merge.py: {msg}", file=sys.stderr)
    sys.exit(1)


def _key(name):
    """Sort key of a part's name: its numbers as numbers."""
    return [int(x) if x.isdigit() else x for x in name.replace(".json", "").split("/")]


def part_names(parts_dir):
    """The parts under @parts_dir, relative to it, in order."""
    names = []
    for n in os.listdir(parts_dir):
        if n.endswith(".json") and not n.startswith("."):
            names.append(n)
        elif n.isdigit() and os.path.isdir(os.path.join(parts_dir, n)):
            names += [f"{n}/{m}" for m in os.listdir(os.path.join(parts_dir, n))
                      if m.endswith(".json") and not m.startswith(".")]
    return sorted(names, key=_key)


def main(argv):
    if len(argv) != 3:
        fail("usage: merge.py PARTS_DIR OUT.json")
    parts_dir, out = argv[1], argv[2]
    try:
        names = part_names(parts_dir)
    except OSError as e:
        fail(f"{e.filename}: {e.strerror}")
    if not names:
        fail(f"{parts_dir}: no .json parts")
    merged = None
    for name in names:
        path = os.path.join(parts_dir, name)
        try:
            part = plumbing.read_json_file(path, nan_as_null=True)
        except (OSError, plumbing.ReadError) as e:
            fail(f"{path}: not a readable Google Benchmark JSON file ({e})")
        if not isinstance(part, dict) or "benchmarks" not in part:
            fail(f"{path}: no 'benchmarks' list: not Google Benchmark JSON")
        if merged is None:
            merged = {"context": part.get("context", {}), "benchmarks": []}
        merged["benchmarks"].extend(part["benchmarks"])
    plumbing.write_json(out, merged, os.path.dirname(out) or ".")


if __name__ == "__main__":
    plumbing.run_main(main, sys.argv)
