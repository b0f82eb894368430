#!/usr/bin/env python3
"""summary.py - the console summary of a results folder.

    summary.py [--] RESULTS_DIR

Prints, and writes as RESULTS_DIR/summary.md, the tables of the report
without its plots and claims: per lookup scenario and timing mode each
strategy's 10th percentile, minimum and median ns/lookup and its paired
ratio to the baseline (direct, or null_tested where direct cannot run;
'~' where the interval holds 1: no measurable difference), then the
dispatch and calibration figures.  make bench runs it
at the end of every run; make report gives the full report.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, kernelwalk, plumbing, regulator_report, runstate  # noqa: E402
from lib.runfolder import InputError, load_run  # noqa: E402
from lib.sections import calibration_section, dispatch_section, lookup_section  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(prog="summary.py", description="The console summary of a results "
                                 "folder, also written as RESULTS_DIR/summary.md.")
    ap.add_argument("folder", metavar="RESULTS_DIR")
    argv = [argv[0], ap.parse_args(argv[1:]).folder]
    try:
        data = load_run(argv[1])
        lookups = lookup_section(data)
        head = runstate.headline_section(data) + "\n" + runstate.run_section(data) + "\n" + \
            runstate.variance_section(data["results"])
    except (InputError, benchmarks.ResultsError) as e:
        plumbing.die(f"summary: {e}")
    text = "\n".join(s for s in (
        "# opsbench summary\n\nLookups: minima, 10th percentiles and medians over rounds, and "
        "paired ratios to the baseline (see the method below); dispatch and calibration: medians over "
        "repetitions of Google Benchmark real time. `make report` adds plots and the article's "
        "claims.\n",
        head,
        lookups,
        dispatch_section(data["results"]),
        regulator_report.regulator_section(data["results"]),
        regulator_report.stop_mattering_section(data["results"]),
        kernelwalk.kernel_section(data),
        calibration_section(data["results"], data["meta"])) if s)
    plumbing.write_atomic(os.path.join(argv[1], "summary.md"), text, argv[1])
    print(text)


if __name__ == "__main__":
    plumbing.run_main(main, sys.argv)
