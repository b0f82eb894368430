"""claims.py - the article's claims, each tested against a results folder.

Every claim function takes the loaded data (runfolder.load_run()) and returns
a dict: claim, test (what was measured), numbers (lines), and verdict, one
of "supported", "not supported", "depends on <condition>", or
"not tested: <what is missing>".  The verdict comes from the data alone:

- times of dispatch benchmarks: two medians differ only when their 95% CIs
  do not overlap; otherwise "no measurable difference" (which does not
  support a claim that one is faster);
- times of lookups: paired per-round differences (stats.paired) with a
  95% bootstrap interval and the minimal detectable effect (MDE), which
  every timed verdict states: "no measurable difference" means no
  difference larger than the MDE;
- object sizes are fixed by the layouts (every layout is 192 bytes, the
  inline name absorbing the difference): claims about space hold or fail
  "by construction", and the verdict says what the saving costs instead;
- simulated counts are exact: a difference of more than 0.05 per lookup
  counts;
- static instruction counts and object sizes are compared as they are.

The statistics behind the timed verdicts: docs/method.md#statistics.
"""
from . import benchmarks, stats

SIM_EPS = 0.05


def _sum(results, name):
    e = results.get(name)
    return stats.summarize(e["samples"]) if e else None


def _cmp_time(a, b):
    """'faster' if a < b, 'slower', or 'no measurable difference'."""
    if not stats.differs(a, b):
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


def _find(results, strategy, **want):
    """(name, entry) of the lookup entry of @strategy whose args include
    @want (and of the plain build unless @want names a variant), or
    (None, None)."""
    want.setdefault("variant", "plain")
    for name, e in results.items():
        words, args = benchmarks.parse_name(name)
        args.setdefault("variant", "plain")
        if len(words) >= 2 and words[0] == "lookup" and words[1] == strategy and \
                all(args.get(k) == v for k, v in want.items()):
            return name, e
    return None, None


def _entry(results, strategy, **want):
    """The entry of _find(), or None."""
    return _find(results, strategy, **want)[1]


def _paired(results, strategy, against, **want):
    """stats.paired of @strategy against @against in the scenario @want,
    with the scenario's processes in the host's slow state set aside as the
    report's tables set them aside, or None."""
    name, a = _find(results, against, **want)
    b = _entry(results, strategy, **want)
    if not a or not b:
        return None
    peers = benchmarks.lookup_scenarios(results)["/".join(name.split("/")[2:])]
    return stats.paired(a, b, stats.quiet_processes(peers.values()))


def _diff(p):
    return (f"{p['diff_ns']:+.2f} ns [{p['diff_ci'][0]:+.2f}, {p['diff_ci'][1]:+.2f}], "
            f"MDE {p['mde_ns']:.2f} ns, {p['n']} rounds" +
            (f"; {p['set_aside']} of {p['processes'] + p['set_aside']} processes set aside "
             "(host's slow state)" if p.get("set_aside") else ""))


def _l2_hit_ns(results, meta):
    """The pointer chase's latency just beyond the L1D (4x its size): one L2 hit."""
    l1d = next((c.get("size_bytes") for c in ((meta or {}).get("caches") or [])
                if c.get("level") == 1 and c.get("type") == "Data"), None)
    if not l1d:
        return None
    return next((ns for b, ns in benchmarks.chase_table(results) if b >= 4 * l1d), None)


