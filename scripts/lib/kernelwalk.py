"""The running kernel's path walk (bench/kernel.c), fitted, and set beside
the model's component (docs/method.md#the-running-kernel).

A stat() of a D-component path costs fixed + D x per-component: per
working set, a least-squares line through time against depth, one per
Google Benchmark repetition (interleaved rounds).  A process's slope is the
mean of its lines'; the interval is the t interval over make bench's
processes (blocks), or over the lines where fewer than three ran.
"""
import statistics

from . import benchmarks, stats
from .markdown import fmt, table

# A depth whose median lies further than this from the line is flagged.
RESIDUAL_FLAG = 0.05
# The typical path of the "in the kernel's terms" sentence, in components.
TYPICAL_DEPTH = 4


def fit(points):
    """(slope, intercept) of the least-squares line through @points, (x, y)
    pairs with at least two distinct x."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a line needs at least two distinct depths")
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return slope, my - slope * mx


def walk_sets(results):
    """{set: {depth: {process: [ns per fstatat, per repetition]}}} of the
    kernel group; a process is make bench's block (the "pass" counter).
    Samples of a benchmark whose calls failed are dropped."""
    sets = {}
    for name, e in results.items():
        words, args = benchmarks.parse_name(name)
        if words[:2] != ["kernel", "fstatat"] or "depth" not in args:
            continue
        if any(f > 0 for f in e["counters"].get("failed_calls", [])):
            continue
        passes = e["counters"].get("pass") or [1] * len(e["samples"])
        by = sets.setdefault(args.get("set", "hot"), {}).setdefault(int(args["depth"]), {})
        for p, ns in zip(passes, e["samples"]):
            by.setdefault(int(p), []).append(ns)
    return sets


# The fewest processes an interval is taken over; with fewer, the
# repetitions of all of them (which do not see what moves between processes).
MIN_PROCESSES = 3


def fit_set(depths):
    """The line of one working set, {depth: {process: samples}}: slope and
    intercept (ns) with 95% t intervals over the processes (over the
    repetitions with fewer than MIN_PROCESSES), each process's slope, and
    each depth's residual (median against the line, relative)."""
    procs = sorted(set.intersection(*(set(p) for p in depths.values())))
    per_proc, lines = {}, []
    for p in procs:
        reps = min(len(depths[d][p]) for d in depths)
        mine = [fit([(d, depths[d][p][r]) for d in depths]) for r in range(reps)]
        lines += mine
        per_proc[p] = (statistics.fmean(a for a, _ in mine), statistics.fmean(b for _, b in mine))
    over = list(per_proc.values()) if len(per_proc) >= MIN_PROCESSES else lines
    slope = stats.t_interval([a for a, _ in over])
    icpt = stats.t_interval([b for _, b in over])
    med = {d: statistics.median([x for p in procs for x in by[p]]) for d, by in sorted(depths.items())}
    a, b = fit(list(med.items()))
    resid = {d: m / (a * d + b) - 1 for d, m in med.items()}
    return {"slope": slope[0], "slope_ci": slope[1:3], "intercept": icpt[0], "intercept_ci": icpt[1:3],
            "processes": len(procs), "repetitions": len(lines),
            "over": "processes" if over is not lines else "repetitions",
            "process_slopes": [a for a, _ in per_proc.values()],
            "medians": med, "residuals": resid,
            "flagged": [d for d, r in resid.items() if abs(r) > RESIDUAL_FLAG]}


def live_kernel(results):
    """{set: fit_set()} of the run's kernel group; {} where it has none."""
    out = {}
    for name, depths in sorted(walk_sets(results).items()):
        if len(depths) >= 2:
            out[name] = fit_set(depths)
    return out


def model_components(results, build):
    """{kernel generation: (direct's median ns, {strategy: paired ratio})}
    of the component context's L1-sized scenarios in @build, latency mode
    (a path walk is a chain of dependent lookups)."""
    out = {}
    for sc, strat in benchmarks.lookup_scenarios(results).items():
        words, args = benchmarks.parse_name("x/y/" + sc)
        if args.get("context") != "component" or args.get("mode") != "latency" or \
                args.get("size") != "L1" or stats.build_of(sc) != build:
            continue
        base = strat.get("direct")
        if not base:
            continue
        quiet = stats.quiet_processes(strat.values())
        ratios = {}
        for s, e in strat.items():
            p = stats.paired(base, e, quiet) if s != "direct" else None
            if p:
                ratios[s] = p["ratio"]
        out[args.get("kernel", "6.12")] = (statistics.median(base["samples"]), ratios)
    return out


def host_model(results, meta):
    """(build, model_components()) for the build the host's kernel matches
    (meta.json's host_build), else the plain build's."""
    build = (meta.get("host_build") or {}).get("variant") or "plain"
    model = model_components(results, build)
    return (build, model) if model else ("plain", model_components(results, "plain"))


