"""regulator_report.py - the report's second case study (the regulator) and
the two case studies side by side ("Where dispatch stops mattering").

Regulator benchmarks (bench/regulator.c) are plain repetitions: each
strategy's median ns per call with its 95% CI (stats.summarize), and the
difference to the regulator baseline (null_tested, the commit's own code)
with its share of the path's time.  Side by side, for each path: the
spread of the strategies (slowest median minus fastest) as a share of the
baseline path's time; for the dentry lookups the same from the 10th
percentiles of the warm L1 and L2 scenarios.  The case study itself:
docs/regulator.md.
"""
from . import benchmarks, stats
from .markdown import fmt, table

REG_BASELINE = "null_tested"


def regulator_groups(res):
    """{(path, driver, delay): {strategy: summary}} of the plain build's regulator benchmarks."""
    groups = {}
    for name, e in res.items():
        words, args = benchmarks.parse_name(name)
        if words[0] != "regulator" or len(words) < 2 or "variant" in args:
            continue
        key = (args.get("path", "?"), args.get("driver", "?"), args.get("delay", "?"))
        groups.setdefault(key, {})[words[1]] = stats.summarize(e["samples"])
    return groups


def regulator_section(res):
    groups = regulator_groups(res)
    if not groups:
        return ""
    rows = []
    for key in sorted(groups):
        strat = groups[key]
        base = strat.get(REG_BASELINE)
        for s, st in strat.items():
            diff = share = "n/a"
            if base and s != REG_BASELINE:
                d = st["median"] - base["median"]
                mark = "" if stats.differs(st, base) else " ~"
                diff = f"{d:+.2f}{mark}"
                share = f"{100 * d / base['median']:+.3f}%{mark}"
            rows.append([*key, s, fmt(st["median"]), f"[{fmt(st['ci'][0])}, {fmt(st['ci'][1])}]",
                         diff, share])
    return ("## The regulator: a cold path (second case study)\n\n"
            "`regulator_set_voltage()` and `regulator_enable()` (src/regulator/core.h, after Linux commits "
            "77af1b2641fa and 42ab616afe88) under each strategy: on a driver without the timing ops "
            "(`plain`: the optional op absent) and on one like ab8500 (present), its settling delay waited "
            "for (`delay:spin`, a calibrated spin of 50 us) or only counted (`delay:none`). Median ns per "
            f"call over the repetitions with its 95% CI; the difference to `{REG_BASELINE}` (the commit's own "
            "code) in ns and as a share of its path; `~`: the CIs overlap (no measurable difference). "
            "`default_ops` reads the old selector on every call of every driver (its default "
            "`set_voltage_time_sel` needs it): a register read the NULL tests avoid.\n\n" +
            table(["path", "driver", "delay", "strategy", "ns/call (median)", "95% CI",
                    f"vs {REG_BASELINE} (ns)", "share of the path"], rows) + "\n")


def stop_mattering(res):
    """[(label, path ns, spread ns, share, measurable)] for the dentry lookups and the
    regulator paths; measurable: some strategy's CI (regulator) clears the baseline's."""
    out = []
    for name in ("L1", "L2"):
        locs = {}
        for n, e in res.items():
            words, args = benchmarks.parse_name(n)
            if (words[0] == "lookup" and len(words) > 1 and args.get("size") == name and
                    args.get("custom") == "0" and args.get("order") == "uniform" and
                    args.get("pollute") == "0" and args.get("mode") == "throughput" and
                    args.get("depth") == "1" and "variant" not in args):
                locs[words[1]] = stats.location(e["samples"])["p10"]
        if len(locs) > 1 and locs.get("direct"):
            spread = max(locs.values()) - min(locs.values())
            out.append((f"dentry lookup, {name}, warm", locs["direct"], spread, spread / locs["direct"], None))
    for key, strat in sorted(regulator_groups(res).items()):
        meds = {s: st["median"] for s, st in strat.items()}
        base = meds.get(REG_BASELINE)
        if base and len(meds) > 1:
            spread = max(meds.values()) - min(meds.values())
            measurable = any(stats.differs(st, strat[REG_BASELINE]) for s, st in strat.items()
                             if s != REG_BASELINE)
            out.append((f"regulator {key[0]}, {key[1]}, delay {key[2]}", base, spread, spread / base,
                        measurable))
    return out


def stop_mattering_section(res):
    rows = stop_mattering(res)
    if not rows:
        return ""
    return ("## Where dispatch stops mattering\n\n"
            "Both case studies side by side: for each path, the spread between the strategies (slowest "
            "minus fastest; dentry lookups: 10th percentiles, plain build, no custom ops; regulator: "
            "medians) against the time of the path itself (the baseline's), and that spread as a share "
            "of the path (plot `dispatch-share`). For the regulator, *measurable* says whether any "
            "strategy's 95% CI clears the baseline's: where none does, the spread is the path's own "
            "noise (a settling delay's jitter), and dispatch has stopped mattering.\n\n" +
            table(["path", "path ns", "spread between strategies (ns)", "share of the path", "measurable"],
                   [[label, fmt(path), fmt(spread), f"{100 * share:.3f}%",
                     "n/a (paired ratios above)" if m is None else ("yes" if m else "no")]
                    for label, path, spread, share, m in rows]) + "\n")
