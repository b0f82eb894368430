"""stats.py - the statistics the report quotes, written out in
docs/method.md#statistics and docs/method.md#the-slow-state-rule.

Calibration, dispatch and regulator benchmarks are repetitions: their
median with a distribution-free 95% interval (summarize()); two medians
whose intervals overlap are "no measurable difference" (differs()).
Lookup benchmarks are rounds, each with one sample of every strategy: a
strategy's location (location()), and its ratio to the baseline paired
round by round, with a bootstrap interval over the processes and rounds
(paired()), from the processes that ran in the host's quiet state
(quiet_processes()).
"""
import functools
import math
import random
import statistics

from .benchmarks import ResultsError


# Up to this many samples the rank of median_ci() is found with exact
# binomial coefficients; above, with their logarithms (the same rank but
# where the tail probability ties alpha to about 1e-12), so that 10^6
# samples take a second, not hours (docs/method.md#statistics).
EXACT_RANK_MAX = 1000


@functools.lru_cache(maxsize=None)
def median_ci_rank(n, level=0.95):
    """The rank k of the distribution-free interval of the median of @n
    samples (n >= 6): the smallest k whose binomial(n, 1/2) lower tail
    P(X <= k) exceeds (1 - level) / 2, at least 1."""
    alpha = (1 - level) / 2
    if n <= EXACT_RANK_MAX:
        cdf, k = 0.0, 0
        while True:
            p = math.comb(n, k) / 2 ** n
            if cdf + p > alpha:
                break
            cdf += p
            k += 1
        return max(k, 1)
    # Start 10 standard deviations below the mean, where the tail is below
    # 1e-23, and walk up with the terms' logarithms.
    k = max(0, int(n / 2 - 5 * math.sqrt(n)))
    logp = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    cdf = 0.0
    while True:
        p = math.exp(logp)
        if cdf + p > alpha:
            break
        cdf += p
        logp += math.log(n - k) - math.log(k + 1)
        k += 1
    return max(k, 1)


def median_ci(samples, level=0.95):
    """(low, high) of a distribution-free confidence interval of the median:
    the order statistics of rank median_ci_rank() from either end."""
    n = len(samples)
    if n < 6:                       # too few samples for a 95% interval
        return (min(samples), max(samples))
    k = median_ci_rank(n, level)
    xs = sorted(samples)
    return (xs[k - 1], xs[n - k])


def summarize(samples):
    """Median, CV (fraction), CI and n of a list of samples."""
    med = statistics.median(samples)
    mean = statistics.fmean(samples)
    cv = statistics.stdev(samples) / mean if len(samples) > 1 and mean else 0.0
    lo, hi = median_ci(samples)
    return {"median": med, "cv": cv, "ci": (lo, hi), "n": len(samples)}


def differs(a, b):
    """True if the CIs of two summaries do not overlap."""
    return a["ci"][1] < b["ci"][0] or b["ci"][1] < a["ci"][0]


def percentile(xs, q):
    """The @q quantile (0..1) of @xs, linear between order statistics."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    pos = q * (len(xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def location(samples):
    """Minimum, 10th percentile, median, CV and n of a strategy's samples."""
    mean = statistics.fmean(samples)
    return {"min": min(samples), "p10": percentile(samples, 0.10),
            "median": statistics.median(samples),
            "cv": statistics.stdev(samples) / mean if len(samples) > 1 and mean else 0.0,
            "n": len(samples)}


def _by_round(entry):
    rounds = entry["counters"].get("round")
    if not rounds or len(rounds) != len(entry["samples"]):
        return None
    out = {}
    for r, x in zip(rounds, entry["samples"]):
        if r in out:
            raise ResultsError(f"round {r:.0f} appears twice for one benchmark")
        out[r] = x
    return out


