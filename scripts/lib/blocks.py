"""blocks.py - make bench's stopping rule: which lookup groups still need
blocks (docs/method.md#blocks).

A block is one process that runs a few rounds of one lookup group (in one
build).  scripts/bench.sh keeps each group's blocks in a folder of its own,
PARTS/<job>/<block>.json, and after each sweep over the open groups asks
status() which are pinned: every ratio of the group (each strategy against
its mode's baseline) known to +-target percent.  The estimate here is the
cheap one a scheduler can afford between blocks: the ratio of each kept
block (the median of its per-round ratios), and a t interval of their mean.
The summary and the report judge "pinned" again from the bootstrap interval
of stats.paired() over the same kept blocks, which is the figure they print.

Blocks set aside, as in the report: those whose host level shows the
run's slow phase (stats.host_slow(), over every block of the run so far),
and those the group's own slow-state rule sets aside
(stats.quiet_processes()).  They do not count towards the group's blocks,
so the scheduler replaces them while the cap allows.
"""
import math
import os
import statistics

from . import benchmarks, plumbing, stats
from .runfolder import baseline_of

# Two-sided 95% quantiles of Student's t, by degrees of freedom.
_T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
         10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00}


def t975(df):
    """The 97.5% quantile of Student's t with @df degrees of freedom (the
    next tabled df at or below it; 1.96 beyond the table)."""
    if df < 1:
        return math.inf
    return _T975[max(k for k in _T975 if k <= df)] if df <= 60 else 1.96


def half_width_pct(values):
    """Half-width of the 95% t interval of the mean of @values, in percent of
    the mean (inf for fewer than two)."""
    if len(values) < 2:
        return math.inf
    m = statistics.fmean(values)
    return 100 * t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values)) / m \
        if m > 0 else math.inf


def read_part(path):
    """{scenario: {strategy: entry}} of one block's Google Benchmark JSON
    (entries as benchmarks.load_gb() gives them)."""
    res, _ = benchmarks.load_gb(path, raw=True)
    return benchmarks.lookup_scenarios(res)


def _merge(into, part):
    for sc, strat in part.items():
        for s, e in strat.items():
            t = into.setdefault(sc, {}).setdefault(s, {"samples": [], "counters": {}})
            t["samples"] += e["samples"]
            for k, v in e["counters"].items():
                t["counters"].setdefault(k, []).extend(v)


def _block_ratios(base, other, kept):
    """{pass: median over its rounds of other/base} for the kept passes."""
    a = dict(zip(base["counters"]["round"], zip(base["counters"]["pass"], base["samples"])))
    by = {}
    for r, x in zip(other["counters"]["round"], other["samples"]):
        if r in a and a[r][0] in kept and a[r][1] > 0:
            by.setdefault(a[r][0], []).append(x / a[r][1])
    return {p: statistics.median(v) for p, v in by.items()}


def group_status(scenarios, floor, target):
    """(kept blocks, widest half-width in percent) of one group:
    @scenarios {scenario: {strategy: entry}} (its modes), @floor the run's
    lowest host level (None: no run-wide rule)."""
    widest, kept_n = 0.0, None
    for strat in scenarios.values():
        quiet = stats.quiet_processes(list(strat.values()), floor=floor)
        passes = {p for e in strat.values() for p in e["counters"].get("pass", ())}
        kept = quiet["kept"] if quiet else passes
        kept_n = len(kept) if kept_n is None else min(kept_n, len(kept))
        base = strat.get(baseline_of(strat))
        for s, e in strat.items():
            if e is base or not base:
                continue
            widest = max(widest, half_width_pct(list(_block_ratios(base, e, kept).values())))
    return kept_n or 0, widest


def status(parts_dir, jobs, target=stats.PIN_PCT, min_blocks=1):
    """{job: (kept blocks, widest half-width %, pinned)} for each job folder
    name in @jobs under @parts_dir.  Parts already read are cached in
    @parts_dir/.blocks-cache.json."""
    cache_path = os.path.join(parts_dir, ".blocks-cache.json")
    try:
        cache = plumbing.read_json_file(cache_path)
    except (OSError, plumbing.ReadError):
        cache = {}
    merged, changed = {}, False
    for job in os.listdir(parts_dir):
        d = os.path.join(parts_dir, job)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".json"):
                continue
            key = f"{job}/{name}"
            if key not in cache:
                cache[key] = read_part(os.path.join(d, name))
                changed = True
            _merge(merged.setdefault(job, {}), cache[key])
    if changed:
        plumbing.write_json(cache_path, cache, parts_dir)
    floor = stats.run_floor((job, e) for job, g in merged.items() for strat in g.values() for e in strat.values())
    out = {}
    for job in jobs:
        kept, widest = group_status(merged.get(job, {}), floor, target)
        out[job] = (kept, widest, kept >= min_blocks and widest <= target)
    return out
