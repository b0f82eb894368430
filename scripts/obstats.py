"""obstats.py - reading opsbench results and the statistics reports quote.

Calibration and dispatch benchmarks: n repetitions (samples of ns per
iteration, Google Benchmark's real_time); we quote their median, the
coefficient of variation (sample standard deviation / mean), and a
distribution-free 95% confidence interval of the median from order
statistics (the ranks whose binomial(n, 1/2) tails hold at most 2.5% each).
Two medians whose intervals overlap are "no measurable difference".

Lookup benchmarks (bench/lookup.c): rounds, each with one sample of every
strategy, paired by the "round" counter.  Location: the 10th percentile,
minimum and median of a strategy's samples.  Comparison: per-round paired
ratios (and differences) against the baseline measured in the same round
(in the warm modes, interleaved with it sub-sample by sub-sample); their
median, with a 95% bootstrap interval (2000 resamples of the rounds, seeded,
so a report is reproducible), and the minimal detectable effect: 2.8
bootstrap standard errors of the median difference (80% power at 5%,
two-sided).  A ratio whose interval holds 1 is "no measurable difference".
Where several processes measured a scenario, the rounds of those that ran
in the host's slow state are set aside (quiet_processes()).
"""
import json
import math
import os
import sys
import random
import re
import statistics
import subprocess

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def read_text(path):
    """The stripped contents of a small text file (sysfs, procfs), or None."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def parse_size(s):
    """sysfs's "48K", "1024K", "32M" in bytes, or None."""
    if not s:
        return None
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1], 1)
    try:
        return int(s.rstrip("KMG")) * mult
    except ValueError:
        return None


def sysfs_caches(root="/sys/devices/system/cpu/cpu0/cache"):
    """Every cache of the first CPU from sysfs: [{level, type, size, size_bytes,
    ways, line_bytes, shared_cpu_list}], the one reading of cache sizes that
    meta.json and make cachesim's host geometry share."""
    out = []
    for i in range(16):
        d = f"{root}/index{i}"
        level = read_text(f"{d}/level")
        if level is None:
            continue
        size = read_text(f"{d}/size")
        out.append({
            "level": int(level),
            "type": read_text(f"{d}/type"),
            "size": size,
            "size_bytes": parse_size(size),
            "ways": int(read_text(f"{d}/ways_of_associativity") or 0) or None,
            "line_bytes": int(read_text(f"{d}/coherency_line_size") or 0) or None,
            "shared_cpu_list": read_text(f"{d}/shared_cpu_list"),
        })
    return out


def machine_caches(driver=None):
    """sysfs_caches(); where sysfs lists none (some VMs), the caches the
    driver (opsbench-run) found by CPUID, in the same form, with "source":
    "cpuid".  An L3 that CPUID does not describe is left out.  [] when
    neither says anything."""
    found = sysfs_caches()
    if found or not driver:
        return found
    try:
        res = subprocess.run([driver, "--list", "--json"], capture_output=True, text=True, timeout=60)
        c = json.loads(res.stdout)["caches"] if res.returncode == 0 else None
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        c = None
    if not c or not str(c.get("source", "")).startswith("cpuid"):
        return []

    def entry(level, kind, size, ways):
        return {"level": level, "type": kind, "size": f"{size >> 10}K", "size_bytes": size,
                "ways": ways or None, "line_bytes": c.get("line") or None,
                "shared_cpu_list": None, "source": "cpuid"}
    out = [entry(1, "Data", c["l1d"], c.get("l1d_ways"))]
    if c.get("l1i"):
        out.append(entry(1, "Instruction", c["l1i"], c.get("l1i_ways")))
    out.append(entry(2, "Unified", c["l2"], c.get("l2_ways")))
    if c["source"] == "cpuid" and c["llc"] != c["l2"]:
        out.append(entry(3, "Unified", c["llc"], c.get("llc_ways")))
    return out


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
    seen = set()
    for b in data["benchmarks"]:
        if not isinstance(b, dict) or not isinstance(b.get("name"), str) or \
                not isinstance(b.get("run_name", ""), str):
            raise ResultsError(f"{path}: a benchmark entry without a name (or with one that is not a string)")
        if b.get("error_occurred"):
            skipped[strip_gb_suffixes(b.get("run_name", b["name"]))] = b.get("error_message", "error")
            continue
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = strip_gb_suffixes(b.get("run_name", b["name"]))
        try:
            ns = float(b["real_time"]) * UNIT_NS[b.get("time_unit", "ns")]
        except (KeyError, ValueError, TypeError):
            raise ResultsError(f"{path}: {name}: no usable real_time/time_unit") from None
        if not math.isfinite(ns):
            raise ResultsError(f"{path}: {name}: real_time {b.get('real_time')!r} is not a finite number")
        # A time is positive and below an hour per iteration; anything else is a broken file.
        # (Cold-mode samples are differences, the timer's overhead subtracted: they may
        # fall below 0 when a lookup is quicker than the timer's own noise.)
        cold = "/mode:cold/" in name
        if not (abs(ns) < 3.6e12 if cold else 0 < ns < 3.6e12):
            raise ResultsError(f"{path}: {name}: real_time {b.get('real_time')!r} "
                               f"{b.get('time_unit', 'ns')} is not a plausible time (0 < t < 1 h)")
        # One sample per repetition (and per round): a duplicate means a file merged twice.
        key = (name, b.get("repetition_index"), b.get("round"), b.get("per_family_instance_index"))
        if key in seen:
            raise ResultsError(f"{path}: {name}: the same sample twice (repetition "
                               f"{b.get('repetition_index')}, round {b.get('round')})")
        seen.add(key)
        entry = out.setdefault(name, {"samples": [], "counters": {}, "label": b.get("label")})
        entry["samples"].append(ns)
        for k, v in b.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in (
                    "real_time", "cpu_time", "iterations", "repetitions",
                    "repetition_index", "threads", "family_index",
                    "per_family_instance_index"):
                if not math.isfinite(v):
                    raise ResultsError(f"{path}: {name}: counter {k}={v!r} is not a finite number")
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


