#!/usr/bin/env python3
"""report.py - turn a results folder into report.md, plots and claims.json.

    report.py [--no-plots] [--check] [--] RESULTS_DIR

Reads benchmarks.json (or benchmarks.json.gz) and meta.json (required), and
cachesim.csv, disasm.json and hyperfine.json where present, and links perf.md.  Writes
RESULTS_DIR/report.md, RESULTS_DIR/claims.json and RESULTS_DIR/plots/.
Refuses an incomplete run (an INCOMPLETE file), a committed reference run
(unless WRITE_REFERENCE=1), and names the file for any input that is
missing or malformed (lib/runfolder.py).  Exit status 2 for bad input.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import runstate, benchmarks, claims, costmodel, kernelwalk, plots, provenance, regulator_report  # noqa: E402
from lib.plumbing import die, run_main, write_atomic  # noqa: E402
from lib.runfolder import InputError, baseline_of, load_run  # noqa: E402
from lib.sections import (calibration_section, dispatch_section, lookup_section,  # noqa: E402
                          isa_section, machine_section, variants_section)


def evaluate(data):
    """The claims' verdicts: plain; per other build; per component context
    (kernel generation and build); on arm64's simulated counts."""
    verdicts = claims.evaluate(data)
    # The claims again on each other build's timings and simulated counts (disassembly stays plain).
    by_variant = {}
    for v in data["meta"].get("variants") or []:
        view = claims.variant_view(data, v) if v != "plain" else None
        if view:
            by_variant[v] = claims.evaluate(view)
    # And on the component context's timings, each kernel generation and build.
    by_context = {}
    for v in data["meta"].get("variants") or ["plain"]:
        for k in ("6.12", "6.1"):
            view = claims.context_view(data, k, v if v != "plain" else None)
            if view:
                by_context[f"component context, Linux {k}, {v} build"] = claims.evaluate(view)
    # The claims resting on simulated counts, on arm64's machine code too.
    arm = claims.isa_view(data, "arm64") if data["meta"].get("arch") not in ("arm64", "aarch64") else None
    by_isa = {fn.__name__: fn(arm) for fn in claims.ISA_CLAIMS} if arm else {}
    return verdicts, by_variant, by_context, by_isa


def top_notes(run, data, verdicts):
    """What the report says before anything else: files of several builds, claims waiting."""
    try:
        builds = provenance.builds(run, data["meta"])
    except (OSError, ValueError) as e:
        die(f"report: {e}")
    mixed = ""
    if len(builds) > 1:
        mixed = ("**Mixed builds: this folder's files come from more than one build**, so its numbers "
                 "may not be comparable (provenance.json): " +
                 "; ".join(f"`{c}`: {', '.join(sorted(f))}" for c, f in sorted(builds.items())) + ".\n")
        print(f"report: warning: {run}: files from {len(builds)} builds (see provenance.json)",
              file=sys.stderr)
    waiting = [c for c in verdicts if "make cachesim" in c["verdict"]]
    if waiting and not data["cachesim"]:
        mixed += (f"**{len(waiting)} of the {len(verdicts)} claims wait for simulated counts.** "
                  f"`make cachesim RUN={run}` simulates every scenario and strategy of each build "
                  "this run measured under valgrind, one after another (minutes per build; it prints "
                  "the time left), then `make report` tests them.\n")
    return mixed


def claim_parts(verdicts, by_variant, by_context, by_isa):
    """Each claim with its verdict, and where another build, context or instruction set differs."""
    parts = []
    context_lines = 0
    for i, c in enumerate(verdicts, 1):
        parts.append(f"### {i}. {c['claim']}\n\n*Test:* {c['test']}.\n\n" +
                     "".join(f"- {n}\n" for n in c["numbers"]) + f"\n**Verdict: {c['verdict']}.**\n")
        isa = by_isa.get(claims.ALL[i - 1].__name__)
        if isa:
            c["arm64"] = isa
            parts.append(f"**On arm64 (simulated, plain build):** {isa['verdict']}.\n\n" +
                         "".join(f"- arm64: {n}\n" for n in isa["numbers"]))
        same = [v for v, vv in by_variant.items() if vv[i - 1]["verdict"] == c["verdict"]]
        untested = [v for v, vv in by_variant.items() if vv[i - 1]["verdict"].startswith("not tested")]
        if same:
            parts.append(f"Under the {', '.join(same)} build{'s' if len(same) > 1 else ''}: the same verdict.\n")
        if untested:
            parts.append(f"Not tested under the {', '.join(untested)} build (its timings lack this claim's "
                         "scenarios, or make cachesim did not simulate that build).\n")
        for v, vv in by_variant.items():
            r = vv[i - 1]
            if v in same or v in untested:
                continue
            parts.append(f"**Under the {v} build the verdict changes:** " + r["verdict"] + ".\n\n" +
                         "".join(f"- {v}: {n}\n" for n in r["numbers"]))
        for ctx, cc in by_context.items():
            r = cc[i - 1]
            if r["verdict"].startswith("not tested"):
                continue
            base = (by_variant.get(ctx.rsplit(", ", 1)[1].replace(" build", "")) or verdicts)[i - 1] \
                if not ctx.endswith("plain build") else c
            if r["numbers"] == base["numbers"]:
                continue            # no timing of the context enters this claim
            context_lines += 1
            if r["verdict"] == base["verdict"]:
                parts.append(f"In the {ctx}: the same verdict.\n")
            else:
                parts.append(f"**In the {ctx} the verdict changes:** " + r["verdict"] + ".\n\n" +
                             "".join(f"- {ctx}: {n}\n" for n in r["numbers"]))
    if by_context and not context_lines:
        parts.append("The claims were evaluated again on the component context's timings ("
                     + "; ".join(by_context) + "): none of their tests rests on a scenario that context "
                     "has (they use the dispatch group, cold lookups and simulated counts), so no verdict "
                     "changes there; its ratios are the first table above.\n")
    return parts


