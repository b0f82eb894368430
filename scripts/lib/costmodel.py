"""costmodel.py - a first-order model of every measured lookup difference,
from the simulated counts and the machine's own calibrations, set against
the paired difference measured in the same build.  The model is EXPLAINED
below, as the report prints it; why these terms: docs/method.md#the-cost-model.
"""
from . import benchmarks, stats

# The model as the report explains it, above its table.
EXPLAINED = """predicted(strategy - baseline) =
          d(instructions)        / (baseline's instructions per ns, same mode, warm)
        + d(D1 read misses)      x (L2 load latency - L1 load latency)
        + d(LL misses)           x (memory load latency - L2 load latency)
        + d(mispredicts)         x the calibrated mispredict penalty
        + d(indirect branches)   x the build's extra cost of an indirect call

The counts are callgrind's (cachesim.csv: instructions, D1 read misses (a
store that misses retires into the store buffer and stalls nothing), LL
misses, and its branch simulator's mispredicts and indirect branches per
lookup) for
the named scenario with the same size class, custom share, order and
coldness as the timed one.  The latencies are the pointer chase's
(calib/chase: the smallest working set for L1, the first one past the
L1D for L2, the largest for memory), the penalty twice the difference of
calib/branch/random and /predictable, the hardening cost the build's
dispatch/indirect/targets:1/order:predictable minus its dispatch/direct_call
(0 in the plain build, where an indirect call is only its instructions).

Measured: the paired per-round difference (median, 95% bootstrap CI) of
the strategy against the scenario's baseline in the same build.  A
prediction holds when it is within 25% of the measured difference or
inside its CI, whichever is wider.  Where it does not, the report names
the largest term: the model's likely culprit."""

TERMS = ("instructions", "D1 misses", "LL misses", "mispredicts", "hardening")


def _f(row, key):
    try:
        return float(row.get(key) or 0.0)
    except ValueError:
        return 0.0


def calibration(results, meta):
    """{l1, l2, mem, mispredict, hardening{variant: ns}} in ns, or None where missing."""
    chase = benchmarks.chase_table(results)
    l1d = None
    for c in ((meta or {}).get("caches") or []):
        if c.get("level") == 1 and c.get("type") in ("Data", "Unified") and c.get("size_bytes"):
            l1d = c["size_bytes"]
    cal = {"l1": None, "l2": None, "mem": None, "mispredict": None, "hardening": {}}
    if chase:
        cal["l1"] = chase[0][1]
        cal["mem"] = chase[-1][1]
        past = [ns for b, ns in chase if l1d and b > l1d]
        cal["l2"] = past[0] if past else None
    med = {}
    for name, e in results.items():
        if name.startswith(("calib/branch/", "dispatch/direct_call", "dispatch/indirect/targets:1/order:predictable")):
            med[name] = stats.summarize(e["samples"])["median"]
    if "calib/branch/random" in med and "calib/branch/predictable" in med:
        cal["mispredict"] = 2 * (med["calib/branch/random"] - med["calib/branch/predictable"])
    for name, ns in med.items():
        if not name.startswith("dispatch/indirect/"):
            continue
        _, args = benchmarks.parse_name(name)
        v = args.get("variant", "plain")
        direct = med.get("dispatch/direct_call" + ("" if v == "plain" else f"/variant:{v}"))
        if direct is not None:
            cal["hardening"][v] = 0.0 if v == "plain" else max(0.0, ns - direct)
    return cal


def sim_name(args):
    """The named cachesim scenario of a timed lookup scenario, or None."""
    if args.get("order") != "uniform" or args.get("depth", "1") != "1":
        return None
    return f"{args.get('size')}-{args.get('custom')}pct-{'warm' if args.get('pollute') == '0' else 'coldops'}"


