#!/usr/bin/env python3
"""merge.py - join the Google Benchmark JSON files of one run into one.

    merge.py PARTS_DIR OUT.json

The result keeps Google Benchmark's schema (the first part's "context", every
part's "benchmarks" in order), so its compare.py reads it.  Written to a
temporary name and renamed.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import plumbing  # noqa: E402


def fail(msg):
    print(f"merge.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 3:
        fail("usage: merge.py PARTS_DIR OUT.json")
    parts_dir, out = argv[1], argv[2]
    try:
        names = sorted(n for n in os.listdir(parts_dir) if n.endswith(".json"))
    except OSError as e:
        fail(f"{parts_dir}: {e.strerror}")
    if not names:
        fail(f"{parts_dir}: no .json parts")
    merged = None
    for name in names:
        path = os.path.join(parts_dir, name)
        try:
            part = plumbing.read_json_file(path)
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