def tail_parts(run, data, made, skipped_plots, lookups):
    """The machine, the plots and the sections of measured data, in the report's order."""
    meta = data["meta"]
    parts = [machine_section(meta) + "\n"]
    if made:
        parts.append("## Plots\n")
        for stem, title in made:
            parts.append(f"**{title}**\n\n![{title}](plots/{stem}.png)\n")
        for name, why in skipped_plots.items():
            parts.append(f"- plot `{name}` not drawn: {why}\n")
    parts.append(lookups)
    parts.append(isa_section(data))
    parts.append(variants_section(data["results"]))
    parts.append(costmodel.section(data, baseline_of, benchmarks.lookup_scenarios(data["results"])))
    parts.append(dispatch_section(data["results"]))
    parts.append(regulator_report.regulator_section(data["results"]))
    parts.append(regulator_report.stop_mattering_section(data["results"]))
    parts.append(kernelwalk.kernel_section(data))
    parts.append(calibration_section(data["results"], meta))
    if data["skipped"]:
        parts.append("## Skipped benchmarks\n\n" + "".join(f"- {n}: {m}\n" for n, m in sorted(data["skipped"].items())))
    for extra, title in (("perf.md", "perf stat"), ("hyperfine.md", "hyperfine"), ("disasm.md", None)):
        path = os.path.join(run, extra)
        if os.path.exists(path) and title:
            parts.append(f"## {title}\n\nSee [{extra}]({extra}).\n")
    if os.path.exists(os.path.join(run, "disasm.md")):
        parts.append("## Machine code of the dispatch sites\n\nSee [disasm.md](disasm.md).\n")

    return parts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--no-plots", action="store_true", help="skip gnuplot (tests)")
    ap.add_argument("--check", action="store_true",
                    help="check that RUN is a complete, readable run and exit: writes nothing")
    args = ap.parse_args()
    try:
        data = load_run(args.run)
        if args.check:
            return
        made, skipped_plots = ([], {}) if args.no_plots else \
            plots.make_all(args.run, data["results"], data["meta"], data["cachesim"])
        verdicts, by_variant, by_context, by_isa = evaluate(data)
        lookups = lookup_section(data)
        head = runstate.headline_section(data) + "\n" + runstate.run_section(data) + "\n" + \
            runstate.variance_section(data["results"])
    except (InputError, benchmarks.ResultsError, plots.PlotError) as e:
        die(f"report: {e}")

    meta = data["meta"]
    parts = [f"# opsbench report: {meta.get('host')} ({meta.get('arch')}), {meta.get('date')}\n",
             top_notes(args.run, data, verdicts),
             "Made by `make report` from this folder's data; every number below comes from the files "
             "beside it. Lookup times come from paired rounds (see *Lookups, measured*); counters are "
             "labelled measured (PMU) or simulated (callgrind).\n",
             head,
             "## Claims of the article\n",
             "Neil Brown, \"Object-oriented design patterns in the kernel, part 1\" (LWN, 2011). Each "
             "verdict is derived by `scripts/lib/claims.py` from the data, not written by hand; a timed "
             "verdict states the smallest difference its data could have detected (MDE), and a claim "
             "that holds by construction says so.\n"]
    parts += claim_parts(verdicts, by_variant, by_context, by_isa)
    parts += tail_parts(args.run, data, made, skipped_plots, lookups)
    for name, text in (("report.md", "\n".join(parts)),
                       ("claims.json", json.dumps(verdicts, indent=1) + "\n")):
        write_atomic(os.path.join(args.run, name), text, args.run)
    provenance.record(args.run, ["report.md", "claims.json"], provenance.tree_commit(), "plain", "make report")
    print(f"report: wrote {os.path.join(args.run, 'report.md')} ({len(made)} plots)")
    for c in verdicts:
        print(f"  - {c['verdict']}: {c['claim']}")


if __name__ == "__main__":
    run_main(main)