def _ci(lo, hi):
    return f"[{fmt(lo)}, {fmt(hi)}]"


def kernel_section(data):
    """The running kernel beside the model: Markdown, or "" without a kernel group."""
    live = live_kernel(data["results"])
    if not live:
        why = next((w for n, w in sorted(data.get("skipped", {}).items()) if n.startswith("kernel/")), None)
        return f"## The running kernel\n\nNot measured here: {why}.\n" if why else ""
    meta = data["meta"]
    build, model = host_model(data["results"], meta)
    fs = {e.get("label") for n, e in data["results"].items() if n.startswith("kernel/")} - {None}
    lines = ["## The running kernel\n",
             f"`fstatat()` of paths 1 to {max(max(v['medians']) for v in live.values())} components "
             f"deep under a directory of its own ({', '.join(sorted(fs)) or 'filesystem not named'}), "
             f"kernel {meta.get('kernel')}, active LSMs: {meta.get('lsm') or 'not readable here (/sys/kernel/security/lsm)'}; "
             "in interleaved repetitions: the slope of time against depth "
             "is the live kernel's cost per path component, the intercept the system call's fixed "
             "cost (docs/method.md#the-running-kernel). *hot*: one tree; *cold*: K / D trees at depth D, "
             "walked in turn, so that every depth walks K directories, K sized to take their dentries "
             "and inodes out of L1 and L2.\n"]
    rows = []
    for name, f in live.items():
        flagged = ", ".join(f"depth {d} ({f['residuals'][d] * 100:+.1f}%)" for d in f["flagged"]) or "none"
        rows.append([name, f"{fmt(f['slope'])} {_ci(*f['slope_ci'])}",
                     f"{fmt(f['intercept'])} {_ci(*f['intercept_ci'])}",
                     f"{f['processes']} ({f['repetitions']} lines), over {f['over']}",
                     ", ".join(fmt(x) for x in f["process_slopes"]),
                     f"{max(abs(r) for r in f['residuals'].values()) * 100:.1f}%", flagged])
    lines.append(table(["working set", "ns per component [95% CI]", "fixed ns per call [95% CI]",
                        "processes, interval", "ns per component, each process", "largest residual",
                        "depths off the line (>5%)"], rows) + "\n")
    hot = live.get("hot")
    if hot and model:
        lines.append(beside_model(hot, model, build))
    if "cold" in live:
        lines.append("The cold forest has no model beside it: the profile runs the component context "
                     "on L1-sized trees only. On a shared host its slope moves with what the neighbours "
                     "do to L2 and L3; compare it across runs before reading it.\n")
    return "\n".join(lines)


def beside_model(hot, model, build):
    """The hot tree's per-component cost beside the model's `direct`
    component, per generation, and each strategy in the kernel's terms."""
    rows = []
    for gen, (ns, _) in sorted(model.items()):
        rows.append([f"Linux {gen} model, `direct`, {build} build, L1-sized", fmt(ns),
                     f"{ns / hot['slope']:.2f}"])
    closest = min(model.items(), key=lambda kv: abs(kv[1][0] / hot["slope"] - 1))
    out = [table(["per component", "ns (median, latency)", "model / live kernel (hot)"],
                 [["live kernel, hot tree", fmt(hot["slope"]), "1.00"]] + rows) + "\n",
           f"Closest: the Linux {closest[0]} model, {abs(closest[1][0] / hot['slope'] - 1) * 100:.0f}% "
           f"{'above' if closest[1][0] > hot['slope'] else 'below'} the live kernel. What the model leaves "
           "out: the LSM hooks the running kernel has enabled, its own generation's code, the "
           "filesystem's getattr and the copy of the stat buffer (both in the fixed cost), and "
           "any dentry the kernel's walk touches that the model's tree does not.\n"]
    gen, (direct_ns, ratios) = closest
    typical = hot["intercept"] + TYPICAL_DEPTH * hot["slope"]
    rows = []
    for s, r in sorted(ratios.items(), key=lambda kv: kv[1]):
        extra = (r - 1) * direct_ns
        rows.append([f"`{s}`", f"{r:.3f}", f"{extra:+.1f}", f"{TYPICAL_DEPTH * extra / typical * 100:+.1f}%"])
    out.append(f"**In the kernel's terms.** Each strategy's extra time per component in the Linux {gen} "
               f"model ({build} build: its ratio to `direct`, times `direct`'s {fmt(direct_ns)} ns), added "
               f"to this kernel's stat() of a {TYPICAL_DEPTH}-component path ({fmt(typical)} ns here: the "
               "fixed cost and four components). The extra is taken as it is, not scaled by the live "
               "kernel's slope: what dispatch adds is calls, returns and their thunks, which the rest "
               "of the kernel's component does not multiply.\n")
    out.append(table(["strategy", "ratio to direct", "extra ns per component",
                      f"a {TYPICAL_DEPTH}-component stat()"], rows) + "\n")
    return "\n".join(out)
