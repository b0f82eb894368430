"""claims.py - the article's claims, each tested against a results folder.

Every claim function takes the loaded data (see report.load_run) and returns
a dict: claim, test (what was measured), numbers (lines), and verdict, one
of "supported", "not supported", "depends on <condition>", or
"not tested: <what is missing>".  The verdict comes from the data alone:

- times: two medians differ only when their 95% CIs do not overlap;
  otherwise "no measurable difference" (which does not support a claim that
  one is faster);
- simulated counts are exact: a difference of more than 0.05 per lookup
  counts;
- static instruction counts and object sizes are compared as they are.
"""
import obstats

SIM_EPS = 0.05


def _sum(results, name):
    e = results.get(name)
    return obstats.summarize(e["samples"]) if e else None


def _cmp_time(a, b):
    """'faster' if a < b, 'slower', or 'no measurable difference'."""
    if not obstats.differs(a, b):
        return "no measurable difference"
    return "faster" if a["median"] < b["median"] else "slower"


def _than(rel):
    """'faster than', 'slower than', or 'no measurable difference from'."""
    return rel + (" from" if rel == "no measurable difference" else " than")


def _ns(st):
    return f"{st['median']:.3g} ns [{st['ci'][0]:.3g}, {st['ci'][1]:.3g}]"


def _sim(cachesim, scenario, strategy, column):
    for r in cachesim:
        if r["scenario"] == scenario and r["strategy"] == strategy:
            return float(r[column])
    return None


def _lookup(results, strategy, **want):
    """The summary of the lookup benchmark of @strategy whose args include @want."""
    for name, e in results.items():
        words, args = obstats.parse_name(name)
        if len(words) >= 2 and words[0] == "lookup" and words[1] == strategy and \
                all(args.get(k) == v for k, v in want.items()):
            return obstats.summarize(e["samples"]), args
    return None, None


def null_test(d):
    res = d["results"]
    nt100 = _sum(res, "dispatch/null_test/nonnull:100")
    nt0 = _sum(res, "dispatch/null_test/nonnull:0")
    ic = _sum(res, "dispatch/indirect/targets:1/order:predictable")
    out = {"claim": "Testing a NULL pointer before an indirect call wastes time when the pointer is "
                    "usually non-NULL, and is cheaper than an indirect call when it is usually NULL.",
           "test": "dispatch benchmarks, one dependency chain of calls: NULL test then call "
                   "(pointer never NULL), NULL test then inline default (always NULL), against an "
                   "unconditional indirect call to one predictable target",
           "numbers": []}
    if not (nt100 and nt0 and ic):
        out["verdict"] = "not tested: needs the dispatch group of make bench"
        return out
    a = _cmp_time(nt100, ic)
    b = _cmp_time(nt0, ic)
    out["numbers"] = [f"indirect call: {_ns(ic)}",
                      f"NULL test + call, never NULL: {_ns(nt100)} ({_than(a)} the plain call)",
                      f"NULL test + inline default, always NULL: {_ns(nt0)} ({_than(b)} the plain call)"]
    wastes = a == "slower"
    cheaper = b == "faster"
    if wastes and cheaper:
        out["verdict"] = "supported"
    elif cheaper:
        out["verdict"] = ("depends on the pointer: cheaper than the call when usually NULL, but when "
                          "usually non-NULL the test wastes no measurable time (test + call was "
                          f"{'as fast as' if a == 'no measurable difference' else a + ' than'} "
                          "the plain call)")
    elif wastes:
        out["verdict"] = "depends on the pointer: the test wastes time when non-NULL, but is not cheaper when NULL"
    else:
        out["verdict"] = "not supported"
    return out


