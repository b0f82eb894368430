"""runstate.py - what a run says about itself before any figure: how long it
took and how much of that was measuring, which builds it ran and why, whether
the host was disturbed, how many ratios are pinned; then the headline table,
each strategy's ratio per path component in both contexts.  summary.py and
report.py print both first.  The method: docs/method.md#blocks and
docs/method.md#a-disturbed-host.
"""
from . import benchmarks, stats
from .markdown import fmt, table
from .runfolder import baseline_of

# The host is called disturbed when, over the run, the hypervisor stole more
# than this share of the CPU time, the load average at the end exceeds the
# cores available to other work by this much, or the run-wide rule set more
# than SLOW_SHARE of the lookup processes aside (a quiet host has a few slow
# moments too: they are set aside and counted, but do not make it disturbed).
STEAL_SHARE = 0.02
LOAD_EXCESS = 0.5
SLOW_SHARE = 0.10


def _ticks_delta(load):
    a, b = (load or {}).get("start") or {}, (load or {}).get("end") or {}
    ta, tb = a.get("ticks"), b.get("ticks")
    if not ta or not tb:
        return None
    d = {k: tb[k] - ta.get(k, 0) for k in tb}
    total = sum(d.values())
    return {k: v / total for k, v in d.items()} if total > 0 else None


def _comparisons(res):
    """Every (scenario, strategy, paired()) of the run's lookups."""
    out = []
    for sc, strat in sorted(benchmarks.lookup_scenarios(res).items()):
        base = strat.get(baseline_of(strat))
        quiet = stats.quiet_processes(list(strat.values()))
        for s, e in sorted(strat.items()):
            if base and e is not base:
                out.append((sc, s, stats.paired(base, e, quiet)))
    return out


def host_state(data):
    """(disturbed: bool, [reasons], a note on the slow moments of a quiet host)
    from meta.json's host load and the samples."""
    meta, res = data["meta"], data["results"]
    why = []
    frac = _ticks_delta(meta.get("host_load"))
    if frac and frac.get("steal", 0) > STEAL_SHARE:
        why.append(f"the hypervisor stole {100 * frac['steal']:.1f}% of the CPU time")
    end = ((meta.get("host_load") or {}).get("end") or {}).get("loadavg")
    cpus = meta.get("cpus_online") or 1
    try:
        load1 = float(end.split()[0]) if end else None
    except (ValueError, IndexError):
        load1 = None
    # The run itself keeps one CPU busy.
    if load1 is not None and load1 > 1 + (cpus - 1) * LOAD_EXCESS:
        why.append(f"load average {load1:.2f} at the end on {cpus} CPUs (the run itself is 1)")
    slow, total = _host_slow_processes(res)
    note = None
    if total and len(slow) > SLOW_SHARE * total:
        why.append(f"{len(slow)} of {total} lookup processes ran in the host's slow phase (set aside)")
    elif slow:
        note = f"{len(slow)} of {total} lookup processes ran in a slow moment of the host and were set aside"
    return bool(why), why, note


def _host_slow_processes(res):
    """({(scenario without mode, pass)} the run-wide rule sets aside, how many processes there were)."""
    levels, floor = {}, None
    for name, e in res.items():
        if not name.startswith("lookup/"):
            continue
        floor = floor or e.get("host_floor")
        group = name.split("/mode:", 1)[-1].split("/", 1)[-1]
        for p, h in zip(e["counters"].get("pass", ()), e["counters"].get("host_level_ns", ())):
            levels[(group, p)] = h
    return stats.host_slow(levels, floor), len(levels)


def run_section(data):
    """The run in a few lines: time, measuring share, builds, host, pinned ratios."""
    meta, res = data["meta"], data["results"]
    lines = []
    sched = meta.get("schedule") or {}
    measured = sum(x for n, e in res.items() if n.startswith("lookup/")
                   for x in e["counters"].get("measured_ns", ())) / 1e9
    wall = sched.get("lookup_wall_s")
    if wall:
        budget = f"; its budget {sched['budget_s']} s" if sched.get("budget_s") else ""
        lines.append(f"- Time: {meta.get('elapsed_s')} s in all; the lookup groups' processes {wall:.0f} s, "
                     f"of which **{100 * measured / wall:.0f}% measuring** (timed sub-samples and their "
                     f"untimed warm passes: {measured:.0f} s){budget}.")
    hb = meta.get("host_build") or {}
    variants = [v for v in meta.get("variants") or [] if v != "plain"]
    if variants:
        lines.append(f"- Builds: plain and {', '.join(variants)}" +
                     (f", chosen from this kernel's mitigations: {hb['why']}" if hb.get("why") else "") + ".")
    disturbed, why, note = host_state(data)
    lines.append("- Host: **disturbed**: " + "; ".join(why) + "." if disturbed else
                 "- Host: quiet (no steal, no load beside the run" + (f"; {note})." if note else ")."))
    comps = _comparisons(res)
    have = [p for _, _, p in comps if p]
    pinned = [p for p in have if stats.pinned(p)]
    if have:
        lines.append(f"- Ratios pinned (95% interval within +-{stats.PIN_PCT:g}%): **{len(pinned)} of "
                     f"{len(have)}**" + ("" if len(pinned) == len(have) else
                                         "; the others are marked *not pinned* in the tables") + ".")
    groups = sched.get("lookup_groups") or []
    if groups:
        states = {}
        for g in groups:
            states[g["state"]] = states.get(g["state"], 0) + 1
        lines.append("- Lookup groups: " + ", ".join(f"{n} {s}" for s, n in sorted(states.items())) +
                     f" ({sum(g['blocks'] for g in groups)} blocks; pinned: stopped when every ratio was; "
                     "open: the cap was reached first; budget: the time ran out).")
    per_group = _group_rows(res, groups)
    if per_group:
        lines.append("\nThe lookup groups with blocks set aside or ratios not pinned:\n\n" + table(
            ["group", "blocks", "set aside: run-wide", "set aside: scenario", "ratios not pinned",
             "involuntary switches per block (median)"], per_group))
    return "## This run\n\n" + "\n".join(lines) + "\n"


