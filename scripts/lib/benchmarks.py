"""benchmarks.py - Google Benchmark JSON as the scripts read it: the samples and
counters of every benchmark, their names taken apart, and the lookup
entries grouped by scenario.  The files and fields: docs/results.md.
"""
import math
import os
import re
import statistics

from . import plumbing
from .stats import build_of, run_floor

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


# A results file that is missing or not what it should be (plumbing's, so
# that stats.py raises it without importing this module).
ResultsError = plumbing.ResultsError


# A results folder's samples: make bench writes benchmarks.json;
# scripts/pack_run.py replaces it by the same bytes gzip-compressed, which
# every script reads alike (committed reference runs are kept that way).
BENCHMARKS_JSON = "benchmarks.json"
PACKED = BENCHMARKS_JSON + ".gz"


# The shortest plausible time per iteration, in ns (load_gb()).
MIN_NS = 1e-3


def benchmarks_file(folder):
    """The file holding @folder's samples: benchmarks.json, else
    benchmarks.json.gz; benchmarks.json's path when neither exists (so that
    the error names the file a run writes).  ResultsError for a folder that
    holds both: which of two files that may disagree is the run's is not
    for a script to guess."""
    plain = os.path.join(folder, BENCHMARKS_JSON)
    packed = os.path.join(folder, PACKED)
    if os.path.lexists(plain) and os.path.lexists(packed):
        raise ResultsError(f"{folder}: holds both {BENCHMARKS_JSON} and {PACKED}: keep one")
    return packed if os.path.lexists(packed) else plain


def read_benchmarks(path, raw=False):
    """The Google Benchmark JSON document at @path, a results folder
    (benchmarks_file()) or a file, gzip-compressed where its name ends in
    .gz.  The one place the scripts open a benchmarks file, through
    plumbing's safe reads (a regular file, a size limit, a depth limit;
    @raw: Google Benchmark's own output, whose NaN read as null):
    ResultsError names the file actually read; a folder holding both
    benchmarks.json and benchmarks.json.gz is refused."""
    if os.path.isdir(path):
        path = benchmarks_file(path)
    try:
        data = plumbing.read_gzip(path) if path.endswith(".gz") else plumbing.read_bytes(path)
        return plumbing.parse_json(path, data, nan_as_null=raw)
    except FileNotFoundError as e:
        raise ResultsError(f"{path}: {e.strerror}") from None
    except plumbing.ReadError as e:
        raise ResultsError(str(e)) from None


# A sample's numeric fields that are Google Benchmark's own, not counters.
_NOT_COUNTERS = frozenset(("real_time", "cpu_time", "iterations", "repetitions", "repetition_index",
                           "threads", "family_index", "per_family_instance_index"))
_NUMBER = (int, float)
# Fields of a sample that are never counters: Google Benchmark's numbers
# and its strings (left out by key, at C speed, before the type test).
_NEVER_COUNTERS = _NOT_COUNTERS | frozenset(("name", "run_name", "run_type", "time_unit", "label",
                                             "aggregate_name", "error_message", "error_occurred"))


