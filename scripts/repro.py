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
could not pin down to the tolerance: a 95% interval (stats.paired(), over
the blocks) wider than +-tolerance in either run, and how many differ by
more than 1.96 combined standard errors.  Such a
ratio moves within one run as much as between two; a disagreement of a ratio
that both runs pinned down is the one that says the method lost something.
Each row also says from how many of its processes each ratio comes (the
rest ran in the host's slow state: stats.quiet_processes()).  Last, where A
and B are folders of the same build (runfolder.same_build()) and A has
simulated counts (make cachesim), the cost model's held-out figures in both
runs, B priced with A's counts (runfolder.with_counts_of()), and whether
both leave the same residual shift in each scenario group (lib/costmodel.py).
Exit status 0 whether or not they agree (it reports; it does not judge);
2 on bad input: a folder that is no complete run (its meta.json checked as
the report checks it), or A and B the same run.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, costmodel, pattern, plumbing, runfolder, stats  # noqa: E402
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
    counts), and whether both runs leave the same shift in each scenario
    group, as Markdown lines; or one line saying why there are none."""
    head = "\n## Cost model in both runs\n"
    if not (os.path.isdir(path_a) and os.path.isdir(path_b)):
        return []
    try:
        a = runfolder.load_run(path_a, writes=False)
        b = runfolder.with_counts_of(runfolder.load_run(path_b, writes=False), path_a)
    except (runfolder.InputError, benchmarks.ResultsError) as e:
        return [head, f"Not computed: {e}."]
    rows, got = [], []
    # B's row opens with costmodel.REPRO_ROW, by which the report finds it again
    for start, data in (("| A | ", a), (costmodel.REPRO_ROW, b)):
        g, why = costmodel.model(data, runfolder.baseline_of, benchmarks.lookup_scenarios(data["results"]),
                                 bootstrap=False)
        if g is None:
            return [head, f"Not computed for {'A' if data is a else 'B'}: {why}."]
        sums = [g["folds"][label]["summary"] for label, _ in costmodel.FOLDS]
        rows.append(start + " | ".join(costmodel.held_cell(s) for s in sums) + " |")
        got.append(g)
    return [head, "Each difference predicted by the fit that did not see its scenario group, strategy or size "
            "class (docs/method.md#the-cost-model): the share within max(one cycle, 10%) or the CI, and "
            "the median absolute error in ns.\n",
            "| run | scenario group held out | strategy held out | size class held out |", "|---|---|---|---|",
            *rows, "", costmodel.shift_line(got[0]["shared"]["offsets"], got[1]["shared"]["offsets"])]


def arguments():
    """The command line, checked: exit status 2 on a bad one."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--match", default=r"size:(L1|L2)/", help="regex over the scenario names")
    ap.add_argument("--tolerance", type=float, default=3.0, help="percent (default 3)")
    ap.add_argument("--out", help="also write the table to this Markdown file")
    args = ap.parse_args()
    if not 0 < args.tolerance < 100:
        plumbing.die(f"repro: --tolerance {args.tolerance:g}: give a percentage above 0 and below 100")
    if runfolder.same_run(args.a, args.b):
        plumbing.die(f"repro: A={args.a} and B={args.b} are the same run: give two different runs")
    if args.out is not None:
        try:
            runfolder.check_out(args.out, (args.a, args.b))
        except runfolder.InputError as e:
            plumbing.die(f"repro: {e}")
    try:
        args.match = pattern.compile_filter(args.match)
    except ValueError as e:
        plumbing.die(f"repro: --match {args.match!r}: {e}")
    return args


