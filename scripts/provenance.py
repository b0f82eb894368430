#!/usr/bin/env python3
"""provenance.py - which build made each file of a results folder.

    provenance.py DIR (--driver BIN | --tree) --tool NAME FILE...

records, in DIR/provenance.json, for each FILE: the commit (with "-dirty"
when the tree had changes) and the variant of the build that made it, the
tool and the time.  --driver takes them from the binary itself
(`opsbench-run --list --json`: what it was built from, not what is checked
out now); --tree from the working tree (for what is made from the sources
now, as make report's disassembly).  The report compares them (builds()).
benchmarks.json.gz is recorded as benchmarks.json: the same data packed.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import registry  # noqa: E402
from lib.plumbing import run_main  # noqa: E402
from lib.provenance import present, record, tree_commit  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--driver")
    src.add_argument("--tree", action="store_true")
    ap.add_argument("--tool", required=True)
    ap.add_argument("--variant", help="with --tree: the variant (default plain)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.driver:
        try:
            reg = registry.load(args.driver)
        except registry.RegistryError as e:
            sys.exit(f"provenance: {e}")
        commit, variant = reg.get("commit", "unknown"), args.variant or reg.get("variant", "plain")
    else:
        commit, variant = tree_commit(), args.variant or "plain"
    missing = [f for f in args.files if not present(args.dir, f)]
    if missing:
        sys.exit(f"provenance: {args.dir}: no {', '.join(missing)}")
    try:
        record(args.dir, args.files, commit, variant, args.tool)
    except ValueError as e:
        sys.exit(f"provenance: {e}")


if __name__ == "__main__":
    run_main(main)