def _group_rows(res, groups):
    """Per lookup scenario (mode included) with something set aside or not pinned, one row."""
    import statistics
    blocks = {}
    for g in groups:
        blocks[g["group"].split(" (")[0].replace("lookup/", "")] = g["blocks"]
    rows = []
    for sc, strat in sorted(benchmarks.lookup_scenarios(res).items()):
        q = stats.quiet_processes(list(strat.values()))
        base = strat.get(baseline_of(strat))
        loose = sum(1 for s, e in strat.items() if base and e is not base
                    and not stats.pinned(stats.paired(base, e, q)))
        slow = q["host_slow"] if q else 0
        aside = (q["processes"] - len(q["kept"]) - slow) if q else 0
        if not (loose or slow or aside):
            continue
        sw = {}
        for e in strat.values():
            for p, n in zip(e["counters"].get("pass", ()), e["counters"].get("nivcsw", ())):
                sw[p] = max(sw.get(p, 0), n)
        rows.append([sc, q["processes"] if q else 1, slow, aside, loose,
                     f"{statistics.median(sw.values()):.0f}" if sw else "n/a"])
    return rows


def _cell(p):
    if not p:
        return "n/a"
    mark = "" if p["differs"] else " ~"
    return f"{p['ratio']:.3f}{mark}" + ("" if stats.pinned(p) else " (not pinned)")


def headline_section(data):
    """Each strategy's paired ratio to direct per path component, L1 size,
    no custom ops, uniform order, warm: the bare lookup and the component
    context of each kernel generation, each build, throughput and latency."""
    scen = benchmarks.lookup_scenarios(data["results"])
    cols = {}
    for sc, strat in scen.items():
        _, a = benchmarks.parse_name("x/" + sc)
        if a.get("size") != "L1" or a.get("custom") != "0" or a.get("order") != "uniform" \
                or a.get("pollute") != "0" or a.get("depth") != "1":
            continue
        ctx = f"component, Linux {a['kernel']}" if a.get("context") == "component" else "bare lookup"
        cols.setdefault((a.get("variant", "plain"), ctx), {})[a["mode"]] = strat
    if not cols:
        return ""
    order = sorted(cols, key=lambda k: (k[0] != "plain", k[0], k[1] != "bare lookup", k[1] != "component, Linux 6.12", k[1]))
    strategies = sorted({s for c in cols.values() for strat in c.values() for s in strat})
    header = ["strategy"] + [f"{v}: {c} ({m})" for v, c in order for m in ("throughput", "latency")]
    rows = []
    base_row = ["`direct`, ns per lookup"]
    for v, c in order:
        for m in ("throughput", "latency"):
            strat = cols[(v, c)].get(m) or {}
            base = strat.get(baseline_of(strat))
            base_row.append(fmt(stats.location(base["samples"])["median"]) if base else "n/a")
    for s in strategies:
        if s == "direct":
            continue
        row = [f"`{s}`"]
        for v, c in order:
            for m in ("throughput", "latency"):
                strat = cols[(v, c)].get(m) or {}
                base = strat.get(baseline_of(strat))
                if not base or s not in strat:
                    row.append("n/a")
                else:
                    row.append(_cell(stats.paired(base, strat[s], stats.quiet_processes(list(strat.values())))))
        rows.append(row)
    return ("## Per path component\n\nEach strategy's paired ratio to `direct` (L1-sized tree, no custom "
            "ops, uniform order, warm): for the bare dcache lookup and for a whole path component as "
            "the kernel runs it (permission check, LSM hook, lookup, `step_into`; docs/model.md#context), "
            "in each build. `~`: the interval holds 1 (no measurable difference); *not pinned*: its "
            "95% interval is wider than +-1%.\n\n" + table(header, [base_row] + rows) + "\n")