def model(data, baseline_of, scenarios):
    """Rows: one per (scenario, mode, variant, strategy) with a baseline, counts and a measurement."""
    cs = {(r["scenario"], r["strategy"]): r for r in data.get("cachesim") or []}
    if not cs:
        return [], "needs make cachesim (its counts are the model's input)"
    cal = calibration(data["results"], data["meta"])
    missing = [k for k in ("l1", "l2", "mem", "mispredict") if cal[k] is None]
    if missing:
        return [], f"needs the calibration group (missing: {', '.join(missing)})"
    # Instructions per ns of each baseline in each (scenario, mode, variant), warm.
    rows = []
    for sc, strat in scenarios.items():
        _, args = benchmarks.parse_name("x/" + sc)
        name = sim_name(args)
        if not name or args.get("size") not in ("L1", "L2"):
            continue
        v = args.get("variant", "plain")
        mode = args.get("mode")
        base = baseline_of(strat)
        b_sim = cs.get((name, base))
        if base not in strat or not b_sim:
            continue
        # The instructions' rate: the same mode's warm baseline (cold: latency mode, warm).
        warm_args = dict(args, pollute="0", mode="latency" if mode == "cold" else mode)
        warm_sc = "/".join(f"{k}:{warm_args[k]}" for k in args)  # same key order
        warm = scenarios.get(warm_sc, {}).get(base)
        w_sim = cs.get((sim_name(warm_args), base))
        if not warm or not w_sim:
            continue
        ipns = _f(w_sim, "instructions_per_lookup") / stats.location(warm["samples"])["p10"]
        hard = cal["hardening"].get(v)
        quiet = stats.quiet_processes(strat.values())
        for s, e in strat.items():
            s_sim = cs.get((name, s))
            if s == base or not s_sim:
                continue
            meas = stats.paired(strat[base], e, quiet)
            if not meas:
                continue
            d = {k: _f(s_sim, k) - _f(b_sim, k) for k in (
                "instructions_per_lookup", "D1_read_misses_per_lookup", "LL_misses_per_lookup",
                "cond_mispredicts_per_lookup", "indirect_mispredicts_per_lookup",
                "indirect_branches_per_lookup")}
            terms = {
                "instructions": d["instructions_per_lookup"] / ipns if ipns > 0 else 0.0,
                "D1 misses": d["D1_read_misses_per_lookup"] * (cal["l2"] - cal["l1"]),
                "LL misses": d["LL_misses_per_lookup"] * (cal["mem"] - cal["l2"]),
                "mispredicts": (d["cond_mispredicts_per_lookup"] + d["indirect_mispredicts_per_lookup"])
                * cal["mispredict"],
                "hardening": d["indirect_branches_per_lookup"] * (hard or 0.0),
            }
            pred = sum(terms.values())
            m, (lo, hi) = meas["diff_ns"], meas["diff_ci"]
            ok = abs(pred - m) <= 0.25 * abs(m) or lo <= pred <= hi
            rows.append({"scenario": name, "mode": mode, "variant": v, "strategy": s, "baseline": base,
                         "terms": terms, "predicted": pred, "measured": m, "ci": (lo, hi),
                         "residual": m - pred, "ok": ok,
                         "culprit": None if ok else max(terms, key=lambda k: abs(terms[k])),
                         "no_hardening_cost": hard is None and v != "plain"})
    return rows, None


def section(data, baseline_of, scenarios):
    rows, why = model(data, baseline_of, scenarios)
    head = ("## Cost model: predicted against measured\n\n" + EXPLAINED + "\n\n")
    if not rows:
        return head + f"Not computed: {why}.\n"
    cal = calibration(data["results"], data["meta"])
    held = sum(r["ok"] for r in rows)
    out = [head,
           f"Calibrations of this run: L1 load {cal['l1']:.2f} ns, L2 load {cal['l2']:.2f} ns, memory load "
           f"{cal['mem']:.1f} ns, mispredict {cal['mispredict']:.2f} ns, extra cost of an indirect call: " +
           (", ".join(f"{v} {ns:.2f} ns" for v, ns in sorted(cal["hardening"].items())) or "n/a") + ".\n",
           f"**The prediction holds for {held} of {len(rows)} strategy/scenario/mode/build differences** "
           f"(target: every L1 and L2 scenario).\n"]
    by_culprit = {}
    for r in rows:
        if not r["ok"]:
            by_culprit.setdefault(r["culprit"], []).append(r)
    if by_culprit:
        out.append("Where it fails, by the largest term of the prediction: " + "; ".join(
            f"{k}: {len(v)}" for k, v in sorted(by_culprit.items(), key=lambda kv: -len(kv[1]))) +
            ". A dominant *instructions* term that misses means the extra instructions overlap with the "
            "baseline's (out-of-order execution hides them in throughput mode) or the baseline's rate is "
            "not theirs; *D1 misses* that miss means the misses overlap (throughput) or are served from "
            "elsewhere than L2; *hardening* that misses means the dispatch group's per-call cost is not "
            "the lookup's (its thunk is predicted differently there).\n")
    table = []
    for r in sorted(rows, key=lambda r: (r["variant"], r["scenario"], r["mode"], r["strategy"])):
        t = r["terms"]
        table.append([r["scenario"], r["mode"], r["variant"], f"{r['strategy']} - {r['baseline']}",
                      *(f"{t[k]:+.2f}" for k in TERMS), f"{r['predicted']:+.2f}",
                      f"{r['measured']:+.2f} [{r['ci'][0]:+.2f}, {r['ci'][1]:+.2f}]",
                      f"{r['residual']:+.2f}", "yes" if r["ok"] else f"no ({r['culprit']})"])
    out.append("| scenario | mode | build | difference | " + " | ".join(f"{k} ns" for k in TERMS) +
               " | predicted ns | measured ns [95% CI] | residual ns | holds |")
    out.append("|" + "---|" * (9 + len(TERMS) - 1))
    out += ["| " + " | ".join(c) + " |" for c in table]
    return "\n".join(out) + "\n"
