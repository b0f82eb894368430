#!/usr/bin/env python3
"""repro.py - do two separate runs agree?  Per lookup scenario and strategy,
the paired ratio to the baseline (scripts/lib/stats.py) in run A and in run B,
and their difference, with each run's 95% interval of its ratio.

    repro.py A B [--match REGEX] [--tolerance PCT] [--out FILE.md]

A and B are results folders (their benchmarks.json or benchmarks.json.gz) or
Google Benchmark JSON files.  --match keeps the scenarios whose name (mode and args) matches, by
default the L1- and L2-sized scenarios.  Prints a Markdown table, then the
ratios that do not agree within --tolerance percent (default 3) again, and,
then how many agree, and how many of those that do not the runs themselves
could not pin down to the tolerance: a 95% interval (stats.paired(), which
resamples the processes too) wider than +-tolerance in either run.  Such a
ratio moves within one run as much as between two; a disagreement of a ratio
that both runs pinned down is the one that says the method lost something.
Each row also says from how many of its processes each ratio comes (the
rest ran in the host's slow state: stats.quiet_processes()).  Last, where A
and B are folders of the same build (runfolder.same_build()) and A has
simulated counts (make cachesim), the cost model's held-out figures in both
runs, B priced with A's counts (lib/costmodel.py).
Exit status 0 whether or not they agree (it reports; it does not judge);
2 on bad input: a folder that is no complete run (its meta.json checked as
the report checks it), or A and B the same run.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, costmodel, plumbing, runfolder, stats  # noqa: E402
from lib.sections import compare_scenario  # noqa: E402


def load(path):
    if os.path.isdir(path):
        # A results folder is read as every tool reads one: complete, and a
        # meta.json the report would take.
        try:
            runfolder.check_run(path, writes=False)
        except runfolder.InputError as e:
            raise benchmarks.ResultsError(str(e)) from None
    res, _ = benchmarks.load_gb(path)
    return {sc: compare_scenario(strat) for sc, strat in benchmarks.lookup_scenarios(res).items()}


HEADER = ["| scenario | strategy | ratio A [95% CI] | ratio B [95% CI] | B/A - 1 | agree | processes A, B |",
          "|---|---|---|---|---|---|---|"]


def width(p):
    """How far the 95% interval of paired ratio @p reaches from the ratio, relatively."""
    lo, hi = p["ratio_ci"]
    return max(p["ratio"] - lo, hi - p["ratio"]) / p["ratio"]


def cell(p):
    return f"{p['ratio']:.3f} [{p['ratio_ci'][0]:.3f}, {p['ratio_ci'][1]:.3f}]"


def procs(p):
    """The processes a ratio came from, of those that measured it ("5 of 8")."""
    return f"{p['processes']} of {p['processes'] + p['set_aside']}"


def costmodel_lines(path_a, path_b):
    """The cost model's held-out figures in run A and in run B (with A's
    counts), as Markdown lines; or one line saying why there are none."""
    head = "\n## Cost model in both runs\n"
    if not (os.path.isdir(path_a) and os.path.isdir(path_b)):
        return []
    try:
        a = runfolder.load_run(path_a, writes=False)
        b = runfolder.load_run(path_b, writes=False)
    except (runfolder.InputError, benchmarks.ResultsError) as e:
        return [head, f"Not computed: {e}."]
    if not a["cachesim_all"]:
        return [head, "Not computed: A has no simulated counts (make cachesim RUN=A)."]
    why = runfolder.same_build(a["meta"], b["meta"])
    if why:
        return [head, f"Not computed: B is not the same build as A, so A's counts do not price it: {why}."]
    b["cachesim"], b["cachesim_all"] = a["cachesim"], a["cachesim_all"]
    rows = []
    # B's row opens with costmodel.REPRO_ROW, by which the report finds it again
    for start, data in (("| A | ", a), (costmodel.REPRO_ROW, b)):
        got, why = costmodel.model(data, runfolder.baseline_of, benchmarks.lookup_scenarios(data["results"]))
        if got is None:
            return [head, f"Not computed for {'A' if data is a else 'B'}: {why}."]
        sums = [got["folds"][label]["summary"] for label, _ in costmodel.FOLDS]
        cells = [f"{s['held']} of {s['n']} ({s['share'] * 100:.0f}%), {s['median_abs']:.2f} ns" for s in sums]
        rows.append(start + " | ".join(cells) + " |")
    return [head, "Each difference predicted by the fit that did not see its scenario group, strategy or size "
            "class (docs/method.md#the-cost-model): the share within max(one cycle, 10%) or the CI, and "
            "the median absolute error in ns.\n",
            "| run | scenario group held out | strategy held out | size class held out |", "|---|---|---|---|",
            *rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--match", default=r"size:(L1|L2)/", help="regex over the scenario names")
    ap.add_argument("--tolerance", type=float, default=3.0, help="percent (default 3)")
    ap.add_argument("--out", help="also write the table to this Markdown file")
    args = ap.parse_args()
    if not args.tolerance > 0:
        print(f"repro: --tolerance {args.tolerance:g}: give a percentage above 0", file=sys.stderr)
        sys.exit(2)
    if os.path.exists(args.a) and os.path.exists(args.b) and os.path.samefile(args.a, args.b):
        print(f"repro: A={args.a} and B={args.b} are the same run: give two different runs",
              file=sys.stderr)
        sys.exit(2)
    try:
        match = re.compile(args.match)
        a, b = load(args.a), load(args.b)
    except re.error as e:
        print(f"repro: --match {args.match!r}: {e}", file=sys.stderr)
        sys.exit(2)
    except benchmarks.ResultsError as e:
        print(f"repro: {e}", file=sys.stderr)
        sys.exit(2)
    tol = args.tolerance / 100
    lines = [f"# Reproducibility: {args.a} against {args.b}\n",
             "Paired ratio to the baseline (median of per-round ratios) in each run, with its 95% "
             "bootstrap interval (processes, then rounds, resampled), and the difference B/A - 1. "
             f"Agreement: within {args.tolerance:g}%. A ratio is *wide* where an interval reaches "
             f"further than {args.tolerance:g}% from it: that run could not pin it down to the "
             "tolerance by itself (marked on the ratios that do not agree). *Processes*: how many "
             "of the processes that measured the scenario the ratio comes from; the others ran in "
             f"the host's slow state (a level more than {stats.QUIET_SLACK:g}x the quietest "
             "process's) and are set aside.\n"] + HEADER
    misses = []
    total = 0
    worst = 0.0
    pinned = []                  # (|B/A - 1|) of the ratios both runs call pinned
    for sc in sorted(set(a) & set(b)):
        if not match.search(sc):
            continue
        base_a, rows_a = a[sc]
        base_b, rows_b = b[sc]
        for s in sorted(set(rows_a) & set(rows_b)):
            pa, pb = rows_a[s]["paired"], rows_b[s]["paired"]
            if not pa or not pb:
                continue
            d = pb["ratio"] / pa["ratio"] - 1
            wide = width(pa) > tol or width(pb) > tol
            total += 1
            worst = max(worst, abs(d))
            ok = abs(d) <= tol
            if stats.pinned(pa) and stats.pinned(pb):
                pinned.append(abs(d))
            verdict = "yes" if ok else ("no (wide)" if wide else "no")
            row = (f"| {sc} | {s} | {cell(pa)} | {cell(pb)} | {d * 100:+.1f}% | {verdict} | "
                   f"{procs(pa)}, {procs(pb)} |")
            lines.append(row)
            if not ok:
                misses.append((wide, row))
    if not total:
        print(f"repro: no scenario matching {args.match!r} with paired rounds in both runs", file=sys.stderr)
        sys.exit(2)
    if misses:
        lines += [f"\n## Not within {args.tolerance:g}%\n"] + HEADER + [row for _, row in misses]
    n_wide = sum(wide for wide, _ in misses)
    lines.append(f"\n{total - len(misses)} of {total} ratios agree within {args.tolerance:g}%; "
                 f"the largest difference is {worst * 100:.1f}%. Of the {len(misses)} that do not, "
                 f"{n_wide} are wide in at least one run.")
    if pinned:
        lines.append(f"Of the {len(pinned)} ratios both runs call pinned (95% interval within "
                     f"+-{stats.PIN_PCT:g}%), {sum(x <= tol for x in pinned)} agree within "
                     f"{args.tolerance:g}% (largest {max(pinned) * 100:.1f}%); {total - len(pinned)} "
                     "are not pinned in at least one run.")
    lines += costmodel_lines(args.a, args.b)
    text = "\n".join(lines) + "\n"
    if args.out:
        plumbing.write_atomic(args.out, text)
    print(text, end="")


if __name__ == "__main__":
    plumbing.run_main(main)