def load_gb(path, raw=False, context=None):
    """{name: {"samples": [ns...], "counters": {...}}}, and {name: error
    message} of the benchmarks that failed, from the Google Benchmark JSON
    of read_benchmarks(@path) (a results folder or a file); @context, a
    dict, gets the file's "context" object."""
    data = read_benchmarks(path, raw)
    if os.path.isdir(path):
        path = benchmarks_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ResultsError(f"{path}: no 'benchmarks' list: not Google Benchmark JSON")
    if context is not None and isinstance(data.get("context"), dict):
        context.update(data["context"])
    out = {}
    skipped = {}
    seen = set()
    names = {}                  # run_name -> stripped: most samples share a name
    for b in data["benchmarks"]:
        if not isinstance(b, dict) or not isinstance(b.get("name"), str) or \
                not isinstance(b.get("run_name", ""), str):
            raise ResultsError(f"{path}: a benchmark entry without a name (or with one that is not a string)")
        if b.get("error_occurred"):
            skipped[strip_gb_suffixes(b.get("run_name", b["name"]))] = b.get("error_message", "error")
            continue
        if b.get("run_type", "iteration") != "iteration":
            continue
        raw = b.get("run_name", b["name"])
        name = names.get(raw)
        if name is None:
            name = names[raw] = strip_gb_suffixes(raw)
        t = b.get("real_time")
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            raise ResultsError(f"{path}: {name}: real_time {t!r}: expected a number")
        try:
            ns = t * UNIT_NS[b.get("time_unit", "ns")]
        except (KeyError, TypeError):
            raise ResultsError(f"{path}: {name}: time_unit {b.get('time_unit')!r}: expected ns, us, ms or s") from None
        if not math.isfinite(ns):
            raise ResultsError(f"{path}: {name}: real_time {b.get('real_time')!r} is not a finite number")
        # A time is at least a picosecond (a few thousandths of a cycle) and below an hour per
        # iteration; anything else is a broken file.  (Cold-mode samples are differences, the
        # timer's overhead subtracted: they may fall below 0 when a lookup is quicker than the
        # timer's own noise.)
        cold = "/mode:cold/" in name
        if not (abs(ns) < 3.6e12 if cold else MIN_NS <= ns < 3.6e12):
            raise ResultsError(f"{path}: {name}: real_time {b.get('real_time')!r} "
                               f"{b.get('time_unit', 'ns')} is not a plausible time (1 ps <= t < 1 h)")
        # One sample per repetition (and per round): a duplicate means a file merged twice.
        key = (name, b.get("repetition_index"), b.get("round"), b.get("per_family_instance_index"),
               b.get("pass"))
        if key in seen:
            raise ResultsError(f"{path}: {name}: the same sample twice (repetition "
                               f"{b.get('repetition_index')}, round {b.get('round')})")
        seen.add(key)
        entry = out.setdefault(name, {"samples": [], "counters": {}, "label": b.get("label")})
        entry["samples"].append(ns)
        counters = entry["counters"]
        for k in b.keys() - _NEVER_COUNTERS:
            v = b[k]
            # type(), not isinstance(): a bool is no counter
            if type(v) in _NUMBER:
                if not math.isfinite(v):
                    raise ResultsError(f"{path}: {name}: counter {k}={v!r} is not a finite number")
                counters.setdefault(k, []).append(float(v))
    if not out:
        raise ResultsError(f"{path}: no benchmark results in its 'benchmarks' list: nothing to report")
    # Each build's quiet host level, for the run-wide slow-phase rule (stats.quiet_processes()):
    # one level per process (its samples all carry it).
    # A process is one pass of one group: its scenario's arguments after the mode.
    floors = run_floor((name.split("/mode:")[-1].split("/", 1)[-1], e) for name, e in out.items())
    for name, e in out.items():
        if floors.get(build_of(name)) is not None:
            e["host_floor"] = floors[build_of(name)]
    return out, skipped


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


_GB_SUFFIX = re.compile(r"/(iterations:\d+|repeats:\d+|manual_time|real_time)(?=/|$)")


def strip_gb_suffixes(name):
    """The benchmark's own name, without what Google Benchmark appends for
    fixed iterations, repetitions and manual time."""
    return _GB_SUFFIX.sub("", name)


def lookup_scenarios(res):
    """{scenario (mode and args, without the strategy): {strategy: entry}}
    of the lookup entries of load_gb() results."""
    scen = {}
    for name, e in res.items():
        words, _ = parse_name(name)
        if len(words) < 2 or words[0] != "lookup" or words[1] == "pollute_only":
            continue
        scen.setdefault("/".join(name.split("/")[2:]), {})[words[1]] = e
    return scen


def chase_table(results):
    """[(bytes, median ns per load)] of the calibration's pointer chase, by size."""
    out = []
    for name, e in results.items():
        _, args = parse_name(name)
        if name.startswith("calib/chase/") and "bytes" in args:
            ns = statistics.median(e["samples"])
            if ns > 0:
                out.append((int(args["bytes"]), ns))
    return sorted(out)