def null_test(d):
    res = d["results"]
    nt100 = _sum(res, "dispatch/null_test/nonnull:100")
    nt0 = _sum(res, "dispatch/null_test/nonnull:0")
    ic = _sum(res, "dispatch/indirect/targets:1/order:predictable")
    dep = [_sum(res, "dispatch/null_test_dep/nonnull:100"), _sum(res, "dispatch/null_test_dep/nonnull:0"),
           _sum(res, "dispatch/indirect_dep/targets:1")]
    out = {"claim": "Testing a NULL pointer before an indirect call wastes time when the pointer is "
                    "usually non-NULL, and is cheaper than an indirect call when it is usually NULL.",
           "test": "dispatch benchmarks, one dependency chain of calls: NULL test then call "
                   "(pointer never NULL), NULL test then inline default (always NULL), against an "
                   "unconditional indirect call to one predictable target; once with the pointer "
                   "off the critical path (objects in order) and once on it (the object the last "
                   "result chose)",
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
    if all(dep):
        # On the critical path too: it wastes time if it does in either place,
        # and is cheaper only if it is in both.
        a2, b2 = _cmp_time(dep[0], dep[2]), _cmp_time(dep[1], dep[2])
        out["numbers"] += [f"on the critical path: indirect call {_ns(dep[2])}; NULL test + call, never NULL "
                           f"{_ns(dep[0])} ({_than(a2)} the plain call); always NULL {_ns(dep[1])} "
                           f"({_than(b2)} the plain call)"]
        if a2 == "slower":
            wastes, a = True, "slower"
        cheaper = cheaper and b2 == "faster"
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
    i_def = _sim(cs, "L1-0pct-warm", "default_ops", "instructions_per_lookup")
    i_nul = _sim(cs, "L1-0pct-warm", "null_tested", "instructions_per_lookup")
    try:
        s_def, s_nul = (dis[s]["site_d_hash"][f"{d.get('isa', 'x86_64')}-plain"]
                        for s in ("default_ops", "null_tested"))
    except (KeyError, TypeError):
        if not d.get("isa") or i_def is None or i_nul is None:
            out["verdict"] = "not tested: needs make disasm"
            return out
        # Another ISA's view (isa_view()) without its disassembly: executed instructions alone.
        out["numbers"].append(f"executed per lookup (simulated): default_ops {i_def:.1f}, null_tested {i_nul:.1f}")
        out["verdict"] = ("supported in executed instructions (call sites not disassembled)"
                          if i_def <= i_nul + SIM_EPS else "not supported in executed instructions: a lookup "
                          f"executes {i_def - i_nul:.1f} more, since every default is a real call")
        return out
    out["numbers"].append(f"hash-op call site: default_ops {s_def} instructions, null_tested {s_nul}")
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
                   "L1-0pct-coldops), and the time of one cold lookup (cold mode: pollution of twice "
                   "the L1D before each lookup, outside the timed region; L1-sized tree, 0% custom, "
                   "uniform order), flag_gated paired with null_tested and default_ops in the same "
                   "rounds",
           "numbers": []}
    m = {s: _sim(cs, "L1-0pct-coldops", s, "D1_read_misses_per_lookup")
         for s in ("flag_gated", "null_tested", "default_ops")}
    sim = None not in m.values()
    if sim:
        out["numbers"].append("D1 read misses per lookup, cold ops tables (simulated): " +
                              ", ".join(f"{s} {v:.2f}" for s, v in m.items()))
    want = {"mode": "cold", "size": "L1", "custom": "0", "order": "uniform", "depth": "1"}
    timed = {s: _paired(res, s, "flag_gated", **want) for s in ("null_tested", "default_ops")}
    l2 = _l2_hit_ns(res, d.get("meta"))
    if l2:
        out["numbers"].append(f"expected size of one avoided fetch: one L2 hit, {l2:.2f} ns (pointer chase)")
    for s, p in timed.items():
        if p:
            out["numbers"].append(f"time, one cold lookup, {s} minus flag_gated (paired): {_diff(p)}")
    if not sim and not any(timed.values()):
        out["verdict"] = "not tested: needs make cachesim or the cold lookup scenarios of make bench"
        return out
    fewer = sim and m["flag_gated"] < m["null_tested"] - SIM_EPS and \
        m["flag_gated"] < m["default_ops"] - SIM_EPS
    if sim and not fewer:
        out["verdict"] = "not supported: flag_gated misses no less often (simulated)"
        return out
    parts = []
    for s, p in timed.items():
        if not p:
            continue
        lo = p["diff_ci"][0]
        if lo > 0:
            parts.append(f"{s} is slower by {p['diff_ns']:.2f} ns")
        elif p["diff_ci"][1] < 0:
            parts.append(f"{s} is faster by {-p['diff_ns']:.2f} ns")
        else:
            parts.append(f"no measurable difference from {s} (none larger than {p['mde_ns']:.2f} ns)")
    powered = all(p and p["diff_ci"][1] - p["diff_ci"][0] < (l2 or float("inf")) for p in timed.values())
    if parts and all(x.endswith("ns") and "slower" in x for x in parts):
        out["verdict"] = ("supported" + (" in simulated misses and" if sim else "") +
                          " in time: " + "; ".join(parts))
    elif parts:
        out["verdict"] = (("depends on the instrument: supported in simulated misses " +
                           f"({m['null_tested'] - m['flag_gated']:.2f} fewer than null_tested, "
                           f"{m['default_ops'] - m['flag_gated']:.2f} fewer than default_ops); "
                           if sim else "") + "in time: " + "; ".join(parts) +
                          ("" if powered or not l2 else
                           f" (the intervals are wider than one L2 hit, {l2:.2f} ns: underpowered)"))
    else:
        out["verdict"] = "supported (simulated misses; no cold timings in this run)"
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
    out["numbers"].append(f"bytes per dentry: vtable {b_v:.0f}, embedded {b_e:.0f}: equal by construction, "
                          "as the kernel keeps the object at 192 bytes; the embedded layout pays for its "
                          "two extra pointers with 16 bytes of inline name (24 instead of 40), so names "
                          "of 24 to 39 bytes move out of the object")
    if r_v is None or r_e is None:
        out["verdict"] = ("by construction for space (16 bytes of inline name per object); "
                          "not tested for memory references: needs make cachesim")
        return out
    out["numbers"].append(f"data reads per lookup (simulated): vtable {r_v:.2f}, embedded {r_e:.2f}")
    extra = r_v > r_e + SIM_EPS
    out["verdict"] = ("by construction for space (the vtable saves 16 bytes of inline name per object); "
                      + ("supported for memory references: the vtable costs "
                         f"{r_v - r_e:.2f} more data reads per lookup" if extra else
                         "not supported for memory references: no extra reads here"))
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
    saved = 8  # one pointer, by construction
    pct = 100.0 * saved / b_v
    out["numbers"].append(f"bytes per dentry: parent_ops {b_p:.0f}, null_tested {b_v:.0f}; the pointer "
                          f"saved ({saved} bytes, {pct:.1f}% of the object) becomes 8 more bytes of inline "
                          "name, as the kernel would use it")
    m_p = _sim(cs, "L1-100pct-coldops", "parent_ops", "D1_read_misses_per_lookup")
    m_v = _sim(cs, "L1-100pct-coldops", "null_tested", "D1_read_misses_per_lookup")
    if m_p is not None and m_v is not None:
        out["numbers"].append(f"the price, D1 read misses per lookup (simulated, 100% custom, cold): "
                              f"parent_ops {m_p:.2f}, null_tested {m_v:.2f}")
    price = (f"; the price: {m_p - m_v:+.2f} D1 read misses per lookup (simulated, every directory "
             "custom, cold)" if m_p is not None and m_v is not None else "")
    out["verdict"] = (f"by construction: one pointer of {b_v:.0f} bytes, {pct:.1f}% (the article says about 5%)"
                      + price)
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
    p = _paired(res, "flag_hoisted", "flag_gated", mode="throughput", size="L1", custom="10",
                order="uniform", pollute="0", depth="1")
    if p:
        rel = ("no measurable difference" if not p["differs"] else
               "faster" if p["ratio"] < 1 else "slower")
        out["numbers"].append(f"time, L1, 10% custom, throughput: flag_hoisted / flag_gated (paired) "
                              f"{p['ratio']:.3f} [{p['ratio_ci'][0]:.3f}, {p['ratio_ci'][1]:.3f}]: {rel}")
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
# The claims that rest on simulated counts alone, judged on arm64 too (isa_view()).
ISA_CLAIMS = [default_ops, flag_bits]


