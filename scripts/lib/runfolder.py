"""runfolder.py - a results folder read and checked: everything a report
needs from it (load_run()), each file named when it is missing or malformed.
The files and their fields: docs/results.md.
"""
import csv
import datetime
import io
import math
import os
import re
import subprocess
import sys

from . import benchmarks, plumbing, provenance, regulator_report, simrows, stats


class InputError(Exception):
    pass


def read_json(path, required):
    """The JSON document at @path, read safely (plumbing.read_json_file());
    None where it is missing and not @required."""
    try:
        return plumbing.read_json_file(path)
    except FileNotFoundError:
        if required:
            raise InputError(f"{path}: missing") from None
        return None
    except plumbing.ReadError as e:
        raise InputError(str(e)) from None


def read_csv(path, columns):
    try:
        text = plumbing.read_text_file(path)
    except FileNotFoundError:
        return []
    except plumbing.ReadError as e:
        raise InputError(str(e)) from None
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise InputError(f"{path}: unreadable CSV ({e})") from None
    if rows and not set(columns) <= set(rows[0]):
        raise InputError(f"{path}: expected columns {', '.join(columns)}")
    # every count: the columns asked for and any other "..._per_lookup" the file has
    counts = list(dict.fromkeys(columns[2:] + [c for c in (rows[0] if rows else {})
                                               if c and c.endswith("_per_lookup")]))
    seen = set()
    for r in rows:
        if any(not isinstance(r.get(c), str) for c in columns[:2]) or None in r:
            raise InputError(f"{path}: a row with a missing or extra field")
        key = (r.get("arch") or "", simrows.variant_of(r), r["scenario"], r["strategy"])
        if key in seen:
            raise InputError(f"{path}: {r['scenario']}/{r['strategy']} appears twice for one build")
        seen.add(key)
        for c in counts:
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
              "cflags": str, "link_order": str, "variants": list, "variant_flags": dict, "cpu": dict,
              "vulnerabilities": dict, "git": dict, "profile": str, "filter": str, "command": str,
              "elapsed_s": (int, float), "schedule": dict, "host_build": dict, "host_load": dict,
              "layouts": list, "layout_pad_bytes": int, "lsm": str, "pin_target_pct": (int, float)}


# Fields inside meta.json's objects the scripts read, and their types.
META_NESTED = {"git": {"commit": str, "dirty": bool}, "cc": {"version": str, "path": str},
               "cxx": {"version": str, "path": str},
               "cpu": {"vendor": str, "mhz": str, "mhz_nominal": (int, float),
                       "mhz_measured": (int, float)},
               "schedule": {"budget_s": (int, float), "lookup_groups": list, "lookup_wall_s": (int, float),
                            "other_wall_s": (int, float)},
               "host_build": {"variant": str, "why": str}, "host_load": {"start": dict, "end": dict}}
# make bench's lookup groups (schedule.lookup_groups) and the host's load
# snapshots (host_load.start, .end), field by field.
GROUP_TYPES = {"group": str, "blocks": int, "state": str, "wall_s": (int, float)}
LOAD_TYPES = {"loadavg": str, "ticks": dict}
CACHE_TYPES = {"level": int, "type": str, "size": str, "size_bytes": int, "line_bytes": int,
               "shared_cpu_list": str, "source": str}


def _typed(v, t):
    """Whether @v is of type @t (None allowed; a bool is no number)."""
    if v is None:
        return True
    if isinstance(v, bool):
        return t is bool or (isinstance(t, tuple) and bool in t)
    return isinstance(v, t)


def _type_name(t):
    return getattr(t, "__name__", "a number")


def parse_date(value):
    """meta.json's "date" as a UTC datetime: ISO 8601 with a time zone
    (meta.py writes 2026-12-06T06:33:11+00:00); ValueError saying what is
    wrong otherwise."""
    if not isinstance(value, str):
        raise ValueError(f"date={value!r}: expected an ISO 8601 date and time with a time zone")
    try:
        date = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"date={value!r}: not an ISO 8601 date and time "
                         "(2026-12-06T06:33:11+00:00)") from None
    if date.tzinfo is None:
        raise ValueError(f"date={value!r}: no time zone (2026-12-06T06:33:11+00:00)")
    return date.astimezone(datetime.timezone.utc)


# The meta.json layout this code reads (scripts/meta.py writes it).
META_VERSION = 1
# The least a number of meta.json may be (0 where not named here).
META_MIN = {"cpus_online": 1}
# What every meta.json names: without them a report cannot say what ran where.
META_REQUIRED = ("date", "host", "arch")


