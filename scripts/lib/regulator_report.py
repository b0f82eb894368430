"""regulator_report.py - the report's second case study (the regulator) and
the two case studies side by side ("Where dispatch stops mattering").

Regulator benchmarks (bench/regulator.c) are plain repetitions, named
regulator/<strategy>/core:<2011|6.x>/bus:<mmio|i2c>/path:<p>/driver:<d>/delay:<how>:
each strategy's median ns per call with its 95% CI (stats.summarize), the
difference to the regulator baseline (null_tested, the commits' own code)
with its share of the path's time, and the register reads, writes and bus
time per call that the benchmark counted.  Side by side, for each path: the
spread of the strategies (slowest median minus fastest) as a share of the
baseline path's time, over all strategies and over those that make the
baseline's register accesses (what dispatch alone costs); for the dentry
lookups the same from the 10th percentiles of the warm L1 and L2 scenarios.
The case study itself: docs/regulator.md.
"""
from . import benchmarks, stats
from .markdown import fmt, table

REG_BASELINE = "null_tested"

# Report order of the dimensions (names outside these lists sort after them).
CORES = ["2011", "6.x"]
BUSES = ["mmio", "i2c"]
PATHS = ["set_voltage", "enable"]
DRIVERS = ["plain", "ab8500", "ab8500_sel", "ab8500_tvout"]
DELAYS = ["none", "count", "wait"]


def _rank(order, v):
    return (order.index(v), "") if v in order else (len(order), v)


def _key_order(key):
    return tuple(_rank(o, v) for o, v in zip((CORES, BUSES, PATHS, DRIVERS, DELAYS), key))


def _per_call(entry, name):
    """The median of counter @name (per call) over the repetitions, or None."""
    vals = entry["counters"].get(name)
    return stats.percentile(vals, 0.5) if vals else None


# A benchmark is measurable only when at least this many of its samples ran
# without the host taking the CPU (the "preempted" counter) and they are at
# least half of them: a spin-wait that was preempted measures the host.
MIN_UNPREEMPTED = 6


def _unpreempted(e):
    """(the samples of @e the host did not preempt, how many it did)."""
    pre = e["counters"].get("preempted")
    if not pre or len(pre) != len(e["samples"]):
        return e["samples"], 0
    kept = [x for x, p in zip(e["samples"], pre) if p == 0]
    return kept, len(e["samples"]) - len(kept)


def regulator_groups(res):
    """{(core, bus, path, driver, delay): {strategy: summary}} of the plain build's regulator
    benchmarks, in report order; each summary also has reads, writes, bus_us and delay_us per
    call, and "preempted" (samples the host preempted, left out) and "busy" (too few left)."""
    groups = {}
    for name, e in res.items():
        words, args = benchmarks.parse_name(name)
        if words[0] != "regulator" or len(words) < 2 or "variant" in args:
            continue
        key = tuple(args.get(k, "?") for k in ("core", "bus", "path", "driver", "delay"))
        kept, pre = _unpreempted(e)
        busy = len(kept) < MIN_UNPREEMPTED or 2 * len(kept) < len(e["samples"])
        st = stats.summarize(e["samples"] if busy else kept)
        st["preempted"], st["busy"] = pre, busy
        for c in ("reads", "writes", "bus_us", "delay_us"):
            st[c] = _per_call(e, c)
        groups.setdefault(key, {})[words[1]] = st
    return dict(sorted(groups.items(), key=lambda kv: _key_order(kv[0])))


def _accesses(st):
    return (st.get("reads"), st.get("writes"))


def _count(x):
    return "n/a" if x is None else fmt(x)


def _diff(st, base):
    d = st["median"] - base["median"]
    mark = "" if stats.differs(st, base) else " ~"
    return d, f"{d:+.2f}{mark}", f"{100 * d / base['median']:+.3f}%{mark}"


def plus21(groups):
    """What default_ops costs the plain driver's set_voltage, per (core, bus):
    [(core, bus, base ns, diff ns, share, measurable, extra reads per call)]."""
    out = []
    for (core, bus, path, driver, delay), strat in groups.items():
        base, dflt = strat.get(REG_BASELINE), strat.get("default_ops")
        if path != "set_voltage" or driver != "plain" or not base or not dflt:
            continue
        extra = None
        if base.get("reads") is not None and dflt.get("reads") is not None:
            extra = dflt["reads"] - base["reads"]
        d = dflt["median"] - base["median"]
        out.append((core, bus, base["median"], d, d / base["median"], stats.differs(dflt, base), extra))
    return out


