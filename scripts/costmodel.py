#!/usr/bin/env python3
"""costmodel.py - the cost model of a results folder, printed, nothing written.

    costmodel.py [--counts-from OTHER_RUN] [--] RESULTS_DIR

Reads the folder as make report does (lib/runfolder.py: benchmarks.json or
benchmarks.json.gz, meta.json, registry.json, cachesim.csv) and prints the
report's cost-model section (lib/costmodel.py): the held-out predictions of
every L1- and L2-sized difference, their share within max(one cycle, 10%) or
the CI, the median absolute error, and each coefficient beside its physical
counterpart.  --counts-from takes the simulated counts (cachesim.csv) of
another run of the same build: both runs made from clean commits whose
build inputs (runfolder.BUILD_INPUTS) are the same in this repository, with the same
compilers and flags, so that a second run's timings are checked against the
counts of the first without simulating again; anything else is refused.
A committed reference run is read, never written.  What the model is and how
it is validated: docs/method.md#the-cost-model.  Exit status 2 for bad input.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, costmodel  # noqa: E402
from lib.plumbing import run_main  # noqa: E402
from lib.runfolder import InputError, baseline_of, load_run, same_build  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts-from", metavar="OTHER_RUN",
                    help="take cachesim.csv from this run of the same build (same clean commit and compilers)")
    ap.add_argument("run", help="a complete results folder")
    args = ap.parse_args()
    try:
        data = load_run(args.run, writes=False)
        if args.counts_from:
            try:
                other = load_run(args.counts_from, writes=False)
            except (InputError, benchmarks.ResultsError) as e:
                raise InputError(f"--counts-from: {e}") from None
            if not other["cachesim_all"]:
                raise InputError(f"--counts-from {args.counts_from}: no cachesim.csv there (make cachesim RUN=)")
            why = same_build(data["meta"], other["meta"])
            if why:
                raise InputError(f"--counts-from {args.counts_from}: not the same build as {args.run}: {why}")
            data["cachesim"], data["cachesim_all"] = other["cachesim"], other["cachesim_all"]
    except (InputError, benchmarks.ResultsError) as e:
        print(f"costmodel: {e}", file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(costmodel.section(data, baseline_of, benchmarks.lookup_scenarios(data["results"])))


if __name__ == "__main__":
    run_main(main)
