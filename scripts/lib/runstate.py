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
    """({(scenario without mode, pass)} the run-wide rule sets aside, how
    many processes there were): each process against its own build's quiet
    level (load_gb()'s "host_floor")."""
    levels, floors = {}, {}
    for name, e in res.items():
        if not name.startswith("lookup/"):
            continue
        group = name.split("/mode:", 1)[-1].split("/", 1)[-1]
        floors.setdefault(stats.build_of(group), e.get("host_floor"))
        for p, h in zip(e["counters"].get("pass", ()), e["counters"].get("host_level_ns", ())):
            levels[(group, p)] = h
    slow = set()
    for b, floor in floors.items():
        slow |= stats.host_slow({k: v for k, v in levels.items() if stats.build_of(k[0]) == b}, floor)
    return slow, len(levels)


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
        lines.append(f"- Ratios pinned (95% interval over at least {stats.MIN_PIN_BLOCKS} blocks within "
                     f"+-{stats.PIN_PCT:g}%): **{len(pinned)} of {len(have)}**" +
                     ("" if len(pinned) == len(have) else
                      "; the others are marked *not pinned* in the tables") + ".")
        two = [p for p in have if p.get("levels")]
        few = [p for p in have if p["processes"] < stats.MIN_PIN_BLOCKS]
        loose = [p for p in have if not stats.pinned(p) and not p.get("levels")]
        lines.append(f"- Two-level ratios (blocks in two clusters at least {stats.TWO_LEVEL_PCT:g}% apart, "
                     f"docs/method.md#two-level-ratios): **{len(two)}** ({sum(map(stats.pinned, two))} of them "
                     f"pinned all the same); pinned or named two-level: {len(have) - len(loose)} of {len(have)}"
                     + (f"; on fewer than {stats.MIN_PIN_BLOCKS} blocks: {len(few)}" if few else "") + ".")
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
                    row.append(stats.ratio_cell(stats.paired(base, strat[s], stats.quiet_processes(list(strat.values())))))
        rows.append(row)
    return ("## Per path component\n\nEach strategy's paired ratio to `direct` (L1-sized tree, no custom "
            "ops, uniform order, warm): for the bare dcache lookup and for a whole path component as "
            "the kernel runs it (permission check, LSM hook, lookup, `step_into`; docs/model.md#context), "
            "in each build. `~`: the interval holds 1 (no measurable difference); *not pinned*: its "
            f"95% interval is wider than +-{stats.PIN_PCT:g}% or rests on fewer than {stats.MIN_PIN_BLOCKS} "
            "blocks; *two levels*: its blocks fall into two clusters, each given with its share.\n\n" + table(header, [base_row] + rows) + "\n")


def _kind(sc):
    """A scenario's kind: its mode, context (with the kernel) and build."""
    _, a = benchmarks.parse_name("x/" + sc)
    ctx = f"component {a['kernel']}" if a.get("context") == "component" else "bare lookup"
    return f"{a.get('mode')}, {ctx}, {a.get('variant', 'plain')}"


def variance_section(res):
    """Per scenario kind, the median share of a ratio's variance that is
    layout, block (process) and round (stats.variance_components())."""
    kinds = {}
    for sc, strat in benchmarks.lookup_scenarios(res).items():
        base = strat.get(baseline_of(strat))
        q = stats.quiet_processes(list(strat.values()))
        for s, e in strat.items():
            if base and e is not base:
                vc = stats.variance_components(base, e, q["kept"] if q else None)
                if vc:
                    kinds.setdefault(_kind(sc), []).append(vc)
    if not kinds:
        return ""
    import statistics
    rows = []
    for k, vcs in sorted(kinds.items()):
        def share(level):
            xs = [v[level] / t for v in vcs if v[level] is not None
                  for t in [sum(x for x in v.values() if x is not None)] if t > 0]
            return f"{100 * statistics.median(xs):.0f}%" if xs else "n/a"
        rows.append([k, len(vcs), share("layout"), share("block"), share("round")])
    return ("## Where the variance is\n\nPer scenario kind, the median over its ratios of the share of "
            "a per-round ratio's variance that comes from the code layout, from the block (the process, "
            "its placement and its stack offset) and from the round (Kalibera and Jones' variance "
            "components, docs/method.md#statistics). n/a: one layout in the run.\n\n" +
            table(["kind (mode, context, build)", "ratios", "layout", "block", "round"], rows) + "\n")