def bootstrap(values, stat=statistics.median, n=2000, seed=1, groups=None):
    """(low, high, standard error) of @stat over @values: a 95% percentile
    bootstrap interval from @n resamples, seeded.  @stat may return a tuple
    of statistics: then a list of such triples, one per statistic, all from
    the same resamples.  @groups (one key per value, e.g. the process that
    measured it): a two-stage (cluster) bootstrap, which draws the groups
    with replacement and then the values within each drawn group, so that
    the interval also covers how much the groups differ."""
    rng = random.Random(seed)
    k = len(values)
    if k < 2:
        v = stat(values) if values else float("nan")
        return [(x, x, float("inf")) for x in v] if isinstance(v, tuple) else (v, v, float("inf"))
    if groups is None:
        boots = [stat(rng.choices(values, k=k)) for _ in range(n)]
    else:
        clusters = {}
        for g, v in zip(groups, values):
            clusters.setdefault(g, []).append(v)
        clusters = list(clusters.values())
        boots = []
        for _ in range(n):
            pick = []
            for c in rng.choices(clusters, k=len(clusters)):
                pick += rng.choices(c, k=len(c))
            boots.append(stat(pick))

    def interval(xs):
        xs = sorted(xs)
        return percentile(xs, 0.025), percentile(xs, 0.975), statistics.stdev(xs)
    if isinstance(boots[0], tuple):
        return [interval(col) for col in zip(*boots)]
    return interval(boots)


def _passes(entry):
    """{round: the process (--pass K) that took it}, or None without a "pass" counter."""
    passes, rounds = entry["counters"].get("pass"), entry["counters"].get("round")
    if not passes or not rounds or len(passes) != len(rounds):
        return None
    return dict(zip(rounds, passes))


# A process is in the host's slow state when its level is more than this
# many times the quietest process's (quiet_processes()): a threshold between
# the two clusters of process levels the host shows (docs/method.md#the-slow-state-rule).
QUIET_SLACK = 1.3

# Run-wide: a process whose host level (host_level_ns, one fixed loop timed
# in every lookup process, bench/calib.c) is more than this many times the
# run's lowest ran while the host was slow for everything, and is set aside
# from every scenario.  The host's slow phase raises the level 1.4-1.9x;
# quiet processes stay within a few percent of the floor
# (docs/method.md#the-slow-state-rule).
HOST_SLACK = 1.25


def host_floor(levels):
    """The run's quiet host level from every process's (@levels): their 10th
    percentile, or the lowest of fewer than ten.  Not the minimum: one
    process that drew a fast moment would move every threshold."""
    levels = sorted(levels)
    if not levels:
        return None
    return percentile(levels, 0.10) if len(levels) >= 10 else levels[0]


def run_floor(processes):
    """host_floor() of a run from @processes, (process group, entry) pairs:
    one level per (group, pass), a process's samples all carrying it."""
    levels = {(g, p): h for g, e in processes
              for p, h in zip(e["counters"].get("pass", ()), e["counters"].get("host_level_ns", ())) if h > 0}
    return host_floor(levels.values())


def host_slow(levels, floor=None, slack=HOST_SLACK):
    """The keys of @levels ({process: host level}) more than @slack times
    @floor (default: host_floor() of @levels): the processes that ran while
    the host was slow."""
    if not levels:
        return set()
    floor = host_floor(levels.values()) if floor is None else floor
    return {p for p, v in levels.items() if floor > 0 and v > slack * floor}


def _host_levels(entries):
    """{pass: host_level_ns} of a scenario's entries, {} where they carry none."""
    out = {}
    for e in entries:
        levels, passes = e["counters"].get("host_level_ns"), e["counters"].get("pass")
        if levels and passes and len(levels) == len(passes):
            for p, h in zip(passes, levels):
                out[p] = h
    return out