def check_meta(path, meta):
    if not isinstance(meta, dict):
        raise InputError(f"{path}: not an object")
    version = meta.get("opsbench_meta_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InputError(f"{path}: opsbench_meta_version={version!r}: not a meta.json that "
                         "scripts/meta.py wrote (expected a whole number, at least 1)")
    if version > META_VERSION:
        raise InputError(f"{path}: opsbench_meta_version {version}: written by a newer opsbench "
                         f"(this one reads version {META_VERSION})")
    missing = [k for k in META_REQUIRED if meta.get(k) is None]
    if missing:
        raise InputError(f"{path}: no {', '.join(missing)}: not a meta.json that scripts/meta.py wrote")
    if meta.get("date") is not None:
        try:
            parse_date(meta["date"])
        except ValueError as e:
            raise InputError(f"{path}: {e}") from None
    for k, t in META_TYPES.items():
        v = meta.get(k)
        if not _typed(v, t) or (isinstance(v, bool) and t is not bool):
            raise InputError(f"{path}: {k}={v!r}: expected {_type_name(t)}")
        # counts, sizes and seconds: finite (1e999 reads as inf) and not below 0
        if isinstance(v, (int, float)) and not (math.isfinite(v) and v >= META_MIN.get(k, 0)):
            raise InputError(f"{path}: {k}={v!r}: expected a finite number, at least {META_MIN.get(k, 0)}")
    for k, fields in META_NESTED.items():
        for f, t in fields.items():
            v = (meta.get(k) or {}).get(f)
            if not _typed(v, t):
                raise InputError(f"{path}: {k}.{f}={v!r}: expected {_type_name(t)}")
            if isinstance(v, (int, float)) and not isinstance(v, bool) and not (math.isfinite(v) and v >= 0):
                raise InputError(f"{path}: {k}.{f}={v!r}: expected a finite number, at least 0")
    if any(not isinstance(v, str) for v in meta.get("variants") or []):
        raise InputError(f"{path}: variants: expected a list of names")
    for c in meta.get("caches") or []:
        if not isinstance(c, dict):
            raise InputError(f"{path}: caches: expected a list of objects")
        for f, t in CACHE_TYPES.items():
            if not _typed(c.get(f), t) or isinstance(c.get(f), bool):
                raise InputError(f"{path}: caches: {f}={c.get(f)!r}: expected {_type_name(t)}")
    for k in ("variant_flags", "vulnerabilities"):
        if any(not isinstance(v, (str, type(None))) for v in (meta.get(k) or {}).values()):
            raise InputError(f"{path}: {k}: expected an object of strings")
    _check_objects(path, "schedule.lookup_groups", (meta.get("schedule") or {}).get("lookup_groups"),
                   GROUP_TYPES, required=True)
    for end in ("start", "end"):
        load = (meta.get("host_load") or {}).get(end)
        _check_objects(path, f"host_load.{end}", [load] if load is not None else [], LOAD_TYPES)
        ticks = (load or {}).get("ticks") or {}
        if any(not isinstance(v, int) or isinstance(v, bool) for v in ticks.values()):
            raise InputError(f"{path}: host_load.{end}.ticks: expected whole numbers")
    return meta


def _check_objects(path, name, items, types, required=False):
    """Each of @items an object whose fields have @types (each present where @required)."""
    for item in items or []:
        if not isinstance(item, dict):
            raise InputError(f"{path}: {name}: expected a list of objects")
        for f, t in types.items():
            v = item.get(f)
            if (v is None and required) or not _typed(v, t) or (isinstance(v, bool) and t is not bool):
                raise InputError(f"{path}: {name}: {f}={v!r}: expected {_type_name(t)}")


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


# ---- which folders are runs, which are committed, which is the newest ----

