"""stats.py - the statistics the report quotes, written out in
docs/method.md#statistics and docs/method.md#the-slow-state-rule.

Calibration, dispatch and regulator benchmarks are repetitions: their
median with a distribution-free 95% interval (summarize()); two medians
whose intervals overlap are "no measurable difference" (differs()).
Lookup benchmarks are rounds, each with one sample of every strategy: a
strategy's location (location()), and its ratio to the baseline paired
round by round, its median per block and their mean with a t interval over
the blocks (paired(), the statistic make bench stops on), two-level ratios
named (two_levels()), where the variance lies (variance_components()),
from the processes that ran in the host's quiet state (quiet_processes(),
each against its own build's host level: run_floor()).
"""
import functools
import math
import random
import statistics

from .plumbing import ResultsError


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


def stdev(xs):
    """The sample standard deviation of @xs (at least two), in floats: what
    statistics.stdev() gives to a few ulps, without its exact fractions,
    which take seconds on 10^6 samples."""
    n = len(xs)
    mean = math.fsum(xs) / n
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))


def summarize(samples):
    """Median, CV (fraction), CI and n of a list of samples."""
    med = statistics.median(samples)
    mean = statistics.fmean(samples)
    cv = stdev(samples) / mean if len(samples) > 1 and mean else 0.0
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
            "cv": stdev(samples) / mean if len(samples) > 1 and mean else 0.0,
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


def bootstrap(values, stat=statistics.median, n=2000, seed=1):
    """(low, high, standard error) of @stat over @values: a 95% percentile
    bootstrap interval from @n resamples, seeded.  @stat may return a tuple
    of statistics: then a list of such triples, one per statistic, all from
    the same resamples.  (The lookup ratios use it only where one block
    carries them: paired().)"""
    rng = random.Random(seed)
    k = len(values)
    if k < 2:
        v = stat(values) if values else float("nan")
        return [(x, x, float("inf")) for x in v] if isinstance(v, tuple) else (v, v, float("inf"))
    boots = [stat(rng.choices(values, k=k)) for _ in range(n)]

    def interval(xs):
        xs = sorted(xs)
        return percentile(xs, 0.025), percentile(xs, 0.975), stdev(xs)
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
# in every lookup process, bench/calib.c) is more than this many times its
# build's quiet level ran while the host was slow for everything, and is
# set aside from every scenario.  The host's slow phase raised the level
# 1.43-1.56x on the Zen 4 reference; quiet processes stay within about 1.2
# of the floor (docs/method.md#the-slow-state-rule).
HOST_SLACK = 1.25


def host_floor(levels):
    """The quiet host level of one build's processes (@levels): their 10th
    percentile, or the lowest of fewer than ten.  Not the minimum: one
    process that drew a fast moment would move every threshold."""
    levels = sorted(levels)
    if not levels:
        return None
    return percentile(levels, 0.10) if len(levels) >= 10 else levels[0]


def build_of(key):
    """The build a process key or scenario name belongs to: its "variant:"
    argument, "plain" without one."""
    for part in key.split("/"):
        if part.startswith("variant:"):
            return part[len("variant:"):]
    return "plain"


def run_floor(processes):
    """{build: host_floor()} of a run from @processes, (process group,
    entry) pairs: one level per (group, pass), a process's samples all
    carrying it.  Per build, because the level loop is each build's own
    machine code: on a Zen 5 host the srso build's loop ran 20% faster
    than the plain build's, and one floor over both set most plain
    processes aside as slow."""
    levels = {}
    for g, e in processes:
        for p, h in zip(e["counters"].get("pass", ()), e["counters"].get("host_level_ns", ())):
            if h > 0:
                levels.setdefault(build_of(g), {})[(g, p)] = h
    return {b: host_floor(v.values()) for b, v in levels.items()}


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
    host level is more than HOST_SLACK times its build's quiet level (each
    entry's "host_floor", its build's, set by load_gb(): run_floor(); or @floor) is set
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


# Two-sided 95% quantiles of Student's t, by degrees of freedom (t975()).
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
         16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 22: 2.074, 24: 2.064,
         26: 2.056, 28: 2.048, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t975(df):
    """The 97.5% quantile of Student's t with @df degrees of freedom (the
    tabled df at or below it, so never too small; 1.96 beyond 120)."""
    if df < 1:
        return math.inf
    return _T975[max(k for k in _T975 if k <= df)] if df <= 120 else 1.96


