#!/usr/bin/env python3
"""summary.py - the console summary of a results folder.

    summary.py RESULTS_DIR

Prints, and writes as RESULTS_DIR/summary.md, the tables of the report
without its plots and claims: per lookup scenario each strategy's median
ns/lookup, 95% CI, CV and ratio to the baseline (direct, or default_ops
where direct cannot run; '~' where the CIs overlap: no measurable
difference), then the dispatch and calibration figures.  make bench runs it
at the end of every run; make report gives the full report.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: summary.py RESULTS_DIR")
    try:
        data = report.load_run(argv[1])
    except report.InputError as e:
        print(f"summary: {e}", file=sys.stderr)
        sys.exit(2)
    text = "\n".join(s for s in (
        "# opsbench summary\n\nTimes are Google Benchmark real time, medians over repetitions; "
        "`make report` adds plots and the article's claims.\n",
        report.lookup_section(data),
        report.dispatch_section(data["results"]),
        report.calibration_section(data["results"], data["meta"])) if s)
    tmp = os.path.join(argv[1], "summary.md.part")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(argv[1], "summary.md"))
    print(text)


if __name__ == "__main__":
    main(sys.argv)