# The override that lets a tool write into a committed reference run
# (HACKING.md, "Regenerating the reference run").
WRITE_REFERENCE = "WRITE_REFERENCE"

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def committed(d):
    """Whether git tracks files in folder @d (a committed reference run)."""
    d = os.path.realpath(d)
    try:
        res = subprocess.run(["git", "-C", d, "ls-files", "--", "."], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return res.returncode == 0 and bool(res.stdout.strip())


def incomplete_reason(d):
    """The first line of @d's INCOMPLETE file (bad bytes shown as \\xNN), or None."""
    inc = os.path.join(d, "INCOMPLETE")
    if not os.path.lexists(inc):
        return None
    try:
        text = plumbing.read_text_file(inc, limit_mib=1, lenient=True)
    except (OSError, plumbing.ReadError) as e:
        return f"unreadable: {e}"
    return (text.strip().splitlines() or ["no reason given"])[0]


def run_date(d, why=None):
    """The UTC time meta.json's "date" gives for run @d (a datetime), or None
    (@why, a list, gets the reason, unless meta.json is missing: no run)."""
    path = os.path.join(d, "meta.json")
    try:
        meta = plumbing.read_json_file(path, limit_mib=1)
        if not isinstance(meta, dict):
            raise ValueError("not an object")
        return parse_date(meta.get("date"))
    except FileNotFoundError:
        return None
    except (OSError, plumbing.ReadError, ValueError) as e:
        reason = str(e) if isinstance(e, plumbing.ReadError) else f"{path}: {e}"
    if why is not None:
        why.append(reason)
    return None


# How far in the future a run's date may lie (clocks disagree, a little)
# before "newest run" skips it: a run dated next year would win forever.
FUTURE_SLACK = datetime.timedelta(days=1)


def check_run(d, writes=True, tool_folder=False):
    """The test of a complete run folder that every tool applies before it
    reads one, and before it writes into one (@writes): a real folder (not a
    link), no INCOMPLETE file, a meta.json that check_meta() takes; for a
    writer, writable and not a committed reference run unless WRITE_REFERENCE=1
    is given; the samples' file present unless the folder was made for one
    tool (scripts/results-dir.sh: meta.json "profile": "none"); load_run()
    reads them.  @tool_folder: also a folder results-dir.sh made for the
    tool now running (its INCOMPLETE says "unfinished:")."""
    if not os.path.isdir(d):
        raise InputError(f"{d}: no such results folder")
    if os.path.islink(os.path.normpath(d)):
        raise InputError(f"{d}: a symbolic link, not a results folder; give the folder it points to")
    why = incomplete_reason(d)
    if why is not None and not (tool_folder and why.startswith(plumbing.UNFINISHED)):
        raise InputError(f"{d}: incomplete run ({why}); refusing to use it")
    meta = check_meta(os.path.join(d, "meta.json"), read_json(os.path.join(d, "meta.json"), required=True))
    try:
        samples = benchmarks.benchmarks_file(d)
    except benchmarks.ResultsError as e:
        raise InputError(str(e)) from None
    if meta.get("profile") != "none" and not os.path.lexists(samples):
        raise InputError(f"{samples}: missing: not a complete run")
    try:    # a tool's output and its record go together: refuse before the output
        provenance.load(d)
    except ValueError as e:
        raise InputError(str(e)) from None
    if writes:
        if not os.access(d, os.W_OK):
            raise InputError(f"{d}: not writable: the tool writes into the results folder")
        if os.environ.get(WRITE_REFERENCE) != "1" and committed(d):
            raise InputError(f"{d}: a committed reference run (tracked by git); tools write into it "
                             f"only with {WRITE_REFERENCE}=1 (HACKING.md, regenerating the reference run)")
    return meta


def same_run(a, b):
    """Whether paths @a and @b, each a results folder or a samples file,
    name the same samples (a folder stands for its benchmarks_file())."""
    def samples(p):
        try:
            return benchmarks.benchmarks_file(p) if os.path.isdir(p) else p
        except benchmarks.ResultsError:
            return p
    a, b = samples(a), samples(b)
    return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)


def check_out(path, inputs):
    """An --out file a tool may write, or InputError: a Markdown file (.md),
    none of the @inputs (folders or files) nor a file inside one of those
    folders other than a Markdown one, and in a committed reference run
    only with WRITE_REFERENCE=1 (check_run()'s rule for writers)."""
    if not path or not path.endswith(".md") or os.path.isdir(path):
        raise InputError(f"--out {path!r}: expected a Markdown file name (FILE.md)")
    folder = os.path.dirname(os.path.abspath(path))
    for i in inputs:
        if os.path.exists(path) and os.path.exists(i) and os.path.samefile(path, i):
            raise InputError(f"--out {path}: that is an input; give another file")
    run = os.path.lexists(os.path.join(folder, "meta.json"))
    if run and os.environ.get(WRITE_REFERENCE) != "1" and committed(folder):
        raise InputError(f"--out {path}: inside a committed reference run (tracked by git); tools write "
                         f"into it only with {WRITE_REFERENCE}=1 (HACKING.md, regenerating the reference run)")


