#!/usr/bin/env python3
"""blocks.py - make bench's stopping rule, for scripts/bench.sh: which
lookup groups are pinned (scripts/lib/blocks.py, docs/method.md#blocks).

    blocks.py PARTS_DIR --target PCT --min N JOB...

Prints one line per JOB (a folder of PARTS_DIR holding one group's blocks):
"JOB KEPT WIDEST pinned|open", KEPT its blocks not set aside, WIDEST the
widest half-width of its ratios' 95% intervals in percent ("inf" with
fewer than two blocks).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import blocks, plumbing  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(prog="blocks.py", description=__doc__.splitlines()[0])
    ap.add_argument("parts")
    ap.add_argument("--target", type=float, required=True, help="percent")
    ap.add_argument("--min", type=int, default=1, help="blocks a group needs at least")
    ap.add_argument("jobs", nargs="+")
    a = ap.parse_args(argv[1:])
    if not 0 < a.target < 100:
        plumbing.die(f"blocks.py: --target {a.target:g}: expected a percentage above 0 and below 100")
    if not os.path.isdir(a.parts):
        plumbing.die(f"blocks.py: {a.parts}: no such folder of parts")
    for job, (kept, widest, ok) in blocks.status(a.parts, a.jobs, a.target, a.min).items():
        print(f"{job} {kept} {widest:.2f} {'pinned' if ok else 'open'}")


if __name__ == "__main__":
    plumbing.run_main(main, sys.argv)
