"""obstats.py - reading opsbench results and the statistics reports quote.

The method, everywhere: each benchmark has n repetitions (samples of ns per
iteration, Google Benchmark's real_time); we quote their median, the
coefficient of variation (sample standard deviation / mean), and a
distribution-free 95% confidence interval of the median from order
statistics (the ranks whose binomial(n, 1/2) tails hold at most 2.5% each).
Two medians whose intervals overlap are "no measurable difference".
"""
import json
import math
import statistics

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def read_text(path):
    """The stripped contents of a small text file (sysfs, procfs), or None."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


class ResultsError(Exception):
    """A results file that is missing or not what it should be."""


def load_gb(path):
    """{name: {"samples": [ns...], "counters": {...}}} from Google Benchmark JSON."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise ResultsError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ResultsError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ResultsError(f"{path}: no 'benchmarks' list: not Google Benchmark JSON")
    out = {}
    skipped = {}
    for b in data["benchmarks"]:
        if not isinstance(b, dict) or "name" not in b:
            raise ResultsError(f"{path}: a benchmark entry without a name")
        if b.get("error_occurred"):
            skipped[b.get("run_name", b["name"])] = b.get("error_message", "error")
            continue
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b.get("run_name", b["name"])
        try:
            ns = float(b["real_time"]) * UNIT_NS[b.get("time_unit", "ns")]
        except (KeyError, ValueError, TypeError):
            raise ResultsError(f"{path}: {name}: no usable real_time/time_unit") from None
        entry = out.setdefault(name, {"samples": [], "counters": {}, "label": b.get("label")})
        entry["samples"].append(ns)
        for k, v in b.items():
            if isinstance(v, (int, float)) and k not in (
                    "real_time", "cpu_time", "iterations", "repetitions",
                    "repetition_index", "threads", "family_index",
                    "per_family_instance_index"):
                entry["counters"].setdefault(k, []).append(float(v))
    return out, skipped


def median_ci(samples, level=0.95):
    """(low, high) of a distribution-free confidence interval of the median."""
    xs = sorted(samples)
    n = len(xs)
    if n < 6:                       # too few samples for a 95% interval
        return (xs[0], xs[-1])
    alpha = (1 - level) / 2
    cdf, k = 0.0, 0
    while True:
        p = math.comb(n, k) / 2 ** n
        if cdf + p > alpha:
            break
        cdf += p
        k += 1
    k = max(k, 1)
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


def parse_name(name):
    """'lookup/flag_gated/size:L1/dentries:128' -> ('lookup', 'flag_gated', {'size': 'L1', ...})."""
    parts = name.split("/")
    args, words = {}, []
    for p in parts:
        if ":" in p:
            k, _, v = p.partition(":")
            args[k] = v
        else:
            words.append(p)
    return words, args