def newest_run(results, samples=False):
    """The newest run under folder @results that a tool may write into by
    default: complete (no INCOMPLETE), not committed, newest by the UTC date
    its meta.json records (not by its name, which is local time); @samples:
    only runs with a benchmarks file.  None when there is none."""
    try:
        names = os.listdir(results)
    except OSError:
        return None
    best = None
    now = datetime.datetime.now(datetime.timezone.utc)
    for name in names:
        d = os.path.join(results, name)
        if name.startswith(".") or os.path.islink(d) or not os.path.isdir(d):
            continue
        if incomplete_reason(d) is not None:
            continue
        try:
            if samples and not os.path.isfile(benchmarks.benchmarks_file(d)):
                continue
        except benchmarks.ResultsError as e:
            print(f"skipping {d}: {e}", file=sys.stderr)
            continue
        why = []
        date = run_date(d, why)
        if date is None:
            if why:
                print(f"skipping {d}: {why[0]}", file=sys.stderr)
            continue
        if date > now + FUTURE_SLACK:
            print(f"skipping {d}: its meta.json date {date.isoformat()} is more than a day in the future",
                  file=sys.stderr)
            continue
        if best and (date, name) <= best[:2]:
            continue
        if committed(d):
            continue
        best = (date, name, d)
    return best[2] if best else None


def load_run(d, writes=True):
    """Everything a report needs from folder @d, checked (check_run() and the
    samples); @writes: the caller writes into @d."""
    meta = check_run(d, writes)
    stats.set_pin_target(meta.get("pin_target_pct"))
    context = {}
    try:
        results, skipped = benchmarks.load_gb(d, context=context)
    except benchmarks.ResultsError as e:
        raise InputError(str(e)) from None
    check_meta_samples(d, meta, results, context)
    cs_all = read_csv(os.path.join(d, "cachesim.csv"), CACHESIM_COLUMNS)
    check_cachesim(d, meta, cs_all)
    registry = read_registry(os.path.join(d, "registry.json"), results)
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
        # The rows of this folder's own ISA and plain build, which its timings
        # pair with; every ISA's and build's: "cachesim_all" (lib/simrows.py).
        "cachesim": simrows.select(cs_all, meta.get("arch") or "x86_64", "plain", meta.get("arch") or "x86_64"),
        "cachesim_all": cs_all,
        "disasm": disasm,
        "registry": registry,
        "object_size": object_size,
        "hyperfine": read_json(os.path.join(d, "hyperfine.json"), required=False),
        "perf_md": os.path.exists(os.path.join(d, "perf.md")),
    }


def check_meta_samples(d, meta, results, context):
    """meta.json against the samples it describes: the builds they come
    from among its "variants", its "arch" that of the suite that ran."""
    path = os.path.join(d, "meta.json")
    builds = sorted({stats.build_of(name) for name in results})
    listed = meta.get("variants") or ["plain"]
    if set(builds) - set(listed):
        raise InputError(f"{path}: variants {listed} leave out builds the samples come from "
                         f"({', '.join(sorted(set(builds) - set(listed)))}): not this run's meta.json")
    exe = context.get("executable")
    m = re.match(r"(?:.*/)?build/([a-z0-9_]+)-", exe) if isinstance(exe, str) else None
    if m and m.group(1) != meta["arch"]:
        raise InputError(f"{path}: arch {meta['arch']!r}, but the samples come from {exe} "
                         f"({m.group(1)}): not this run's meta.json")


def _commit_of(build):
    """The commit in a cachesim.csv "build" cell: '0123456789ab (x86_64 plain)'."""
    return (build or "").split(" ", 1)[0]


def check_cachesim(d, meta, rows):
    """cachesim.csv against the run it sits in: written by make cachesim
    for it (provenance.json, where the run has one), from sources the same
    as the samples' build, and simulated with this host's L1D where its
    geometry is the host's."""
    if not rows:
        return
    path = os.path.join(d, "cachesim.csv")
    # Judged where provenance.json knows where the samples came from (make
    # bench records them): a folder put together by hand records only what
    # later tools wrote, as make report's own files.
    files = (read_json(os.path.join(d, "provenance.json"), required=False) or {}).get("files") or {}
    if provenance.recorded_name("benchmarks.json") in files and "cachesim.csv" not in files:
        raise InputError(f"{path}: not in provenance.json: make cachesim did not write it for this run "
                         f"(copied from another?); remove it, or run `make cachesim RUN={d}`")
    run_commit = (meta.get("git") or {}).get("commit")
    for commit in sorted({_commit_of(r.get("build")) for r in rows} - {"", run_commit}):
        why = same_sources(commit, run_commit) if run_commit else "the run names no commit"
        if why:
            raise InputError(f"{path}: counts of commit {commit[:12]}, not of this run's build ({why}); "
                             f"run `make cachesim RUN={d}`")
    l1d = [c.get("size_bytes") for c in meta.get("caches") or []
           if c.get("level") == 1 and c.get("type") in ("Data", "data")]
    for r in rows:
        m = re.match(r"host: .*?D1 (\d+) B", r.get("geometry") or "")
        if m and not l1d and r.get("arch") == meta["arch"]:
            raise InputError(f"{path}: simulated with a host's {m.group(1)} B L1D, but meta.json names no "
                             "L1D of this run's host to check it against (its caches)")
        if m and l1d and r.get("arch") == meta["arch"] and int(m.group(1)) != l1d[0]:
            raise InputError(f"{path}: simulated with a {m.group(1)} B L1D, but this run's host has "
                             f"{l1d[0]} B: counts of another machine; run `make cachesim RUN={d}`")


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


