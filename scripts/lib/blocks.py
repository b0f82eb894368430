"""blocks.py - make bench's stopping rule: which lookup groups still need
blocks (docs/method.md#blocks).

A block is one process that runs a few rounds of one lookup group (in one
build).  scripts/bench.sh keeps each group's blocks in a folder of its own,
PARTS/<job>/<block>.json, and after each sweep over the open groups asks
status() which are pinned: every ratio of the group (each strategy against
its mode's baseline) known to +-target percent over at least
stats.MIN_PIN_BLOCKS kept blocks.  The statistic is the one the summary and
the report print (stats.paired(): the mean of the kept blocks' ratios, each
the median of the block's per-round ratios, with a t interval), so a group
that stops pinned is reported pinned.

Blocks set aside, as in the report: those whose host level shows the
run's slow phase (stats.host_slow(), against the quiet level of the
blocks of the same build so far),
and those the group's own slow-state rule sets aside
(stats.quiet_processes()).  They do not count towards the group's blocks,
so the scheduler replaces them while the cap allows.
"""
import math
import os

from . import benchmarks, plumbing, stats
from .runfolder import baseline_of


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


def group_status(scenarios, floors):
    """(kept blocks, widest half-width in percent, pinned) of one group:
    @scenarios {scenario: {strategy: entry}} (its modes), @floors
    {build: the build's quiet host level} (stats.run_floor()).  The
    interval is the one the summary and the report print (stats.paired()),
    and pinned is theirs (stats.pinned()): every ratio of the group."""
    widest, kept_n, ok = 0.0, None, True
    for sc, strat in scenarios.items():
        quiet = stats.quiet_processes(list(strat.values()), floor=floors.get(stats.build_of(sc)))
        passes = {p for e in strat.values() for p in e["counters"].get("pass", ())}
        kept = quiet["kept"] if quiet else passes
        kept_n = len(kept) if kept_n is None else min(kept_n, len(kept))
        base = strat.get(baseline_of(strat))
        for s, e in strat.items():
            if e is base or not base:
                continue
            p = stats.paired(base, e, quiet)
            widest = max(widest, p["half_pct"] if p else math.inf)
            ok = ok and stats.pinned(p)
    return kept_n or 0, widest, ok and kept_n is not None


def status(parts_dir, jobs, target=None, min_blocks=1):
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
    floors = stats.run_floor((f"{job}/variant:{stats.build_of(sc)}", e) for job, g in merged.items()
                             for sc, strat in g.items() for e in strat.values())
    out = {}
    for job in jobs:
        kept, widest, ok = group_status(merged.get(job, {}), floors)
        out[job] = (kept, widest, kept >= min_blocks and ok and
                    widest <= (stats.PIN_PCT if target is None else target))
    return out