def quiet_processes(entries, slack=QUIET_SLACK, floor=None):
    """Which processes of a scenario measured it with the host in its quiet
    state.  @entries: every strategy's load_gb entry of one scenario (with
    "round" and "pass" counters).  First the run-wide rule: a process whose
    host level is more than HOST_SLACK times the run's quiet level (each
    entry's "host_floor", set by load_gb(): run_floor(); or @floor) is set
    aside.  Then the scenario's own:
    a process's level is the geometric mean, over the strategies, of its
    median sample; a process whose level is more than @slack times the
    lowest is set aside.  The host's slow phases slow memory-bound work more
    than a fixed cost such as a retpoline's, so a ratio measured in them is
    not the quiet machine's ratio.  Like the minimum as a location, the quiet
    state is the one a second run can find again.
    Returns {"kept": set of passes, "processes": how many measured,
    "host_slow": how many the run-wide rule set aside}, or None where the
    samples carry no process (a "pass" counter) or one process measured them
    all."""
    logs = {}
    for e in entries:
        rounds, passes = e["counters"].get("round"), e["counters"].get("pass")
        if not rounds or not passes or len(passes) != len(e["samples"]):
            return None
        by = {}
        for p, x in zip(passes, e["samples"]):
            by.setdefault(p, []).append(x)
        meds = {p: statistics.median(v) for p, v in by.items()}
        if min(meds.values()) <= 0:      # a cold difference at the timer's noise: no level
            continue
        for p, m in meds.items():
            logs.setdefault(p, []).append(math.log(m))
    if len(logs) < 2:
        return None
    if floor is None:
        floor = next((e["host_floor"] for e in entries if e.get("host_floor")), None)
    slow = host_slow(_host_levels(entries), floor) & set(logs)
    level = {p: statistics.fmean(v) for p, v in logs.items() if p not in slow}
    floor = min(level.values()) if level else 0.0
    kept = {p for p, v in level.items() if v - floor <= math.log(slack)}
    return {"kept": kept, "processes": len(logs), "host_slow": len(slow)}


def paired(base, other, quiet=None):
    """Per-round comparison of @other with @base (load_gb entries with a
    "round" counter): the median over the rounds both have of the per-round
    ratio (and difference) of their two samples, with 95% bootstrap
    intervals (2000 resamples, each round's ratio and difference kept
    together), the minimal detectable difference (2.8 bootstrap standard
    errors), n (rounds in both) and processes (how many measured them).
    Where the rounds come from several processes (a "pass" counter: make
    bench's slices), the resamples draw processes and then rounds within
    them (bootstrap(groups=)): a ratio moves more from process to process
    than from round to round on a shared host, and an interval over the
    rounds alone often missed a second run's ratio.  @quiet
    (quiet_processes() of the scenario): only the rounds of its kept
    processes count, and "set_aside" says how many processes did not.  None
    when the entries carry no rounds.  The pairing removes what a round's samples
    share: a round's strategies are measured interleaved, sub-sample by
    sub-sample (bench/lookup.c), so they see the same states of the machine,
    and do the same lookups (cold: from the same state of the cache)."""
    a, b = _by_round(base), _by_round(other)
    if a is None or b is None:
        return None
    common = sorted(set(a) & set(b))
    pa, pb = _passes(base), _passes(other)
    set_aside = 0
    if quiet and pa and pb:
        common = [r for r in common if pa[r] in quiet["kept"]]
        set_aside = quiet["processes"] - len(quiet["kept"])
    if not common or any(a[r] <= 0 for r in common):
        return None

    def medians(ps):
        return statistics.median(q for q, _ in ps), statistics.median(d for _, d in ps)
    per_round = [(b[r] / a[r], b[r] - a[r]) for r in common]
    r0, d0 = medians(per_round)
    groups = [pa[r] for r in common] if pa and pb and all(pa[r] == pb[r] for r in common) else None
    processes = len(set(groups)) if groups else 1
    (rlo, rhi, _), (dlo, dhi, dse) = bootstrap(per_round, medians,
                                               groups=groups if processes > 1 else None)
    return {"ratio": r0, "ratio_ci": (rlo, rhi), "diff_ns": d0, "diff_ci": (dlo, dhi),
            "mde_ns": 2.8 * dse, "n": len(common), "processes": processes,
            "set_aside": set_aside, "host_slow": (quiet or {}).get("host_slow", 0),
            "half_pct": 100 * (rhi - rlo) / 2 / r0 if r0 > 0 else float("inf"),
            "differs": not (rlo <= 1.0 <= rhi)}


# A ratio is pinned when its 95% interval reaches no further than this
# many percent from it on either side (make bench's target,
# docs/method.md#blocks).
PIN_PCT = 1.0


def pinned(p, target=PIN_PCT):
    """Whether the paired() comparison @p is pinned: its interval's
    half-width at most @target percent of the ratio."""
    return bool(p) and p["half_pct"] <= target
