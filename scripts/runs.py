#!/usr/bin/env python3
"""runs.py - the shell scripts' way to check, find and write into a results
folder, the same code the Python tools use (scripts/lib/runfolder.py,
scripts/lib/plumbing.py):

    runs.py check [--writes] [--tool] DIR   is DIR a complete run (and may a tool write into it)?
    runs.py newest [--existing] RESULTS     the newest run a tool may write into by default
    runs.py write DIR NAME < DATA           DATA into DIR/NAME, safely (plumbing.write_atomic())
    runs.py variants [--known "V..."] DIR    the builds DIR's make bench measured (meta.json), one a line

check: exit 2 with one line naming DIR and what is wrong (--tool: also a
folder scripts/results-dir.sh made for the tool now running).  newest: by
the UTC date in each run's meta.json, skipping incomplete and committed
runs; exit 1, printing nothing, when there is none.  write: never through a
symbolic link, never outside DIR, every write and the size checked.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import plumbing, runfolder  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("check")
    c.add_argument("--writes", action="store_true")
    c.add_argument("--tool", action="store_true")
    c.add_argument("dir")
    n = sub.add_parser("newest")
    n.add_argument("--existing", action="store_true", help="only runs with samples (make report)")
    n.add_argument("results")
    w = sub.add_parser("write")
    w.add_argument("dir")
    w.add_argument("name")
    v = sub.add_parser("variants")
    v.add_argument("--known", help="the builds this architecture has (the Makefile's VARIANTS_<arch>)")
    v.add_argument("dir")
    args = ap.parse_args()
    if args.what == "check":
        try:
            runfolder.check_run(args.dir, writes=args.writes, tool_folder=args.tool)
        except runfolder.InputError as e:
            plumbing.die(str(e))
    elif args.what == "newest":
        d = runfolder.newest_run(args.results, samples=args.existing)
        if d is None:
            sys.exit(1)
        print(d)
    elif args.what == "variants":
        # A folder made for a tool has no bench, so no builds but the plain one.
        try:
            meta = plumbing.read_json_file(os.path.join(args.dir, "meta.json"))
        except FileNotFoundError:
            meta = {}
        variants = meta.get("variants") if isinstance(meta, dict) else None
        if not isinstance(variants, list) or not all(isinstance(x, str) and x.replace("-", "").isalnum()
                                                     for x in variants):
            variants = ["plain"]
        unknown = [x for x in variants if args.known is not None and x not in args.known.split()]
        if unknown:
            plumbing.die(f"{os.path.join(args.dir, 'meta.json')}: variants: {', '.join(unknown)}: "
                         f"no such build here (expected among {args.known})")
        print("\n".join(dict.fromkeys(["plain"] + variants) if "plain" in variants else variants))
    else:
        if os.sep in args.name or args.name in ("", ".", ".."):
            plumbing.die(f"runs.py write: {args.name!r}: a file name, without a folder")
        data = sys.stdin.buffer.read()
        plumbing.write_atomic(os.path.join(args.dir, args.name), data, args.dir)


if __name__ == "__main__":
    plumbing.run_main(main)