def evaluate(d):
    return [fn(d) for fn in ALL]


def variant_view(d, variant):
    """@d as if @variant's timings were the plain build's: its benchmarks
    with the "/variant:<v>" part removed, the plain ones dropped, and the
    simulated counts of @variant's own build (cachesim.csv's rows of that
    variant; none where make cachesim did not simulate it: a claim resting
    on counts is then not tested under it, never judged with the plain
    build's counts).  The disassembly stays the plain build's.  None when
    the run has no benchmark of @variant."""
    from . import simrows
    tag = f"/variant:{variant}"
    res = {n.replace(tag, ""): e for n, e in d["results"].items() if tag in n}
    if not res:
        return None
    calib = {n: e for n, e in d["results"].items() if n.startswith("calib/")}
    arch = (d.get("meta") or {}).get("arch") or "x86_64"
    counts = simrows.select(d.get("cachesim_all") or [], arch, variant, arch)
    return {**d, "results": {**calib, **res}, "cachesim": counts}


def context_view(d, kernel, variant=None):
    """@d as if the component context of Linux @kernel (its lookup groups,
    named ".../context:component/kernel:<kernel>") were the bare lookup, in
    the plain build or @variant's: those groups renamed without the context,
    every other lookup group dropped (so a claim that needs a scenario the
    context lacks says "not tested"), calibration and dispatch kept.  None
    when the run has no such group."""
    tag = f"/context:component/kernel:{kernel}"
    base = variant_view(d, variant) if variant else d
    if base is None:
        return None
    res = {n.replace(tag, ""): e for n, e in base["results"].items() if tag in n}
    if not res:
        return None
    keep = {n: e for n, e in base["results"].items() if not n.startswith("lookup/")}
    return {**base, "results": {**keep, **res}}


def isa_view(d, arch):
    """@d as the claims see @arch's machine code: the simulated counts of
    its plain build (cachesim.csv's @arch rows), its disassembly column,
    and no timings (they are the host's).  None when there are no such rows."""
    from . import simrows
    own = (d.get("meta") or {}).get("arch") or "x86_64"
    rows = simrows.select(d.get("cachesim_all") or [], arch, "plain", own)
    if not rows:
        return None
    return {**d, "cachesim": rows, "results": {}, "isa": arch}