def read_registry(path, results=None):
    """Set BASELINES from a run's registry.json, if it has one; each
    baseline must be one of its strategies and, where the run has lookup
    samples, one of theirs."""
    reg = read_json(path, required=False)
    if reg is None:
        return None
    try:
        names_all = [s["name"] for s in reg["strategies"]]
        if any(not isinstance(n, str) for n in names_all):
            raise TypeError
        measured = {w[1] for w in (benchmarks.parse_name(n)[0] for n in results or {})
                    if len(w) > 1 and w[0] == "lookup"}
        for key in BASELINES:
            names = [s["name"] for s in reg["strategies"] if s[key] is True]
            if len(names) != 1:
                raise InputError(f"{path}: expected exactly one strategy with \"{key}\": true")
            if measured and names[0] not in measured:
                raise InputError(f"{path}: {key} '{names[0]}' is not a strategy this run measured "
                                 f"({', '.join(sorted(measured))})")
            BASELINES[key] = names[0]
        reg_base = [s["name"] for s in reg.get("regulator_strategies", []) if s.get("baseline") is True]
        if len(reg_base) == 1 and isinstance(reg_base[0], str):
            regulator_report.REG_BASELINE = reg_base[0]
    except (KeyError, TypeError, AttributeError):
        raise InputError(f"{path}: not opsbench-run --list --json output (strategies with name, "
                         "baseline, custom_baseline)") from None
    return reg


# ---- two runs of one build ----

# What the measured programs are built from (the rest of the tree is scripts and docs).
BUILD_INPUTS = ("Makefile", "bench", "include", "src", "scripts/static_call_sites.awk")


def same_sources(c1, c2, root=ROOT):
    """None where commits @c1 and @c2 have the same BUILD_INPUTS in @root's
    repository, else why not (or why it cannot tell)."""
    try:
        p = subprocess.run(["git", "-C", root, "diff", "--quiet", c1, c2, "--", *BUILD_INPUTS],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"git could not compare their commits ({e})"
    if p.returncode == 1:
        return f"their commits {c1[:12]} and {c2[:12]} differ in {', '.join(BUILD_INPUTS)}"
    if p.returncode != 0:
        return f"commit {c1[:12]} or {c2[:12]} is not in this repository"
    return None


def same_build(a, b, sources=same_sources):
    """Why the runs' builds may differ, or None: clean commits with the same
    build inputs, the same compilers and variant flags.  Their link order
    (LINK_ORDER) may differ: the simulated counts the cost model takes
    (instructions, branches, calls, data misses) do not depend on where the
    code lies."""
    ga, gb = a.get("git") or {}, b.get("git") or {}
    if not ga.get("commit") or not gb.get("commit"):
        return "a run names no commit it was made from"
    if ga.get("dirty") or gb.get("dirty"):
        return "one of them was made from a checkout with uncommitted changes"
    if ga["commit"] != gb["commit"]:
        why = sources(ga["commit"], gb["commit"])
        if why:
            return why
    for k in ("cc", "cxx", "cflags", "variant_flags", "variant_compilers"):
        if a.get(k) != b.get(k):
            return f"their {k} differ"
    return None


def with_counts_of(data, path):
    """@data (load_run()) priced with the simulated counts of run @path, a
    run of the same build (same_build()): counts belong to a build, so a
    second run of it needs no simulation of its own.  InputError says why
    they cannot be borrowed."""
    other = load_run(path, writes=False)
    if not other["cachesim_all"]:
        raise InputError(f"{path}: no cachesim.csv there (make cachesim RUN={path})")
    why = same_build(data["meta"], other["meta"])
    if why:
        raise InputError(f"{path}: not the same build as {data['dir']}, so its counts do not price it: {why}")
    return {**data, "cachesim": other["cachesim"], "cachesim_all": other["cachesim_all"]}
