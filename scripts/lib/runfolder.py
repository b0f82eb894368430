"""runfolder.py - a results folder read and checked: everything a report
needs from it (load_run()), each file named when it is missing or malformed.
The files and their fields: docs/results.md.
"""
import csv
import json
import math
import os

from . import benchmarks, regulator_report


class InputError(Exception):
    pass


def read_json(path, required):
    if not os.path.exists(path):
        if required:
            raise InputError(f"{path}: missing")
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not valid JSON ({e})") from None


def read_csv(path, columns):
    if not os.path.exists(path):
        return []
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error) as e:
        raise InputError(f"{path}: unreadable CSV ({e})") from None
    if rows and not set(columns) <= set(rows[0]):
        raise InputError(f"{path}: expected columns {', '.join(columns)}")
    for r in rows:
        for c in columns[2:]:
            try:
                v = float(r[c])
            except (TypeError, ValueError):
                raise InputError(f"{path}: {c}={r.get(c)!r} is not a number") from None
            if not (math.isfinite(v) and v >= 0):
                raise InputError(f"{path}: {r.get('scenario')}/{r.get('strategy')}: {c}={r[c]!r} "
                                 "is not a finite count of at least 0")
    return rows


# meta.json fields the report reads, and the types they must have (None allowed).
META_TYPES = {"date": str, "host": str, "arch": str, "kernel": str, "os": str, "cpu_model": str,
              "cpus_online": int, "caches": list, "hypervisor": str, "governor": str, "boost": str,
              "transparent_hugepage": str, "perf_event_paranoid": str, "cc": dict, "cxx": dict,
              "cflags": str, "variants": list, "variant_flags": dict, "cpu": dict,
              "vulnerabilities": dict, "git": dict, "profile": str, "filter": str, "command": str,
              "elapsed_s": (int, float)}


def check_meta(path, meta):
    if not isinstance(meta, dict):
        raise InputError(f"{path}: not an object")
    for k, t in META_TYPES.items():
        v = meta.get(k)
        if v is not None and (not isinstance(v, t) or isinstance(v, bool)):
            raise InputError(f"{path}: {k}={v!r}: expected {getattr(t, '__name__', 'a number')}")
    if any(not isinstance(v, str) for v in meta.get("variants") or []):
        raise InputError(f"{path}: variants: expected a list of names")
    for c in meta.get("caches") or []:
        if not isinstance(c, dict):
            raise InputError(f"{path}: caches: expected a list of objects")
    return meta


def check_disasm(path, dis):
    """disasm.json: {strategy: {site: {column: instruction count}}}."""
    if dis is None:
        return {}
    counts = dis.get("instructions_per_site") if isinstance(dis, dict) else None
    if not isinstance(counts, dict):
        raise InputError(f"{path}: no instructions_per_site object")
    for s, sites in counts.items():
        if not isinstance(sites, dict):
            raise InputError(f"{path}: {s}: expected an object of sites")
        for site, cols in sites.items():
            if not isinstance(cols, dict) or any(
                    not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in cols.values()):
                raise InputError(f"{path}: {s}/{site}: expected instruction counts (whole numbers)")
    return counts


CACHESIM_COLUMNS = ["scenario", "strategy", "instructions_per_lookup", "data_reads_per_lookup",
                    "D1_misses_per_lookup", "D1_read_misses_per_lookup", "LL_misses_per_lookup"]


def load_run(d, writes=True):
    """Everything a report needs from folder @d, checked; @writes: the
    caller writes into @d, so it must be writable."""
    if not os.path.isdir(d):
        raise InputError(f"{d}: no such results folder")
    if writes and not os.access(d, os.W_OK):
        raise InputError(f"{d}: not writable: the report is written into the results folder")
    inc = os.path.join(d, "INCOMPLETE")
    if os.path.exists(inc):
        with open(inc) as f:
            raise InputError(f"{d}: incomplete run ({f.read().strip()}); refusing to report on it")
    try:
        results, skipped = benchmarks.load_gb(d)
    except benchmarks.ResultsError as e:
        raise InputError(str(e)) from None
    meta = check_meta(os.path.join(d, "meta.json"), read_json(os.path.join(d, "meta.json"), required=True))
    registry = read_registry(os.path.join(d, "registry.json"))
    disasm = check_disasm(os.path.join(d, "disasm.json"), read_json(os.path.join(d, "disasm.json"), required=False))
    object_size = {}
    for name, e in results.items():
        words, _ = benchmarks.parse_name(name)
        if words[0] == "lookup" and "dentry_bytes" in e["counters"]:
            object_size[words[1]] = e["counters"]["dentry_bytes"][0]
    return {
        "dir": d,
        "results": results,
        "skipped": skipped,
        "meta": meta,
        "cachesim": read_csv(os.path.join(d, "cachesim.csv"), CACHESIM_COLUMNS),
        "disasm": disasm,
        "registry": registry,
        "object_size": object_size,
        "hyperfine": read_json(os.path.join(d, "hyperfine.json"), required=False),
        "perf_md": os.path.exists(os.path.join(d, "perf.md")),
    }


# The baselines a scenario's strategies are compared with: the registry's
# "baseline" and "custom_baseline" strategies, which read_registry() takes
# from the folder's registry.json.  These defaults are the suite's own, for
# what has none: a run scripts/bench.sh made without DRIVER, the Google
# Benchmark files repro.py reads, the tests' hand-made data.
BASELINES = {"baseline": "direct", "custom_baseline": "null_tested"}


def baseline_of(strategies):
    """The baseline a scenario's strategies are compared with."""
    b = BASELINES["baseline"]
    return b if b in strategies else BASELINES["custom_baseline"]


def read_registry(path):
    """Set BASELINES from a run's registry.json, if it has one."""
    reg = read_json(path, required=False)
    if reg is None:
        return None
    try:
        for key in BASELINES:
            names = [s["name"] for s in reg["strategies"] if s[key] is True]
            if len(names) != 1 or not isinstance(names[0], str):
                raise InputError(f"{path}: expected exactly one strategy with \"{key}\": true")
            BASELINES[key] = names[0]
        reg_base = [s["name"] for s in reg.get("regulator_strategies", []) if s.get("baseline") is True]
        if len(reg_base) == 1:
            regulator_report.REG_BASELINE = reg_base[0]
    except (KeyError, TypeError):
        raise InputError(f"{path}: not opsbench-run --list --json output (strategies with name, "
                         "baseline, custom_baseline)") from None
    return reg