def default_ops(d):
    dis, cs = d["disasm"], d["cachesim"]
    out = {"claim": "Explicit default ops (never NULL) make call sites smaller and simpler.",
           "test": "instructions at the hash-op call site (make disasm, x86-64) and instructions "
                   "executed per lookup, all defaults, warm caches (make cachesim)",
           "numbers": []}
    try:
        s_def = dis["default_ops"]["site_d_hash"]["x86_64"]
        s_nul = dis["null_tested"]["site_d_hash"]["x86_64"]
    except (KeyError, TypeError):
        out["verdict"] = "not tested: needs make disasm"
        return out
    out["numbers"].append(f"hash-op call site: default_ops {s_def} instructions, null_tested {s_nul}")
    i_def = _sim(cs, "L1-0pct-warm", "default_ops", "instructions_per_lookup")
    i_nul = _sim(cs, "L1-0pct-warm", "null_tested", "instructions_per_lookup")
    smaller = s_def < s_nul
    if i_def is None or i_nul is None:
        out["verdict"] = "supported (call sites)" if smaller else "not supported"
        out["numbers"].append("instructions executed per lookup: not measured (make cachesim)")
        return out
    out["numbers"].append(f"executed per lookup (simulated): default_ops {i_def:.1f}, null_tested {i_nul:.1f}")
    if smaller and i_def <= i_nul + SIM_EPS:
        out["verdict"] = "supported"
    elif smaller:
        out["verdict"] = ("depends on what is counted: the call site is smaller, but a lookup executes "
                          f"{i_def - i_nul:.1f} more instructions, since every default is a real call")
    else:
        out["verdict"] = "not supported"
    return out


def flag_bits(d):
    cs, res = d["cachesim"], d["results"]
    out = {"claim": "Flag bits in the object avoid a memory fetch of the ops table in the hot path.",
           "test": "D1 misses per lookup with cold ops tables and no custom ops (make cachesim, "
                   "L1-0pct-coldops), and ns per lookup at L1 size with and without pollution",
           "numbers": []}
    m = {s: _sim(cs, "L1-0pct-coldops", s, "D1_read_misses_per_lookup")
         for s in ("flag_gated", "null_tested", "default_ops")}
    if None in m.values():
        out["verdict"] = "not tested: needs make cachesim"
        return out
    out["numbers"].append("D1 read misses per lookup, cold ops tables (simulated): " +
                          ", ".join(f"{s} {v:.2f}" for s, v in m.items()))
    fewer = m["flag_gated"] < m["null_tested"] - SIM_EPS and m["flag_gated"] < m["default_ops"] - SIM_EPS
    times = []
    for pollute in ("0", None):
        want = {"size": "L1", "custom": "0", "order": "uniform", "depth": "1"}
        fg, args = _lookup(res, "flag_gated", **want, **({"pollute": pollute} if pollute else {}))
        if pollute is None:
            polluted = [n for n in res if n.startswith("lookup/flag_gated/") and "/size:L1/" in n
                        and "/custom:0/" in n and "/order:uniform/" in n and "/pollute:0/" not in n]
            if not polluted:
                continue
            fg, args = _lookup(res, "flag_gated", **want, pollute=obstats.parse_name(polluted[0])[1]["pollute"])
        nt, _ = _lookup(res, "null_tested", **want, pollute=args["pollute"]) if fg else (None, None)
        if fg and nt:
            rel = _cmp_time(fg, nt)
            times.append(f"{rel} {'without pollution' if args['pollute'] == '0' else 'with pollution'}")
            out["numbers"].append(f"time, pollution {args['pollute']} B: flag_gated {_ns(fg)}, "
                                  f"null_tested {_ns(nt)}: {rel}")
    if not fewer:
        out["verdict"] = "not supported"
    elif times and all(t.startswith("faster") for t in times):
        out["verdict"] = "supported"
    elif times:
        out["verdict"] = ("depends on the instrument: supported in simulated misses "
                          f"({m['null_tested'] - m['flag_gated']:.2f} fewer than null_tested, "
                          f"{m['default_ops'] - m['flag_gated']:.2f} fewer than default_ops); "
                          "in time: " + ", ".join(times))
    else:
        out["verdict"] = "supported (simulated misses; no timings in this run)"
    return out


def vtable_vs_embedded(d):
    cs, objsize = d["cachesim"], d["object_size"]
    out = {"claim": "A vtable costs one extra memory reference but saves space compared with "
                    "embedded pointers once an object needs more than one method.",
           "test": "data reads per lookup with every directory's ops in use (make cachesim, "
                   "L1-100pct-warm) and bytes per dentry, null_tested (d_op table) against embedded "
                   "(three methods in the object)",
           "numbers": []}
    r_v = _sim(cs, "L1-100pct-warm", "null_tested", "data_reads_per_lookup")
    r_e = _sim(cs, "L1-100pct-warm", "embedded", "data_reads_per_lookup")
    b_v, b_e = objsize.get("null_tested"), objsize.get("embedded")
    if None in (b_v, b_e):
        out["verdict"] = "not tested: needs the lookup benchmarks' dentry_bytes"
        return out
    out["numbers"].append(f"bytes per dentry: vtable {b_v:.0f}, embedded {b_e:.0f} (three methods)")
    if r_v is None or r_e is None:
        out["verdict"] = "not tested: needs make cachesim for memory references"
        return out
    out["numbers"].append(f"data reads per lookup (simulated): vtable {r_v:.2f}, embedded {r_e:.2f}")
    extra = r_v > r_e + SIM_EPS
    saves = b_v < b_e
    if extra and saves:
        out["verdict"] = "supported"
    elif saves:
        out["verdict"] = "depends on what is counted: the vtable saves space but costs no extra reads here"
    elif extra:
        out["verdict"] = "depends on what is counted: the vtable costs reads but saves no space here"
    else:
        out["verdict"] = "not supported"
    return out


