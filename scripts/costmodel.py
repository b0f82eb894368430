#!/usr/bin/env python3
"""costmodel.py - the cost model of a results folder, printed, nothing written.

    costmodel.py [--counts-from OTHER_RUN] [--] RESULTS_DIR

Reads the folder as make report does (lib/runfolder.py: benchmarks.json or
benchmarks.json.gz, meta.json, registry.json, cachesim.csv) and prints the
report's cost-model section (lib/costmodel.py): the held-out predictions of
every L1- and L2-sized difference, their share within max(one cycle, 10%) or
the CI, the median absolute error, and each coefficient beside its physical
counterpart.  --counts-from takes the simulated counts (cachesim.csv) of
another run of the same build (runfolder.with_counts_of(): clean commits
whose build inputs are the same in this repository, the same compilers and
flags), so that a second run's timings are checked against the counts of
the first without simulating again; anything else is refused.
A committed reference run is read, never written.  What the model is and how
it is validated: docs/method.md#the-cost-model.  Exit status 2 for bad input.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, costmodel  # noqa: E402
from lib.plumbing import die, run_main  # noqa: E402
from lib.runfolder import InputError, baseline_of, load_run, with_counts_of  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts-from", metavar="OTHER_RUN",
                    help="take the simulated counts (cachesim.csv) of this run of the same build: clean commits "
                         "with the same build inputs, compilers and flags")
    ap.add_argument("run", help="a complete results folder")
    args = ap.parse_args()
    try:
        data = load_run(args.run, writes=False)
        if args.counts_from:
            try:
                data = with_counts_of(data, args.counts_from)
            except (InputError, benchmarks.ResultsError) as e:
                raise InputError(f"--counts-from: {e}") from None
    except (InputError, benchmarks.ResultsError) as e:
        die(f"costmodel: {e}")
    sys.stdout.write(costmodel.section(data, baseline_of, benchmarks.lookup_scenarios(data["results"])))


if __name__ == "__main__":
    run_main(main)
