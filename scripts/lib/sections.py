"""sections.py - the report's tables of the measured data: the machine, the
lookups (location and paired ratio per scenario), the code-generation
variants, dispatch alone and the calibration.  report.py and summary.py
both print them; how each figure is computed: docs/method.md#statistics.
"""
import math
import re

from . import benchmarks, plots, stats
from .markdown import fmt, table
from .runfolder import baseline_of


def machine_section(meta):
    caches = ", ".join(f"L{c.get('level')} {c['type'].lower()} {c.get('size') or c.get('size_bytes')}"
                       for c in meta.get("caches") or [] if c.get("type"))
    rows = [("CPU", meta.get("cpu_model")), ("cores online", meta.get("cpus_online")),
            (f"caches ({plots.cache_from(meta)})", caches or None), ("hypervisor", meta.get("hypervisor")),
            ("kernel", meta.get("kernel")), ("OS", meta.get("os")),
            ("governor / boost", f"{meta.get('governor')} / {meta.get('boost')}"),
            ("transparent huge pages", meta.get("transparent_hugepage")),
            ("perf_event_paranoid", meta.get("perf_event_paranoid")),
            ("C compiler", (meta.get("cc") or {}).get("version")),
            ("C++ compiler", (meta.get("cxx") or {}).get("version")),
            ("flags", meta.get("cflags")),
            ("link order (LINK_ORDER)", meta.get("link_order") or "usual"),
            ("layouts (LAYOUTS)", _layouts(meta)),
            ("git commit", f"{(meta.get('git') or {}).get('commit')}"
                           f"{' (dirty tree)' if (meta.get('git') or {}).get('dirty') else ''}"),
            ("profile / command", f"{meta.get('profile')} / `{meta.get('command')}`"),
            ("date", meta.get("date")), ("elapsed", f"{meta.get('elapsed_s')} s")]
    return "## Machine and build\n\n" + table(["", ""], [(k, "unknown" if v is None else v) for k, v in rows])


def compare_scenario(strat):
    """Per strategy: location and the paired comparison with the baseline."""
    base_name = baseline_of(strat)
    base = strat.get(base_name)
    quiet = stats.quiet_processes(strat.values())
    rows = {}
    for s, e in strat.items():
        loc = stats.location(e["samples"])
        cyc = e["counters"].get("ns_per_cycle")
        loc["cycles_p10"] = loc["p10"] / cyc[0] if cyc and cyc[0] > 0 else None
        loc["paired"] = stats.paired(base, e, quiet) if base and s != base_name else None
        rows[s] = loc
    return base_name, rows


