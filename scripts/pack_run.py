#!/usr/bin/env python3
"""pack_run.py - replace a results folder's benchmarks.json by benchmarks.json.gz.

    pack_run.py FOLDER

The per-sample data is most of a run's size; every script reads the packed
file as it reads the plain one (lib/benchmarks.py read_benchmarks()), and
provenance.json's "benchmarks.json" entry covers it.  Used to keep
committed reference runs small (docs/results.md).  The output is
deterministic (gzip level 9, no name and time 0 in its header), written as
benchmarks.json.gz.part, decompressed and compared byte for byte with
benchmarks.json, then renamed; only then is benchmarks.json removed.
Exit status 2 for a folder without benchmarks.json, 1 when the check fails.
"""
import gzip
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.benchmarks import BENCHMARKS_JSON, PACKED  # noqa: E402
from lib.plumbing import run_main  # noqa: E402


def pack(data):
    """@data gzip-compressed, the same bytes for the same input on every run."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buf, mtime=0) as z:
        z.write(data)
    return buf.getvalue()


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: pack_run.py FOLDER")
    folder = argv[1]
    src, dst = os.path.join(folder, BENCHMARKS_JSON), os.path.join(folder, PACKED)
    if not os.path.isfile(src):
        print(f"pack_run: {folder}: no {BENCHMARKS_JSON} to pack", file=sys.stderr)
        sys.exit(2)
    with open(src, "rb") as f:
        data = f.read()
    part = dst + ".part"
    try:
        with open(part, "wb") as f:
            f.write(pack(data))
            f.flush()
            os.fsync(f.fileno())
        with gzip.open(part, "rb") as f:
            same = f.read() == data
        if not same:
            print(f"pack_run: {part}: does not decompress to {src}; nothing replaced", file=sys.stderr)
            sys.exit(1)
        os.replace(part, dst)
    finally:
        if os.path.exists(part):
            os.unlink(part)
    os.unlink(src)
    print(f"pack_run: {src} ({len(data)} bytes) -> {dst} ({os.path.getsize(dst)} bytes)")


if __name__ == "__main__":
    run_main(main, sys.argv)