def parent_object(d):
    objsize, cs = d["object_size"], d["cachesim"]
    out = {"claim": "Moving the ops to a parent object (the superblock) saves the ops pointer's "
                    "space in every object (the article: about 5%).",
           "test": "bytes per dentry, parent_ops against null_tested; and what it costs: D1 misses "
                   "per lookup with every directory's ops in use and cold ops tables",
           "numbers": []}
    b_p, b_v = objsize.get("parent_ops"), objsize.get("null_tested")
    if None in (b_p, b_v):
        out["verdict"] = "not tested: needs the lookup benchmarks' dentry_bytes"
        return out
    saved = b_v - b_p
    pct = 100.0 * saved / b_v
    out["numbers"].append(f"bytes per dentry: parent_ops {b_p:.0f}, null_tested {b_v:.0f}: "
                          f"{saved:.0f} bytes saved, {pct:.1f}%")
    m_p = _sim(cs, "L1-100pct-coldops", "parent_ops", "D1_read_misses_per_lookup")
    m_v = _sim(cs, "L1-100pct-coldops", "null_tested", "D1_read_misses_per_lookup")
    if m_p is not None and m_v is not None:
        out["numbers"].append(f"the price, D1 read misses per lookup (simulated, 100% custom, cold): "
                              f"parent_ops {m_p:.2f}, null_tested {m_v:.2f}")
    if saved <= 0:
        out["verdict"] = "not supported"
    elif 3.0 <= pct <= 7.0:
        out["verdict"] = f"supported: {pct:.1f}% (the article says about 5%)"
    else:
        out["verdict"] = f"depends on the layout: {pct:.1f}% here, not about 5%"
    return out


def hoisted_compare(d):
    cs, res = d["cachesim"], d["results"]
    out = {"claim": "(Later kernels) testing the compare flag once per lookup, instead of once per "
                    "hash-chain entry, makes lookups cheaper.",
           "test": "instructions per lookup, flag_hoisted against flag_gated (make cachesim, warm, "
                   "0% and 100% custom), and ns per lookup at L1 size, 10% custom",
           "numbers": []}
    rows = []
    for sc in ("L1-0pct-warm", "L1-100pct-warm"):
        h = _sim(cs, sc, "flag_hoisted", "instructions_per_lookup")
        g = _sim(cs, sc, "flag_gated", "instructions_per_lookup")
        if h is not None and g is not None:
            rows.append((sc, h, g))
            out["numbers"].append(f"{sc}: flag_hoisted {h:.1f}, flag_gated {g:.1f} instructions per lookup (simulated)")
    if not rows:
        out["verdict"] = "not tested: needs make cachesim"
        return out
    fh, _ = _lookup(res, "flag_hoisted", size="L1", custom="10", order="uniform", pollute="0", depth="1")
    fg, _ = _lookup(res, "flag_gated", size="L1", custom="10", order="uniform", pollute="0", depth="1")
    if fh and fg:
        out["numbers"].append(f"time, L1, 10% custom: flag_hoisted {_ns(fh)}, flag_gated {_ns(fg)}: "
                              f"{_cmp_time(fh, fg)}")
    fewer = [h < g - SIM_EPS for _, h, g in rows]
    if all(fewer):
        out["verdict"] = "supported"
    elif any(fewer):
        out["verdict"] = "depends on the workload: fewer instructions in " + \
            ", ".join(sc for (sc, _, _), f in zip(rows, fewer) if f) + " only"
    else:
        out["verdict"] = ("not supported in this model: hoisting executes no fewer instructions "
                          "(chains hold about one entry, so a per-entry test is nearly a per-lookup test)")
    return out


ALL = [null_test, default_ops, flag_bits, vtable_vs_embedded, parent_object, hoisted_compare]


def evaluate(d):
    return [fn(d) for fn in ALL]