def served_from(working_set, chase, meta):
    """The cache level a working set of @working_set bytes is served from, by
    the pointer chase: the chase's latency at that size, matched (nearest on
    a log scale) with its latency at half of each sysfs level (DRAM: at the
    largest size chased).  Returns (label, ns per load) or None."""
    if not chase or working_set <= 0:
        return None
    at = next((ns for b, ns in chase if b >= working_set), chase[-1][1])
    sizes = plots.cache_sizes(meta)
    bands = []
    for lvl, size in sizes:
        ns = next((x for b, x in chase if b >= size // 2), None)
        if ns:
            last = lvl == sizes[-1][0] and lvl not in ("L1", "L2")
            bands.append(("LLC" if last else lvl, ns))
    bands.append(("DRAM", chase[-1][1]))
    label, _ = min(bands, key=lambda b: abs(math.log(at / b[1])))
    return label, at


def _layouts(meta):
    """The layouts a run's blocks were drawn from, in words."""
    ls = meta.get("layouts")
    if not isinstance(ls, list) or len(ls) < 2:
        return "one (the usual)"
    return (f"{len(ls)} code layouts (the measured code moved by multiples of "
            f"{meta.get('layout_pad_bytes')} bytes) x {len(ls)} stack offsets, one pair per block")


def lookup_section(data):
    res, cs = data["results"], data["cachesim"]
    scen = benchmarks.lookup_scenarios(res)
    chase = benchmarks.chase_table(res)
    out = ["## Lookups, measured\n",
           "Per scenario and timing mode (throughput: independent lookups, overlapped; latency: each "
           "lookup waits for the last one's result; cold: one lookup at a time between serialised "
           "timestamps, the pollution and a warm-up lookup on copied objects before it untimed): each strategy's 10th percentile, minimum "
           "and median ns per lookup over the rounds, the 10th percentile in core cycles (the "
           "process's own calibration), and the **paired ratio** to the baseline (`direct`, or "
           "`null_tested` where `direct` cannot run): per block (one process, under a layout drawn "
           "for it), the median over its rounds of the strategy's sample divided by the baseline's "
           "sample of the same round (measured interleaved with it, sub-sample by sub-sample); the "
           "ratio is the mean of the blocks' ratios, with its 95% t interval over the blocks, which "
           "covers how the ratio moves from process to process and layout to layout "
           "(docs/method.md#statistics); `~` marks an interval that holds 1 (no measurable "
           "difference), *two levels* a ratio whose blocks fall into two clusters. A process "
           f"whose level (the geometric mean of its strategies' median samples) is more than "
           f"{stats.QUIET_SLACK:g}x the quietest process's ran in the host's slow state, which slows "
           "memory-bound work more than fixed costs and so moves the ratios: its rounds are set aside "
           "from the ratios, and the scenario says how many were. Cold scenarios "
           "also give the paired difference in ns and the minimal detectable effect (MDE: 2.8 "
           "standard errors). Counters per lookup are labelled measured (PMU).\n"]
    for sc, strat in sorted(scen.items()):
        base_name, rows_by = compare_scenario(strat)
        cold = "mode:cold" in sc
        counters = sorted({k for e in strat.values() for k in e["counters"] if k.endswith("/lookup")})
        header = ["strategy", "p10 ns", "min ns", "median ns", "p10 cycles", "vs " + base_name + " (paired)"]
        if cold:
            header += ["diff ns [95% CI]", "MDE ns"]
        header += [f"{c} (measured)" for c in counters] + ["B/dentry", "total KiB"]
        rows = []
        for s in sorted(rows_by, key=lambda k: (rows_by[k]["paired"] or {"ratio": 1.0})["ratio"]):
            st, e, pr = rows_by[s], strat[s], rows_by[s]["paired"]
            if s == base_name:
                rel = "1 (baseline)"
            elif pr:
                rel = stats.ratio_cell(pr).replace(f"{pr['ratio']:.3f}", f"{pr['ratio']:.3f} "
                                                   f"[{pr['ratio_ci'][0]:.3f}, {pr['ratio_ci'][1]:.3f}]", 1)
            else:
                rel = "n/a"
            row = [s, fmt(st["p10"]), fmt(st["min"]), fmt(st["median"]),
                   fmt(st["cycles_p10"]) if st["cycles_p10"] else "n/a", rel]
            if cold:
                row += ([f"{pr['diff_ns']:+.2f} [{pr['diff_ci'][0]:+.2f}, {pr['diff_ci'][1]:+.2f}]",
                         f"{pr['mde_ns']:.2f}"] if pr else ["-", "-"])
            row += [fmt(sum(e["counters"][c]) / len(e["counters"][c])) if c in e["counters"] else "n/a"
                    for c in counters]
            row += [f"{e['counters'].get('dentry_bytes', [0])[0]:.0f}",
                    f"{e['counters'].get('total_bytes', [0])[0] / 1024:.0f}"]
            rows.append(row)
        title = sc.replace("/", ", ").replace(":", " ")
        n = next(iter(rows_by.values()))["n"]
        pr = next((r["paired"] for r in rows_by.values() if r["paired"]), None)
        aside = ""
        if pr and pr["set_aside"]:
            aside = (f" The ratios come from {pr['processes']} of {pr['processes'] + pr['set_aside']} "
                     f"processes: {pr['set_aside']} ran in the host's slow state and are set aside"
                     + (f" ({pr['host_slow']} by the run-wide rule)." if pr.get("host_slow") else "."))
        _, args = benchmarks.parse_name("x/" + sc)
        level = ""
        try:
            served = served_from(int(args.get("dentries", 0)) * 256, chase, data.get("meta"))
        except ValueError:
            served = None
        if served:
            level = (f" Working set {int(args['dentries']) * 256 >> 10} KiB (dentries x 256 bytes): served "
                     f"from **{served[0]}** by this run's pointer chase ({fmt(served[1])} ns per load at "
                     f"that size), whatever the size class by the {plots.cache_from(data.get('meta'))} sizes says.")
        out.append(f"### {title}\n\nn = {n} rounds.{aside}{level}\n\n" + table(header, rows) + "\n")
    if not scen:
        out.append("No lookup benchmarks in this run.\n")
    if not any(k.endswith("/lookup") for e in res.values() for k in e["counters"]):
        out.append("No hardware counters were counted in this run (see meta.json's hypervisor and "
                   "perf_event_paranoid); the simulated counters below stand in for them.\n")
    if cs:
        out.append("## Counters per lookup, simulated (callgrind, make cachesim)\n")
        geo = cs[0].get("geometry", "")
        out.append(f"Exact and repeatable; geometry {geo}.\n")
        for sc in dict.fromkeys(r["scenario"] for r in cs):
            rows = [[r["strategy"], f"{float(r['instructions_per_lookup']):.1f}",
                     f"{float(r['data_reads_per_lookup']):.1f}", f"{float(r['D1_read_misses_per_lookup']):.3f}",
                     f"{float(r['D1_misses_per_lookup']):.3f}", f"{float(r['LL_misses_per_lookup']):.3f}",
                     f"{data['object_size'].get(r['strategy'], 0):.0f}"]
                    for r in cs if r["scenario"] == sc]
            out.append(f"### {sc} (simulated)\n\n" + table(
                ["strategy", "instructions", "data reads", "D1 read misses", "D1 misses", "LL misses",
                 "B/dentry"], rows) + "\n")
    return "\n".join(out)


def dispatch_section(res):
    rows = []
    items = {n: stats.summarize(e["samples"]) for n, e in res.items() if n.startswith("dispatch/")}

    def variant(n):
        return benchmarks.parse_name(n)[1].get("variant", "plain")

    for n in sorted(items, key=lambda n: [variant(n)] + [int(t) if t.isdigit() else t
                                                        for t in re.split(r"(\d+)", n)]):
        st, v = items[n], variant(n)
        # Each build against its own direct call: one process per build.
        base = items.get("dispatch/direct_call" + ("" if v == "plain" else f"/variant:{v}"))
        rows.append([v, n[len("dispatch/"):].replace(f"/variant:{v}", ""), fmt(st["median"]),
                     f"[{fmt(st['ci'][0])}, {fmt(st['ci'][1])}]", f"{st['cv'] * 100:.1f}%",
                     f"{st['median'] / base['median']:.2f}x" if base else "n/a"])
    if not rows:
        return ""
    return ("## Dispatch alone\n\nA dependency chain `x = f(x)`: ns per call, per build variant.\n\n" +
            table(["variant", "mechanism", "ns/call", "95% CI", "CV", "vs direct_call (same variant)"], rows) + "\n")


def variants_section(res):
    """Strategy x variant, per scenario: the paired ratio to the baseline in
    each build, and the strategy's 10th percentile in the other build over
    its plain one (two processes: indicative only)."""
    scen = benchmarks.lookup_scenarios(res)
    by = {}
    for sc, strat in scen.items():
        _, args = benchmarks.parse_name("x/" + sc)
        v = args.get("variant", "plain")
        by.setdefault(sc.replace(f"/variant:{v}", ""), {})[v] = compare_scenario(strat)
    out = []
    for sc, vs in sorted(by.items()):
        others = sorted(v for v in vs if v != "plain")
        if "plain" not in vs or not others:
            continue
        base, plain = vs["plain"]
        header = ["strategy", "plain ns (median)", f"plain: vs {base}"]
        for v in others:
            header += [f"{v} ns (median)", f"{v}: vs {vs[v][0]}", f"{v} / plain (p10)"]
        rows = []
        for s in sorted(plain, key=lambda k: plain[k]["p10"]):
            def rel(r):
                p = r.get("paired")
                return "1 (baseline)" if p is None else f"{p['ratio']:.3f}" + ("" if p["differs"] else " ~")
            row = [s, fmt(plain[s]["median"]), rel(plain[s])]
            for v in others:
                r = vs[v][1].get(s)
                row += [fmt(r["median"]), rel(r), f"{r['p10'] / plain[s]['p10']:.2f}x"] if r else ["-", "-", "-"]
            rows.append(row)
        out.append(f"### {sc.replace('/', ', ').replace(':', ' ')}\n\n" + table(header, rows) + "\n")
    if not out:
        return ""
    out.insert(0, static_call_note(res, by))
    return ("## Code-generation variants\n\nStrategy x build, per scenario: each build is its own process "
            "(Makefile VARIANT; flags and compiler per build in meta.json). Within a build, each strategy is "
            "paired with that build's baseline in the same rounds (\"vs\": paired ratio, `~` when its 95% "
            "interval includes 1). The \"/ plain\" columns compare a strategy's 10th percentile across "
            "builds, that is across processes: indicative only.\n\n" + "\n".join(out))


def static_call_note(res, by):
    """Whether static_call avoids the thunks: its op calls against
    flag_gated's (the same flag test, then an indirect call) per build,
    where custom ops are called, and the mechanisms alone."""
    lines = []
    for sc, vs in sorted(by.items()):
        _, args = benchmarks.parse_name("x/" + sc)
        if args.get("custom") in (None, "0") or "plain" not in vs:
            continue
        cells = []
        for v in ["plain"] + sorted(x for x in vs if x != "plain"):
            rows = vs[v][1]
            if "static_call" in rows and "flag_gated" in rows:
                cells.append(f"{v}: static_call {fmt(rows['static_call']['median'])} ns, "
                             f"flag_gated {fmt(rows['flag_gated']['median'])} ns")
        if len(cells) > 1:
            lines.append(f"- {sc.replace('/', ', ').replace(':', ' ')}: " + "; ".join(cells))
    for v in sorted({benchmarks.parse_name(n)[1].get("variant", "plain") for n in res if n.startswith("dispatch/")}):
        tag = "" if v == "plain" else f"/variant:{v}"
        sc_, ind, dc = (res.get(f"dispatch/{m}{tag}") for m in
                        ("static_call", "indirect/targets:1/order:predictable", "direct_call"))
        if sc_ and ind and dc:
            med = {k: stats.summarize(e["samples"])["median"] for k, e in
                   (("s", sc_), ("i", ind), ("d", dc))}
            lines.append(f"- dispatch alone, {v}: static call {fmt(med['s'])} ns, indirect call "
                         f"{fmt(med['i'])} ns, direct call {fmt(med['d'])} ns")
    if not lines:
        return ""
    return ("### Does static_call avoid the thunk?\n\nstatic_call tests the same flag as flag_gated, then "
            "calls the op directly instead of through `d_op` (an indirect call, a thunk under "
            "retpolines): on x86-64 from a call site patched to call it, elsewhere through the op's "
            "trampoline, as static_call_tramp does everywhere. Medians per build, where custom ops are "
            "called:\n\n" + "\n".join(lines) + "\n")


def calibration_section(res, meta):
    out = []
    e = res.get("calib/empty_loop")
    if e:
        out.append(f"- harness overhead (empty loop): {fmt(stats.summarize(e['samples'])['median'])} ns per iteration")
    cy = res.get("calib/cycle")
    if cy:
        ns = stats.summarize(cy["samples"])["median"] / 8
        out.append(f"- core clock: {fmt(ns)} ns per cycle ({1 / ns:.2f} GHz; eight dependent adds per iteration)")
    br, bp = res.get("calib/branch/random"), res.get("calib/branch/predictable")
    if br and bp:
        r, p = stats.summarize(br["samples"]), stats.summarize(bp["samples"])
        out.append(f"- branch mispredict penalty: {fmt(2 * (r['median'] - p['median']))} ns "
                   f"(2 x ({fmt(r['median'])} - {fmt(p['median'])}))")
    chase = []
    for n, e in res.items():
        words, args = benchmarks.parse_name(n)
        if n.startswith("calib/chase/") and "bytes" in args:
            chase.append((int(args["bytes"]), stats.summarize(e["samples"])))
    if chase:
        levels = plots.cache_sizes(meta)
        rows = []
        for b, st in sorted(chase):
            lvl = next((name for name, size in levels if b <= size), "beyond")
            rows.append([f"{b >> 10} KiB", lvl, fmt(st["median"]), f"{st['cv'] * 100:.1f}%"])
        out.append("\n" + table(["working set", f"fits in ({plots.cache_from(meta)})", "ns per load", "CV"], rows))
    return "## Calibration\n\n" + "\n".join(out) + "\n" if out else ""


def isa_section(data):
    """The two instruction sets side by side, from cachesim.csv's rows of the
    x86-64 and arm64 plain builds (make cachesim, make cachesim ARCH=arm64),
    and what arm64's BTI and PAC (the bti-pac build) add per lookup."""
    from . import simrows
    rows = data.get("cachesim_all") or []
    own = (data.get("meta") or {}).get("arch") or "x86_64"
    by = {b: {(r["scenario"], r["strategy"]): r for r in simrows.select(rows, b[0], b[1], own)}
          for b in (("x86_64", "plain"), ("arm64", "plain"), ("arm64", "bti-pac"))}
    x86, arm, bti = by[("x86_64", "plain")], by[("arm64", "plain")], by[("arm64", "bti-pac")]
    if not arm:
        return ""

    def num(r, *keys):
        try:
            return sum(float(r[k]) for k in keys)
        except (KeyError, TypeError, ValueError):
            return None

    def pair(a, b, keys, f="{:.1f}"):
        va, vb = (num(r, *keys) if r else None for r in (a, b))
        return " / ".join("-" if v is None else f.format(v) for v in (va, vb))

    def delta(a, b, keys, f="{:+.1f}"):
        va, vb = (num(r, *keys) if r else None for r in (a, b))
        return "-" if None in (va, vb) else f.format(vb - va)

    geos = {n: sorted({r.get("geometry", "").split(":")[0] for r in b.values()})
            for n, b in (("x86-64", x86), ("arm64", arm))}
    out = ["## x86-64 and arm64, simulated (make cachesim, make cachesim ARCH=arm64)\n",
           "Each cell is x86-64 / arm64, per lookup, plain builds: callgrind's exact counts of each ISA's "
           "own machine code (arm64 under Debian's valgrind:arm64, emulated where the host is not arm64; "
           "docs/method.md#counters). Branches are conditional plus indirect; calls are call instructions "
           "executed (`call`; `bl`, `blr`). The last columns are what the bti-pac build (BTI landing pads, "
           "PAC signing and authentication of return addresses) adds to arm64's plain build. Geometries: "
           + "; ".join(f"{n} {', '.join(g) or 'none'}" for n, g in geos.items()) +
           (" (the same: misses compare directly)." if geos["x86-64"] == geos["arm64"] else
            " (not the same: compare the misses only within an ISA, or run both with one GEOMETRY).") + "\n"]
    for sc in dict.fromkeys(k[0] for k in arm):
        body = []
        for (s_, st), a in arm.items():
            if s_ != sc:
                continue
            x, b = x86.get((sc, st)), bti.get((sc, st))
            body.append([st, pair(x, a, ["instructions_per_lookup"]), pair(x, a, ["data_reads_per_lookup"]),
                         pair(x, a, ["D1_misses_per_lookup"], "{:.3f}"),
                         pair(x, a, ["cond_branches_per_lookup", "indirect_branches_per_lookup"]),
                         pair(x, a, ["calls_per_lookup"], "{:.2f}"),
                         delta(a, b, ["instructions_per_lookup"]), delta(a, b, ["data_reads_per_lookup"]),
                         delta(a, b, ["D1_misses_per_lookup"], "{:+.3f}")])
        out.append(f"### {sc}\n\n" + table(
            ["strategy", "instructions", "data reads", "D1 misses", "branches", "calls",
             "bti-pac adds: instructions", "data reads", "D1 misses"], body) + "\n")
    return "\n".join(out)
