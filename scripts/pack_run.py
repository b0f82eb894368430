#!/usr/bin/env python3
"""pack_run.py - replace a results folder's benchmarks.json by benchmarks.json.gz.

    pack_run.py [--] FOLDER

The per-sample data is most of a run's size; every script reads the packed
file as it reads the plain one (lib/benchmarks.py read_benchmarks()), and
provenance.json's "benchmarks.json" entry covers it.  Used to keep
committed reference runs small (docs/results.md).  The output is
deterministic (gzip level 9, no name and time 0 in its header), written
through plumbing.write_atomic() (benchmarks.json.gz.part made with
O_EXCL|O_NOFOLLOW: a link there is removed, never followed), decompressed
and compared byte for byte with benchmarks.json; only then is
benchmarks.json removed.  A folder that already holds benchmarks.json.gz is
refused: nothing is overwritten.
Exit status 2 for bad usage, a folder without benchmarks.json (or one that
is not a regular file) or with benchmarks.json.gz already, 1 when the check
or a write fails.
"""
import argparse
import gzip
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import plumbing  # noqa: E402
from lib.benchmarks import BENCHMARKS_JSON, PACKED  # noqa: E402
from lib.plumbing import run_main  # noqa: E402


def pack(data):
    """@data gzip-compressed, the same bytes for the same input on every run."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buf, mtime=0) as z:
        z.write(data)
    return buf.getvalue()


def main(argv):
    ap = argparse.ArgumentParser(prog="pack_run.py",
                                 description="Replace FOLDER's benchmarks.json by benchmarks.json.gz.")
    ap.add_argument("folder", metavar="FOLDER", help="a results folder holding benchmarks.json")
    folder = ap.parse_args(argv[1:]).folder
    if not os.path.isdir(folder):
        plumbing.die(f"pack_run: {folder}: no such results folder")
    src, dst = os.path.join(folder, BENCHMARKS_JSON), os.path.join(folder, PACKED)
    if os.path.lexists(dst):
        plumbing.die(f"pack_run: {dst}: already there; refusing to overwrite it "
                     f"(remove it, or {BENCHMARKS_JSON}, first)")
    try:
        data = plumbing.read_bytes(src)
    except FileNotFoundError:
        plumbing.die(f"pack_run: {folder}: no {BENCHMARKS_JSON} to pack")
    packed = pack(data)
    if gzip.decompress(packed) != data:
        print(f"pack_run: {dst}: does not decompress to {src}; nothing replaced", file=sys.stderr)
        sys.exit(1)
    plumbing.write_atomic(dst, packed, folder)
    if plumbing.read_gzip(dst) != data:
        os.unlink(dst)
        print(f"pack_run: {dst}: does not decompress to {src}; nothing replaced", file=sys.stderr)
        sys.exit(1)
    os.unlink(src)
    print(f"pack_run: {src} ({len(data)} bytes) -> {dst} ({os.path.getsize(dst)} bytes)")


if __name__ == "__main__":
    run_main(main, sys.argv)