def t_interval(values):
    """(mean, low, high, standard error) of the 95% t interval of the mean
    of @values; low and high infinite for fewer than two."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, -math.inf, math.inf, math.inf
    se = stdev(values) / math.sqrt(len(values))
    h = t975(len(values) - 1) * se
    return m, m - h, m + h, se


def block_ratios(base, other, kept=None):
    """{block (pass): (ratio, difference)}: per block of @base and @other
    (load_gb entries with "round" and "pass" counters), the median over its
    rounds of the per-round ratio and difference; only the blocks in @kept
    where given.  {} without a "pass" counter."""
    a, b = _by_round(base), _by_round(other)
    pa = _passes(base)
    if a is None or b is None or pa is None:
        return {}
    by = {}
    for r in set(a) & set(b):
        if (kept is None or pa[r] in kept) and a[r] > 0:
            by.setdefault(pa[r], []).append((b[r] / a[r], b[r] - a[r]))
    return {p: (statistics.median(q for q, _ in v), statistics.median(d for _, d in v))
            for p, v in by.items()}


# Two-level ratios (two_levels()): the levels of a ratio's blocks are two
# when the largest gap between neighbouring block ratios splits them into
# clusters whose medians are at least TWO_LEVEL_PCT percent apart, each with
# at least TWO_LEVEL_MIN blocks, and the gap itself is at least
# TWO_LEVEL_GAP of the distance between the medians (one spread-out cluster
# has no such gap).  docs/method.md#two-level-ratios.
TWO_LEVEL_PCT = 1.0
TWO_LEVEL_MIN = 3
TWO_LEVEL_GAP = 0.6


def two_levels(values):
    """[(level, share), (level, share)], low level first, when @values (one
    ratio per block) fall into two clusters (TWO_LEVEL_*); else None."""
    xs = sorted(values)
    if len(xs) < 2 * TWO_LEVEL_MIN:
        return None
    i = max(range(TWO_LEVEL_MIN - 1, len(xs) - TWO_LEVEL_MIN), key=lambda k: xs[k + 1] - xs[k])
    lo, hi = xs[:i + 1], xs[i + 1:]
    mlo, mhi = statistics.median(lo), statistics.median(hi)
    if mlo <= 0 or 100 * (mhi / mlo - 1) < TWO_LEVEL_PCT or xs[i + 1] - xs[i] < TWO_LEVEL_GAP * (mhi - mlo):
        return None
    return [(mlo, len(lo) / len(xs)), (mhi, len(hi) / len(xs))]


def paired(base, other, quiet=None):
    """Per-round comparison of @other with @base (load_gb entries with a
    "round" counter), docs/method.md#statistics.

    The unit is the block (one process, a "pass" counter): each kept block
    gives the median of its per-round ratios (and differences) of the two
    strategies' samples (block_ratios()); the ratio is their mean, with a
    95% t interval over the blocks, the statistic make bench's stopping rule
    uses (scripts/lib/blocks.py).  With layouts drawn per block, the blocks
    also sample the layout, and the interval covers it.  Where the samples
    carry no blocks, or one block is kept, the interval is a bootstrap over
    rounds, and "unit" says "rounds": such a ratio is never pinned.

    @quiet (quiet_processes() of the scenario): only its kept blocks count,
    and "set_aside" says how many did not.  Returns ratio, ratio_ci,
    diff_ns, diff_ci, mde_ns (the minimal detectable difference, 2.8
    standard errors), n (rounds), processes (blocks), unit, levels
    (two_levels() of the block ratios, or None), set_aside, host_slow,
    half_pct, differs, ratio_se (its standard error); None when the
    entries carry no rounds."""
    a, b = _by_round(base), _by_round(other)
    if a is None or b is None:
        return None
    common = sorted(set(a) & set(b))
    pa, pb = _passes(base), _passes(other)
    set_aside = 0
    kept = None
    if quiet and pa and pb:
        kept = quiet["kept"]
        common = [r for r in common if pa[r] in kept]
        set_aside = quiet["processes"] - len(kept)
    if not common or any(a[r] <= 0 for r in common):
        return None
    blocks = block_ratios(base, other, kept) if pa and pb and all(pa[r] == pb[r] for r in common) else {}
    if len(blocks) >= 2:
        rs = [q for q, _ in blocks.values()]
        r0, rlo, rhi, rse = t_interval(rs)
        d0, dlo, dhi, dse = t_interval([d for _, d in blocks.values()])
        unit, levels = "blocks", two_levels(rs)
    else:
        def medians(ps):
            return statistics.median(q for q, _ in ps), statistics.median(d for _, d in ps)
        per_round = [(b[r] / a[r], b[r] - a[r]) for r in common]
        r0, d0 = medians(per_round)
        (rlo, rhi, rse), (dlo, dhi, dse) = bootstrap(per_round, medians)
        unit, levels = "rounds", None
    return {"ratio": r0, "ratio_ci": (rlo, rhi), "ratio_se": rse, "diff_ns": d0, "diff_ci": (dlo, dhi),
            "mde_ns": 2.8 * dse, "n": len(common), "processes": max(len(blocks), 1),
            "unit": unit, "levels": levels,
            "set_aside": set_aside, "host_slow": (quiet or {}).get("host_slow", 0),
            "half_pct": 100 * (rhi - rlo) / 2 / r0 if r0 > 0 else float("inf"),
            "differs": not (rlo <= 1.0 <= rhi)}


# A ratio is pinned when its 95% interval reaches no further than this
# many percent from it on either side (make bench's target,
# docs/method.md#blocks), over at least MIN_PIN_BLOCKS blocks.  The run's
# own target is its meta.json's pin_target_pct (the suite's profile table,
# the one statement of it): runfolder.load_run() sets it with
# set_pin_target(); this is the value for data without one.
PIN_PCT = 1.0
MIN_PIN_BLOCKS = 6


def set_pin_target(pct):
    """The pinning target of the run being read (None: keep the default)."""
    global PIN_PCT
    if pct is not None:
        PIN_PCT = float(pct)


def pinned(p, target=None):
    """Whether the paired() comparison @p is pinned: an interval over at
    least MIN_PIN_BLOCKS blocks whose half-width is at most @target percent
    (default PIN_PCT) of the ratio."""
    target = PIN_PCT if target is None else target
    return bool(p) and p.get("unit") == "blocks" and p["processes"] >= MIN_PIN_BLOCKS \
        and p["half_pct"] <= target


def ratio_cell(p):
    """A paired() ratio as a table cell: "1.234", "~" where its interval
    holds 1, "(not pinned)", "(2 blocks)" where fewer than MIN_PIN_BLOCKS
    carry it, and both levels with their shares where it has two."""
    if not p:
        return "n/a"
    out = f"{p['ratio']:.3f}" + ("" if p["differs"] else " ~")
    if p.get("levels"):
        (lo, a), (hi, b) = p["levels"]
        out += f" (two levels: {lo:.3f} {100 * a:.0f}%, {hi:.3f} {100 * b:.0f}%)"
    if p["processes"] < MIN_PIN_BLOCKS or p.get("unit") != "blocks":
        out += f" ({p['processes']} block{'s' if p['processes'] != 1 else ''})"
    if not pinned(p):
        out += " (not pinned)"
    return out


def variance_components(base, other, kept=None):
    """Where a paired ratio's variance lies (Kalibera and Jones, ISMM 2013):
    {"round", "block", "layout"}, each the estimated variance of one level's
    own contribution, from the per-round ratios of @base and @other in the
    kept blocks (@kept: passes, None for all), grouped by block and the
    block's code layout (its "layout_code_bytes" counter).  With S1 the mean
    variance of rounds within a block (n1 rounds each on average), S2 that
    of block means within a layout (n2 blocks each), S3 that of layout
    means: round = S1, block = S2 - S1/n1, layout = S3 - S2/n2, each at
    least 0.  None with fewer than two blocks; layout None with one layout."""
    a, b = _by_round(base), _by_round(other)
    pa = _passes(base)
    codes = base["counters"].get("layout_code_bytes")
    if a is None or b is None or pa is None:
        return None
    code = dict(zip(base["counters"]["round"], codes)) if codes and len(codes) == len(base["samples"]) else {}
    blocks = {}
    for r in set(a) & set(b):
        if (kept is None or pa[r] in kept) and a[r] > 0:
            blocks.setdefault((code.get(r, 0.0), pa[r]), []).append(b[r] / a[r])
    blocks = {k: v for k, v in blocks.items() if len(v) >= 2}
    if len(blocks) < 2:
        return None
    s1 = statistics.fmean(statistics.variance(v) for v in blocks.values())
    n1 = statistics.fmean(len(v) for v in blocks.values())
    by_layout = {}
    for (c, _), v in blocks.items():
        by_layout.setdefault(c, []).append(statistics.fmean(v))
    within = [statistics.variance(m) for m in by_layout.values() if len(m) >= 2]
    if not within:
        return None
    s2 = statistics.fmean(within)
    out = {"round": s1, "block": max(0.0, s2 - s1 / n1), "layout": None}
    if len(by_layout) >= 2:
        n2 = statistics.fmean(len(m) for m in by_layout.values())
        s3 = statistics.variance([statistics.fmean(m) for m in by_layout.values()])
        out["layout"] = max(0.0, s3 - s2 / n2)
    return out