def compare(a, b, match, tol):
    """Every ratio both runs have, for scenarios @match finds: (table rows,
    [(wide, row)] of those not within @tol, the largest |B/A - 1|, and
    [|B/A - 1|] of those both runs pinned)."""
    rows, misses, worst, pinned, beyond = [], [], 0.0, [], 0
    for sc in sorted(pattern.matching(match, set(a) & set(b))):
        (_, rows_a), (_, rows_b) = a[sc], b[sc]
        for s in sorted(set(rows_a) & set(rows_b)):
            pa, pb = rows_a[s]["paired"], rows_b[s]["paired"]
            if not pa or not pb:
                continue
            d = pb["ratio"] / pa["ratio"] - 1
            wide = width(pa) > tol or width(pb) > tol
            worst = max(worst, abs(d))
            if stats.pinned(pa) and stats.pinned(pb):
                pinned.append(abs(d))
            # Beyond the two runs' combined standard errors: with honest
            # intervals, about 5% of the ratios.
            se = (pa["ratio_se"] ** 2 + pb["ratio_se"] ** 2) ** 0.5
            beyond += abs(pb["ratio"] - pa["ratio"]) > 1.96 * se
            verdict = "yes" if abs(d) <= tol else ("no (wide)" if wide else "no")
            rows.append(f"| {sc} | {s} | {cell(pa)} | {cell(pb)} | {d * 100:+.1f}% | {verdict} | "
                        f"{procs(pa)}, {procs(pb)} |")
            if abs(d) > tol:
                misses.append((wide, rows[-1]))
    return rows, misses, worst, pinned, beyond


def main():
    args = arguments()
    try:
        a, b = load(args.a), load(args.b)
    except benchmarks.ResultsError as e:
        plumbing.die(f"repro: {e}")
    tol, pct = args.tolerance / 100, f"{args.tolerance:g}%"
    try:
        rows, misses, worst, pinned, beyond = compare(a, b, args.match, tol)
    except pattern.TooSlow as e:
        plumbing.die(f"repro: --match {args.match.pattern!r}: {e}")
    if not rows:
        plumbing.die(f"repro: no scenario matching {args.match.pattern!r} with paired rounds in both runs")
    lines = [f"# Reproducibility: {args.a} against {args.b}\n",
             "Paired ratio to the baseline (the mean over blocks of each block's median per-round "
             "ratio) in each run, with its 95% t interval over the blocks (docs/method.md#statistics), "
             "and the difference B/A - 1. "
             f"Agreement: within {pct}. A ratio is *wide* where an interval reaches "
             f"further than {pct} from it: that run could not pin it down to the "
             "tolerance by itself (marked on the ratios that do not agree). *Processes*: how many "
             "of the processes that measured the scenario the ratio comes from; the others ran in "
             f"the host's slow state (a level more than {stats.QUIET_SLACK:g}x the quietest "
             "process's) and are set aside.\n", *HEADER, *rows]
    if misses:
        lines += [f"\n## Not within {pct}\n", *HEADER, *(row for _, row in misses)]
    lines.append(f"\n{len(rows) - len(misses)} of {len(rows)} ratios agree within {pct}; "
                 f"the largest difference is {worst * 100:.1f}%. Of the {len(misses)} that do not, "
                 f"{sum(wide for wide, _ in misses)} are wide in at least one run.")
    lines.append(f"{beyond} of {len(rows)} ratios ({100 * beyond / len(rows):.1f}%) differ by more than "
                 "1.96 combined standard errors (with intervals that hold, about 5%).")
    if pinned:
        lines.append(f"Of the {len(pinned)} ratios both runs call pinned (95% interval over at least "
                     f"{stats.MIN_PIN_BLOCKS} blocks within +-{stats.PIN_PCT:g}%), "
                     f"{sum(x <= tol for x in pinned)} agree within "
                     f"{pct} (largest {max(pinned) * 100:.1f}%); {len(rows) - len(pinned)} "
                     "are not pinned in at least one run.")
    lines += costmodel_lines(args.a, args.b)
    text = "\n".join(lines) + "\n"
    if args.out:
        plumbing.write_atomic(args.out, text)
    print(text, end="")


if __name__ == "__main__":
    plumbing.run_main(main)