_GB_SUFFIX = re.compile(r"/(iterations:\d+|repeats:\d+|manual_time|real_time)(?=/|$)")


def strip_gb_suffixes(name):
    """The benchmark's own name, without what Google Benchmark appends for
    fixed iterations, repetitions and manual time."""
    return _GB_SUFFIX.sub("", name)


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


# A process is in the host's slow state when its level is more than this
# many times the quietest process's (quiet_processes()).  Over 2,000
# process levels of six make bench runs on the 2-core VM, the quiet ones lay
# within 1.0-1.3x of the quietest and the slow ones at 1.35-1.8x, the
# "fast and slow cluster about 1.5x apart" that the host shows.
QUIET_SLACK = 1.3


def quiet_processes(entries, slack=QUIET_SLACK):
    """Which processes of a scenario measured it with the host in its quiet
    state.  @entries: every strategy's load_gb entry of one scenario (with
    "round" and "pass" counters).  A process's level is the geometric mean,
    over the strategies, of its median sample; a process whose level is more
    than @slack times the lowest is set aside.  The host's slow phases slow
    memory-bound work more than a fixed cost such as a retpoline's, so a
    ratio measured in them is not the quiet machine's ratio: three of eight
    processes in that state moved a run's ratio by 3.6%.  Like the minimum
    as a location, the quiet state is the one a second run can find again.
    Returns {"kept": set of passes, "processes": how many measured}, or None
    where the samples carry no process (a "pass" counter) or one process
    measured them all."""
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
    level = {p: statistics.fmean(v) for p, v in logs.items()}
    floor = min(level.values())
    kept = {p for p, v in level.items() if v - floor <= math.log(slack)}
    return {"kept": kept, "processes": len(level)}


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
    rounds alone covered the ratio of a second run only about half the time
    (155 of 290 in the reference pair; 208 drawing processes too).  @quiet
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
            "set_aside": set_aside, "differs": not (rlo <= 1.0 <= rhi)}


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


def write_atomic(path, text):
    """Write text to path through path.part and a rename: a reader sees the
    old file or the whole new one.  On an error (a full disk) the part file
    is removed and the OSError raised; run_main() turns it into one line."""
    tmp = path + ".part"
    try:
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OSError(e.errno, e.strerror, e.filename or tmp) from None


def write_json(path, obj):
    """write_atomic() of obj as indented JSON."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n")


# The first line of the INCOMPLETE marker that scripts/results-dir.sh writes
# into a folder it makes for a tool; finish_run() removes only that marker.
UNFINISHED = "unfinished:"


def finish_run(folder):
    """Mark a folder made for this tool (scripts/results-dir.sh) complete."""
    marker = os.path.join(folder, "INCOMPLETE")
    if (read_text(marker) or "").startswith(UNFINISHED):
        os.unlink(marker)


def _proc_status(pid):
    fields = {}
    for line in (read_text(f"/proc/{pid}/status") or "").splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def watch_make(interval=1.0):
    """Stop this script (as Ctrl-C does: KeyboardInterrupt in the main thread,
    which also stops a subprocess.run() child) when a make above it ends or
    takes a fatal signal.  make forwards only SIGTERM, and only to its own
    child; on SIGINT, SIGHUP or SIGQUIT sent to it alone it waits for its
    children to finish.  Its handler resets the signal it took to the
    default action, which /proc/PID/status shows (SigCgt).  The shell twin
    of this is watch_make in scripts/run-folder.sh."""
    import _thread
    import threading
    import time
    makes, pid = [], os.getppid()
    while pid > 1:
        st = _proc_status(pid)
        if st.get("Name") in ("make", "gmake"):
            makes.append((pid, int(st.get("SigCgt", "0"), 16)))
        elif st.get("Name") not in ("sh", "dash", "bash"):
            break
        pid = int(st.get("PPid", "0"))
    if not makes:
        return

    def watch():
        while True:
            time.sleep(interval)
            for pid, cgt in makes:
                st = _proc_status(pid)
                now = int(st.get("SigCgt", "0"), 16) if st else 0
                lost = [name for name, num in (("HUP", 1), ("INT", 2), ("QUIT", 3), ("TERM", 15))
                        if cgt & (1 << (num - 1)) and not now & (1 << (num - 1))]
                if not st or lost:
                    why = f"SIG{lost[0]} to make (pid {pid})" if lost else f"make (pid {pid}) ended"
                    print(f"{os.path.basename(sys.argv[0])}: stopping: {why}", file=sys.stderr)
                    _thread.interrupt_main()
                    return

    threading.Thread(target=watch, daemon=True).start()


def run_main(main, *args):
    """Run a script's main(): Ctrl-C ends it with 130, a closed pipe with 1
    and a failed read or write (a full disk) with one line and 1, without a
    traceback (the caller, bench.sh or results-dir.sh, marks the run)."""
    prog = os.path.basename(sys.argv[0])
    try:
        main(*args)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        sys.exit(1)