def _plus21_text(groups):
    rows = plus21(groups)
    if not rows:
        return ""
    lines = []
    for core, bus, base, d, share, measurable, extra in rows:
        reads = "" if extra is None else f", {fmt(extra)} register read(s) more per call"
        verdict = "measurable" if measurable else "not measurable (CIs overlap)"
        lines.append(f"- core {core}, bus {bus}: `default_ops` {d:+.1f} ns on a {fmt(base)} ns path, "
                     f"{100 * share:+.1f}%{reads}; {verdict}.")
    return ("**Where the earlier \"+21%\" came from.** The first model of this path stopped the "
            "selector search at the first match (about half of the `list_voltage` calls that "
            "77af1b2641fa makes) and read registers in nanoseconds, so `default_ops`' one extra "
            "register read (the old selector, for its default `set_voltage_time_sel`) was a large "
            "share of a short path. On the path as the commit has it, every `list_voltage` call is "
            "made, which lengthens the path; and on a bus the extra read costs a bus transaction. "
            "`default_ops` against the NULL tests on the plain driver's set_voltage, here:\n\n" +
            "\n".join(lines) + "\n\n"
            "The difference never was dispatch: it is the register read that a mandatory default "
            "needs. It survives wherever that read happens, and on an I2C bus it is no longer "
            "nanoseconds but a bus transaction; where the regulator is off the 6.x core does not "
            "read the old selector at all.\n\n")


def regulator_section(res):
    groups = regulator_groups(res)
    if not groups:
        return ""
    rows = []
    for key, strat in groups.items():
        base = strat.get(REG_BASELINE)
        for s, st in sorted(strat.items(), key=lambda kv: (kv[0] != REG_BASELINE, kv[0])):
            diff = share = "n/a"
            if st["busy"] or (base and base["busy"]):
                diff = share = "not measurable (host)"
            elif base and s != REG_BASELINE:
                _, diff, share = _diff(st, base)
            left_out = f" ({st['preempted']} preempted, left out)" if st["preempted"] and not st["busy"] else ""
            rows.append([*key, s, fmt(st["median"]) + left_out, f"[{fmt(st['ci'][0])}, {fmt(st['ci'][1])}]",
                         diff, share, _count(st.get("reads")), _count(st.get("writes")),
                         _count(st.get("bus_us"))])
    return ("## The regulator: a cold path (second case study)\n\n"
            "`regulator_set_voltage()` and `regulator_enable()` (src/regulator/core.h) under each "
            "strategy, for two generations of the core: `core:2011`, as Linux commit 77af1b2641fa "
            "left it, and `core:6.x`, today's. Drivers: `plain` (no timing ops, on `set_voltage_sel`); "
            "`ab8500` as 42ab616afe88 has its variable LDOs, on `set_voltage`/`get_voltage`, so that "
            "the commit's `set_voltage_time_sel`, which the 2011 core calls only from its "
            "`set_voltage_sel` branch, **never runs with the two commits** (no strategy calls an "
            "optional op on that path in 2011); `ab8500_sel`, the driver's later conversion to "
            "selectors (not either commit), where it runs; `ab8500_tvout`, the commit's fixed 2.0 V "
            "LDO, whose `enable_time` asks 10 ms on enable (`delay:wait` waits it; `delay:count` "
            "counts it, the same calls otherwise). Register accesses cost what the bus says: `mmio`, "
            "nothing added to the simulated register's load or store; `i2c`, each access waits the "
            "wire time of a 400 kHz register read or write (docs/regulator.md). Set_voltage runs on "
            "a regulator that is on; enable starts from off each call (an enable of a regulator in "
            "use does nothing but count). Median ns per call over the repetitions with its 95% CI; "
            f"the difference to `{REG_BASELINE}` in ns and as a share of its path; `~`: the CIs "
            "overlap (no measurable difference); register reads, writes and bus time per call as "
            "counted.\n\n" +
            _plus21_text(groups) +
            table(["core", "bus", "path", "driver", "delay", "strategy", "ns/call (median)", "95% CI",
                   f"vs {REG_BASELINE} (ns)", "share of the path", "reads", "writes", "bus us"],
                  rows) + "\n")


def stop_mattering(res):
    """[(label, path ns, spread ns, share, measurable)] for the dentry lookups and the
    regulator paths; measurable: some strategy's CI (regulator) clears the baseline's."""
    out = []
    for name in ("L1", "L2"):
        locs = {}
        for n, e in res.items():
            words, args = benchmarks.parse_name(n)
            if (words[0] == "lookup" and len(words) > 1 and args.get("size") == name and
                    args.get("custom") == "0" and args.get("order") == "uniform" and
                    args.get("pollute") == "0" and args.get("mode") == "throughput" and
                    args.get("depth") == "1" and "variant" not in args):
                locs[words[1]] = stats.location(e["samples"])["p10"]
        if len(locs) > 1 and locs.get("direct"):
            spread = max(locs.values()) - min(locs.values())
            out.append((f"dentry lookup, {name}, warm", locs["direct"], spread, spread / locs["direct"], None))
    for key, strat in regulator_groups(res).items():
        meds = {s: st["median"] for s, st in strat.items()}
        base = meds.get(REG_BASELINE)
        if base and any(st["busy"] for st in strat.values()):
            out.append((_label(key), base, None, None, "busy"))
        elif base and len(meds) > 1:
            spread = max(meds.values()) - min(meds.values())
            measurable = any(stats.differs(st, strat[REG_BASELINE]) for s, st in strat.items()
                             if s != REG_BASELINE)
            out.append((_label(key), base, spread, spread / base, measurable))
    return out


def _label(key):
    core, bus, path, driver, delay = key
    return f"regulator {core}, {bus}, {path}, {driver}, delay {delay}"


def dispatch_alone(res):
    """{label: (spread ns, share, measurable, strategies)} over the strategies that make the
    baseline's register accesses per call, for each regulator path."""
    out = {}
    for key, strat in regulator_groups(res).items():
        base = strat.get(REG_BASELINE)
        if not base:
            continue
        same = {s: st for s, st in strat.items() if _accesses(st) == _accesses(base)}
        if len(same) < 2 or any(st["busy"] for st in same.values()):
            continue
        meds = [st["median"] for st in same.values()]
        spread = max(meds) - min(meds)
        measurable = any(stats.differs(st, base) for s, st in same.items() if s != REG_BASELINE)
        out[_label(key)] = (spread, spread / base["median"], measurable, len(same))
    return out


def stop_mattering_section(res):
    rows = stop_mattering(res)
    if not rows:
        return ""
    alone = dispatch_alone(res)
    body = []
    for label, path, spread, share, m in rows:
        a = alone.get(label)
        if m == "busy":
            body.append([label, fmt(path), "-", "-", "not measurable: the host preempted too many samples",
                         "-", "-"])
            continue
        body.append([label, fmt(path), fmt(spread), f"{100 * share:.3f}%",
                     "n/a (paired ratios above)" if m is None else ("yes" if m else "no"),
                     "n/a" if a is None else f"{fmt(a[0])} ({100 * a[1]:.3f}%, {a[3]} strategies)",
                     "n/a" if a is None else ("yes" if a[2] else "no")])
    return ("## Where dispatch stops mattering\n\n"
            "Both case studies side by side: for each path, the spread between the strategies (slowest "
            "minus fastest; dentry lookups: 10th percentiles, plain build, no custom ops; regulator: "
            "medians) against the time of the path itself (the baseline's), and that spread as a share "
            "of the path (plot `dispatch-share`). For the regulator, *measurable* says whether any "
            "strategy's 95% CI clears the baseline's; the last two columns take only the strategies "
            "that make the baseline's register reads and writes per call, which leaves out "
            "`default_ops` wherever its default needs the old selector: their spread is what "
            "dispatch alone costs. Where none is measurable, the spread is the path's own noise (a "
            "bus transaction's or a settling delay's jitter), and dispatch has stopped mattering. "
            "Rows: both core generations (2011, as the seed commits ran it, and 6.x), both buses "
            "(MMIO-like and I2C-like register accesses). A sample during which the host took the CPU "
            "(an involuntary context switch: the `preempted` counter) is left out; a path with fewer "
            f"than {MIN_UNPREEMPTED} samples left, or fewer than half, is *not measurable* on this host "
            "now, never drawn as a share.\n\n" +
            table(["path", "path ns", "spread between strategies (ns)", "share of the path", "measurable",
                   "spread, same register accesses (ns, share)", "measurable (same accesses)"],
                  body) + "\n")
