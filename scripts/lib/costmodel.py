"""costmodel.py - a model of every measured L1- and L2-sized lookup
difference with the machine's structure, its coefficients checked against
the run's own calibrations and its predictions made for scenarios it was not
fitted on.  The model is EXPLAINED below, as the report prints it; why this
structure and how it is validated: docs/method.md#the-cost-model.

Each difference is one strategy against its scenario's baseline, in one
scenario, timing mode and build, with the simulated counts of the same
build (cachesim.csv's rows of that variant; a build without them is left
out and named, never priced with another build's counts).
"""
import os
import random
import statistics

from . import benchmarks, simrows, stats

# The model as the report explains it, above its tables.
EXPLAINED = """predicted(strategy - baseline), per timing mode, from the differences of
callgrind's counts per lookup of the same build, scenario, order and coldness:

  control transfers, priced by the same build's dispatch group, not fitted:
    + d(returns) x the build's return thunk   direct_call of the build minus the
                                               plain build's (0 without a return thunk)
    + d(thunk calls) x the thunk's own cost    indirect minus direct call of the build,
                                               less the return thunk its "ret" passes
  fitted per mode (least squares, no intercept), each beside its counterpart:
    + a x d(conditional branches)
    + b x d(calls)               call and return pairs of compiled code
    + c x d(indirect calls)      an indirect call beyond a direct one
  instructions: no term of their own; the prices of a call and of a test
    are measured with their instructions (call, ret, the load and the test),
    and the strategies' other instructions issue in slots the lookup leaves
    free (fitted freely below, as a check)
  misses:
    + d(chain misses) x (L2 - L1 load)    latency and cold: the lookup waits for them
    + d(LL misses) x (memory - L2 load)   every mode
    off-chain misses overlap (latency, cold) and a throughput loop's misses overlap
    across lookups: no term (fitted freely below, as a check)

A chain miss is a D1 read miss of a load on the lookup's dependent chain
(path, hash, bucket, chain entries, name compare and the compare op's own
loads); the loads that find and test an op (d_op, the ops table, the
superblock, flags: the walk's source lines that spell OP_PRESENT or
OP_CALL) and the d_seq reads only feed predicted branches and call targets
(cachesim.py chain_split()).  A thunk call is a call or jump through a
retpoline thunk; a return passes the return thunk in the rethunk and srso
builds (every "ret" is "jmp __x86_return_thunk"), the thunks' own returns
included.  Callgrind's branch predictor is not the CPU's: its mispredicts
are not a term (see below).

Each fitted coefficient is validated on differences its fit did not see:
one scenario group (scenario, order and build), one strategy or one size
class held out at a time.  A prediction holds when it is within one core
cycle (the scenario's ns_per_cycle) or 10% of the measured difference,
whichever is wider, or inside the measured difference's 95% CI."""

MODES = ("throughput", "latency", "cold")
# Every coefficient of a mode, as the report lists them.
COEFFS = ("instructions", "branches", "calls", "indirect calls", "misses")
# Those fitted: the same three in every mode.  Misses are priced by the
# pointer chase where the lookup waits for them (the chain, in latency and
# cold) and overlap elsewhere; instructions have no price of their own (a
# call's and a test's are in the dispatch group's price of them, the rest
# issue beside the lookup's work: docs/method.md#the-cost-model).  The free
# fit (FREE) prices both, as a check.
TERMS = {m: ("branches", "calls", "indirect calls") for m in MODES}
# The control transfers priced by the dispatch group: (term, calibration, what it is).
PRICED = (("returns", "rethunk", "per return, through the return thunk"),
          ("thunk calls", "thunk_own", "per thunk call, the thunk's own part"))
# The check: every coefficient fitted together, the dispatch-priced terms as
# a multiple of their build's price (1: the dispatch group's price holds).
FREE = {m: COEFFS + tuple(t for t, _, _ in PRICED) for m in MODES}
# The thunks' own instructions, priced with the thunk (src/arch/x86_64/
# retpoline.S): a retpoline thunk's beyond the call it replaces (call 1f;
# mov; ret), and the return thunk's per return (rethunk: the jmp and its
# ret; srso: jmp, call, lea, ret).
THUNK_INSTRUCTIONS = 3
RETURN_THUNK_INSTRUCTIONS = {"rethunk": 2, "srso": 4}
# A prediction holds within max(one core cycle, this share of the measured difference) or its CI.
REL_TOLERANCE = 0.10
# The bootstrap of the coefficients' intervals: resamples of the scenario groups.
BOOT_RESAMPLES = 400
# A coefficient that differs from its physical counterpart by more than this factor is flagged.
DISAGREE = 2.0
# The validations: which key a fold holds out.
FOLDS = (("scenario group", "group"), ("strategy", "strategy"), ("size class", "size"))
# The dispatch group's benchmarks the prices come from (plain build unless a variant is named).
DISPATCH = {"inlined": "dispatch/inlined_default", "test": "dispatch/flag_test/set:0",
            "direct": "dispatch/direct_call", "indirect": "dispatch/indirect/targets:1/order:predictable"}


def _f(row, key):
    try:
        return float(row.get(key) or 0.0)
    except ValueError:
        return 0.0


def calibration(results, meta):
    """In ns, None where missing: l1, l2, mem (pointer chase), mispredict,
    cycle; from the plain build's dispatch group a call and return pair
    (call: direct call minus the inlined default), a predicted test and
    branch (test: flag test, never set, minus the inlined default), an
    indirect call beyond a direct one (icall); per build {variant: ns} the
    return thunk (rethunk: the build's direct call minus the plain one's),
    a whole thunk call (thunk: the build's indirect minus direct call) and
    the thunk's own part (thunk_own: thunk less the return thunk its ret
    passes)."""
    chase = benchmarks.chase_table(results)
    l1d = None
    for c in ((meta or {}).get("caches") or []):
        if c.get("level") == 1 and c.get("type") in ("Data", "Unified") and c.get("size_bytes"):
            l1d = c["size_bytes"]
    cal = {"l1": None, "l2": None, "mem": None, "mispredict": None, "cycle": None,
           "call": None, "test": None, "icall": None, "rethunk": {}, "thunk": {}, "thunk_own": {}}
    if chase:
        cal["l1"] = chase[0][1]
        cal["mem"] = chase[-1][1]
        past = [ns for b, ns in chase if l1d and b > l1d]
        cal["l2"] = past[0] if past else None
    med = {}
    for name, e in results.items():
        if name.startswith(("calib/branch/", "calib/cycle", "dispatch/")):
            med[name] = stats.summarize(e["samples"])["median"]
    if "calib/branch/random" in med and "calib/branch/predictable" in med:
        cal["mispredict"] = 2 * (med["calib/branch/random"] - med["calib/branch/predictable"])
    # calib/cycle: eight dependent adds per iteration, eight cycles.
    cal["cycle"] = med["calib/cycle"] / 8 if "calib/cycle" in med else None

    def get(key, v="plain"):
        return med.get(DISPATCH[key] + ("" if v == "plain" else f"/variant:{v}"))

    def minus(a, b):
        return None if a is None or b is None else a - b
    cal["call"] = minus(get("direct"), get("inlined"))
    cal["test"] = minus(get("test"), get("inlined"))
    cal["icall"] = minus(get("indirect"), get("direct"))
    for name in med:
        if not name.startswith(DISPATCH["direct"]):
            continue
        v = benchmarks.parse_name(name)[1].get("variant", "plain")
        ret = 0.0 if v == "plain" else max(0.0, minus(get("direct", v), get("direct")) or 0.0)
        cal["rethunk"][v] = ret
        whole = minus(get("indirect", v), get("direct", v))
        if whole is not None:
            cal["thunk"][v] = 0.0 if v == "plain" else max(0.0, whole)
            cal["thunk_own"][v] = 0.0 if v == "plain" else max(0.0, whole - ret)
    return cal


def sim_name(args):
    """The cachesim.csv scenario of a timed lookup scenario, or None: the
    named scenario of its size, custom share, coldness, depth and context,
    "+<order>" where the order is not the named scenario's (uniform)."""
    size, custom, cold = args.get("size"), args.get("custom"), args.get("pollute", "0") != "0"
    if args.get("context", "bare") == "component":
        if cold or args.get("depth", "1") != "1":
            return None
        name = f"{size}-{custom}pct-component-{args.get('kernel', '6.12')}"
    elif args.get("depth", "1") == "1":
        name = f"{size}-{custom}pct-{'coldops' if cold else 'warm'}"
    elif not cold:
        name = f"{size}-{custom}pct-depth{args['depth']}"
    else:
        return None
    order = args.get("order", "uniform")
    return name if order == "uniform" else f"{name}+{order}"


def sim_rows(data):
    """{(variant, scenario, strategy): cachesim row} of the folder's own arch."""
    arch = (data.get("meta") or {}).get("arch") or "x86_64"
    rows = data.get("cachesim_all")
    if rows is None:                   # a caller with the plain rows only
        rows = [{**r, "variant": "plain"} for r in data.get("cachesim") or []]
    out = {}
    for r in rows:
        if simrows.arch_of(r, arch) == simrows.arch_of({"arch": arch}, arch):
            out[(simrows.variant_of(r), r["scenario"], r["strategy"])] = r
    return out


def _median_counter(entry, key):
    xs = entry["counters"].get(key)
    return statistics.median(xs) if xs else None


def differences(data, baseline_of, scenarios):
    """(rows, missing): one row per L1/L2 (scenario, mode, build, strategy)
    difference with simulated counts of its own build; @missing:
    {(build, cachesim scenario): how many differences had no counts}."""
    cs = sim_rows(data)
    rows, missing = [], {}
    rate = {}      # (variant, sim scenario, mode): the baseline's ns per instruction
    for sc, strat in scenarios.items():
        _, args = benchmarks.parse_name("x/" + sc)
        if args.get("size") not in ("L1", "L2"):
            continue
        name, v, mode = sim_name(args), args.get("variant", "plain"), args.get("mode")
        base = baseline_of(strat)
        if base not in strat or name is None or mode not in MODES:
            continue
        b_sim = cs.get((v, name, base))
        if not b_sim:
            missing[(v, name)] = missing.get((v, name), 0) + len(strat) - 1
            continue
        loc = stats.location(strat[base]["samples"])["p10"]
        ir = _f(b_sim, "instructions_per_lookup")
        if ir > 0 and loc > 0:
            rate[(v, name, mode)] = loc / ir
        cycle = _median_counter(strat[base], "ns_per_cycle")
        quiet = stats.quiet_processes(strat.values())
        split = "D1_read_misses_chain_per_lookup" in b_sim
        for s, e in strat.items():
            s_sim = cs.get((v, name, s))
            if s == base or not s_sim:
                continue
            meas = stats.paired(strat[base], e, quiet)
            if not meas:
                continue

            def d(k):
                return _f(s_sim, k) - _f(b_sim, k)
            rows.append({"timed": sc, "scenario": name, "mode": mode, "variant": v, "strategy": s,
                         "baseline": base, "size": args["size"], "group": f"{name} {v}",
                         "measured": meas["diff_ns"], "ci": meas["diff_ci"], "cycle": cycle,
                         "x": counts(d, v, mode, split), "chain_split": split})
    for r in rows:
        # the baseline's ns per instruction (1/IPC in ns) as this loop runs: the
        # instruction coefficient's physical counterpart
        r["ns_per_instruction"] = rate.get((r["variant"], r["scenario"], r["mode"]))
    return [r for r in rows if r["ns_per_instruction"]], missing


def counts(d, variant, mode, split):
    """A difference's terms from @d(cachesim column): the count differences
    per lookup, the thunks' own instructions and returns kept apart."""
    thunks, returns = d("thunk_calls_per_lookup"), d("returns_per_lookup")
    chain = d("D1_read_misses_chain_per_lookup") if split else d("D1_read_misses_per_lookup")
    x = {"d instructions": d("instructions_per_lookup"),
         "instructions": d("instructions_per_lookup") - THUNK_INSTRUCTIONS * thunks -
         RETURN_THUNK_INSTRUCTIONS.get(variant, 0) * returns,
         "branches": d("cond_branches_per_lookup"),
         # a thunk's "call 1f ... ret" is a return too, priced in the thunk call
         "calls": returns - thunks,
         "indirect calls": d("indirect_calls_per_lookup"),
         "returns": returns, "thunk calls": thunks,
         "D1 misses": d("D1_read_misses_per_lookup"), "chain misses": chain,
         "LL misses": d("LL_misses_per_lookup"),
         "off-chain misses": d("D1_read_misses_off_chain_per_lookup") if split else 0.0,
         "sim mispredicts": d("cond_mispredicts_per_lookup") + d("indirect_mispredicts_per_lookup")}
    x["misses"] = x["D1 misses"] if mode == "throughput" else x["chain misses"]
    return x


# ---- the model: fixed terms, a fit per mode, predictions ----

def fixed_terms(row, cal, terms=None):
    """{term: ns} of the terms priced by calibrations alone: the build's
    return thunk per return, the thunk's own cost per thunk call, LL misses,
    and in latency and cold the chain misses, where @terms (TERMS) does not
    fit misses."""
    x, v, fitted = row["x"], row["variant"], (terms or TERMS)[row["mode"]]
    out = {"LL misses": x["LL misses"] * (cal["mem"] - cal["l2"])}
    for term, key, _ in PRICED:
        if term not in fitted:
            out[term] = x[term] * cal[key].get(v, 0.0)
    if "misses" not in fitted and row["mode"] != "throughput":
        out["chain misses"] = x["chain misses"] * (cal["l2"] - cal["l1"])
    return out


def fixed_ns(row, cal, terms=None):
    """The sum of fixed_terms()."""
    return sum(fixed_terms(row, cal, terms).values())


def physical(rows, cal):
    """{mode: {coefficient: ns or None}}: each coefficient's physical
    counterpart: per instruction the baseline's own ns per instruction
    (median of the mode's scenarios: 1/IPC in ns); per conditional branch,
    call and indirect call the plain build's dispatch group (a predicted
    test and branch, a call and return pair, an indirect call beyond a
    direct one); per miss the pointer chase's L2 minus L1 latency; the
    dispatch-priced terms 1 (a multiple of their build's price)."""
    return {mode: {"instructions": median_rate(rows, mode), "branches": cal["test"], "calls": cal["call"],
                   "indirect calls": cal["icall"], "misses": cal["l2"] - cal["l1"],
                   **{t: 1.0 for t, _, _ in PRICED}} for mode in MODES}


def median_rate(rows, mode):
    """The median baseline ns per instruction of @mode's differences, or None."""
    rates = [r["ns_per_instruction"] for r in rows if r["mode"] == mode and r["ns_per_instruction"]]
    return statistics.median(rates) if rates else None


def _solve(a, b):
    """x with a x = b (Gaussian elimination, partial pivoting), or None where singular."""
    n = len(b)
    m = [list(row) + [v] for row, v in zip(a, b)]
    scale = max((abs(v) for row in a for v in row), default=0.0) or 1.0
    for i in range(n):
        piv = max(range(i, n), key=lambda k: abs(m[k][i]))
        if abs(m[piv][i]) <= 1e-9 * scale:
            return None
        m[i], m[piv] = m[piv], m[i]
        for k in range(n):
            if k != i:
                f = m[k][i] / m[i][i]
                m[k] = [x - f * y for x, y in zip(m[k], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def column(row, c, cal):
    """The value of coefficient @c's column in @row: its count difference,
    times the build's dispatch price for the PRICED terms (fitted as a
    multiple of that price)."""
    for term, key, _ in PRICED:
        if c == term:
            return row["x"][c] * cal[key].get(row["variant"], 0.0)
    return row["x"][c]


def fit(rows, cal, fallback, terms=None):
    """{mode: {coefficient: value}} by least squares without intercept on
    @rows (measured minus the fixed terms) of the coefficients @terms
    (TERMS) names; a mode with too few rows, or whose counts do not vary
    apart, takes @fallback's coefficients."""
    terms = terms or TERMS
    out = {}
    for mode in MODES:
        sel = [r for r in rows if r["mode"] == mode]
        back = {c: (fallback.get(mode) or {}).get(c) or 0.0 for c in terms[mode]}
        # a count that never differs in these rows has nothing to fit: its counterpart
        live = [c for c in terms[mode] if any(abs(column(r, c, cal)) > 1e-9 for r in sel)]
        xs = [[column(r, c, cal) for c in live] for r in sel]
        ys = [r["measured"] - fixed_ns(r, cal, terms) -
              sum(back[c] * column(r, c, cal) for c in terms[mode] if c not in live) for r in sel]
        k = len(live)
        a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
        b = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
        sol = _solve(a, b) if k and len(sel) > k else None
        out[mode] = {**back, **dict(zip(live, sol))} if sol else back
    return out


def decompose(coef, cal, row, terms=None):
    """{priced event: ns}: predict()'s difference taken apart, each fitted
    coefficient times its count difference, then the fixed terms."""
    c = coef.get(row["mode"]) or {}
    out = {k: (c.get(k) or 0.0) * column(row, k, cal) for k in (terms or TERMS)[row["mode"]]}
    out.update(fixed_terms(row, cal, terms))
    return out


def predict(coef, cal, row, terms=None):
    """The predicted difference: decompose()'s parts added up (in the same
    order as ever, so that printed figures do not move in the last digit)."""
    c = coef.get(row["mode"]) or {}
    return sum((c.get(k) or 0.0) * column(row, k, cal) for k in (terms or TERMS)[row["mode"]]) + \
        fixed_ns(row, cal, terms)


def holds(row, pred):
    """Within max(one core cycle, 10%) of the measured difference, or inside its CI."""
    m, (lo, hi) = row["measured"], row["ci"]
    tol = max(row["cycle"] or 0.0, REL_TOLERANCE * abs(m))
    return abs(pred - m) <= tol or lo <= pred <= hi


def cross_validate(rows, cal, key, fallback):
    """[(row, prediction)]: each row predicted by the fit on the rows whose
    @key differs from its own; nothing of a fold is in its own fit."""
    out = []
    for k in sorted({r[key] for r in rows}):
        train = [r for r in rows if r[key] != k]
        coef = fit(train, cal, fallback)
        out += [(r, predict(coef, cal, r)) for r in rows if r[key] == k]
    return out


def summary(pairs):
    """{n, held (how many hold), share, median_abs (ns)} of [(row, prediction)]."""
    if not pairs:
        return {"n": 0, "held": 0, "share": float("nan"), "median_abs": float("nan")}
    held = sum(holds(r, p) for r, p in pairs)
    return {"n": len(pairs), "held": held, "share": held / len(pairs),
            "median_abs": statistics.median(abs(r["measured"] - p) for r, p in pairs)}


def intervals(rows, cal, fallback, terms=None, n=BOOT_RESAMPLES, seed=1):
    """{mode: {coefficient: (low, high)}}: 95% percentile intervals of the
    fit over resamples of the scenario groups (with replacement)."""
    rng = random.Random(seed)
    groups = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    keys = sorted(groups)
    boots = {m: {c: [] for c in FREE[m]} for m in MODES}
    for _ in range(n):
        pick = [r for k in rng.choices(keys, k=len(keys)) for r in groups[k]]
        coef = fit(pick, cal, fallback, terms)
        for m in MODES:
            for c in FREE[m]:
                if coef.get(m, {}).get(c) is not None:
                    boots[m][c].append(coef[m][c])
    return {m: {c: ((stats.percentile(v, 0.025), stats.percentile(v, 0.975)) if v else (None, None))
                for c, v in cs.items()} for m, cs in boots.items()}


# The counts the bound below may use, each with a free price.
BOUND_COUNTS = ("instructions", "branches", "calls", "indirect calls", "returns", "thunk calls",
                "chain misses", "off-chain misses", "LL misses")


def count_bound(rows):
    """How far these counts go, fitted to the answers: every count of
    BOUND_COUNTS and an intercept fitted by least squares per mode and build
    on the very differences it is then judged on (in sample, no
    validation).  summary() of those predictions: a reference point for the
    held-out figures, not a validation."""
    pairs = []
    for key in sorted({(r["mode"], r["variant"]) for r in rows}):
        sel = [r for r in rows if (r["mode"], r["variant"]) == key]
        live = [c for c in BOUND_COUNTS if any(abs(r["x"][c]) > 1e-9 for r in sel)]
        xs = [[r["x"][c] for c in live] + [1.0] for r in sel]
        k = len(xs[0])
        a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
        for i in range(k):          # counts that move together: a relative ridge of 1e-6
            a[i][i] *= 1 + 1e-6
        c = _solve(a, [sum(x[i] * r["measured"] for x, r in zip(xs, sel)) for i in range(k)])
        pairs += [(r, sum(ci * xi for ci, xi in zip(c, x)) if c else 0.0) for r, x in zip(sel, xs)]
    return summary(pairs)


def shared_offsets(pairs):
    """A diagnosis, not a prediction: the held-out residuals of @pairs
    (cross_validate() by scenario group) less the median residual of their
    own group, i.e. less what every difference of a group shares, as a shift
    of its baseline would give.  {"offsets": {group: ns}, "summary":
    summary() of the shifted predictions}."""
    res = {}
    for r, p in pairs:
        res.setdefault(r["group"], []).append(r["measured"] - p)
    off = {g: statistics.median(v) for g, v in res.items()}
    return {"offsets": off, "summary": summary([(r, p + off[r["group"]]) for r, p in pairs])}


def model(data, baseline_of, scenarios, bootstrap=True):
    """Everything the section prints, or (None, why); without @bootstrap,
    no coefficient intervals (the validation only, as repro.py reads it)."""
    if not (data.get("cachesim") or data.get("cachesim_all")):
        return None, "needs make cachesim (its counts are the model's input)"
    cal = calibration(data["results"], data["meta"])
    missing = [k for k in ("l1", "l2", "mem") if cal[k] is None]
    if missing:
        return None, f"needs the calibration group (missing: {', '.join(missing)})"
    rows, no_counts = differences(data, baseline_of, scenarios)
    # a build whose dispatch group was not measured has no price for its thunks
    no_dispatch = sorted({r["variant"] for r in rows if r["variant"] not in cal["rethunk"]})
    rows = [r for r in rows if r["variant"] in cal["rethunk"]]
    if not rows:
        return None, ("needs the dispatch group (its direct and indirect calls price the control transfers)"
                      if no_dispatch else "no L1- or L2-sized difference has simulated counts of its build")
    phys = physical(rows, cal)
    coef = fit(rows, cal, phys)
    out = {"dir": data.get("dir"), "cal": cal, "rows": rows, "no_counts": no_counts, "physical": phys,
           "coef": coef, "no_dispatch": no_dispatch, "bound": count_bound(rows),
           "free": fit(rows, cal, phys, FREE),
           "physical_only": summary([(r, predict(phys, cal, r)) for r in rows]),
           "in_sample": summary([(r, predict(coef, cal, r)) for r in rows]), "folds": {}}
    for label, key in FOLDS:
        pairs = cross_validate(rows, cal, key, phys)
        out["folds"][label] = {"pairs": pairs, "summary": summary(pairs)}
    out["shared"] = shared_offsets(out["folds"]["scenario group"]["pairs"])
    if bootstrap:
        out["intervals"] = intervals(rows, cal, phys)
        out["free_intervals"] = intervals(rows, cal, phys, FREE)
    return out, None


# ---- the report's section ----

def _ratio_note(fitted, phys):
    if fitted is None or not phys:
        return "n/a"
    r = fitted / phys
    if r <= 0:
        return f"**{r:+.2f}x: opposite sign**"
    if r > DISAGREE or r < 1 / DISAGREE:
        return f"**{r:.2f}x: disagrees by more than {DISAGREE:g}x**"
    return f"{r:.2f}x"


# The reading offered where a fitted coefficient is more than DISAGREE from
# its counterpart and its interval does not hold it: (mode or None, coefficient).
WHY_DISAGREE = {
    (None, "instructions"): "the baseline's ns per instruction is an average over a loop that runs near "
    "the core's issue width; the strategies' extra instructions are mostly loads and tests beside the "
    "lookup's own work, which fill issue slots the loop leaves free",
    ("latency", "instructions"): "in latency mode the dependent chain sets the time; the strategies' "
    "extra instructions lie beside it and run in its shadow",
    ("cold", "instructions"): "a cold lookup waits for its misses; instructions that do not depend on "
    "them issue in their shadow",
    (None, "branches"): "the counterpart is a whole test in the dispatch loop (a load, a test and the "
    "branch); in the walk the load is often already there and the branch shares its cycle with other work",
    ("cold", "branches"): "the cold scenarios' branch differences come with the same strategies' "
    "off-chain misses (the strategies that test a flag load an ops table or a flag word), which overlap "
    "with the chain's waits; the fit lays that overlap on the branches",
    (None, "calls"): "the counterpart is a loop that does nothing but the call; in the walk the call "
    "and its return overlap with the lookup's other work (throughput) or lie beside its dependent chain "
    "(latency)",
    ("cold", "calls"): "in the cold scenarios the strategies with calls are the ones with off-chain "
    "misses and, in the srso build, return thunks whose mispredicts overlap with the misses' waits: "
    "the fit cannot tell these apart in 6 scenario groups",
    (None, "indirect calls"): "the dispatch group's indirect call with one target costs the same as a "
    "direct one to within its noise, so the ratio of two near-zero prices says little; and every "
    "indirect call of these strategies is also a call, so the fit may trade one for the other",
    (None, "returns"): "fitted together with every other price, the return thunk trades places with the "
    "calls (every call of the srso build returns through it), so the free fit cannot separate them",
    (None, "thunk calls"): "fitted together with every other price, the thunk trades places with the calls "
    "and returns it comes with (a thunk call is both), so the free fit cannot separate them",
    (None, "misses"): "the miss differences of these scenarios are a few hundredths per lookup (warm) "
    "or lie off the chain (cold), too few or too overlapped to price; the free fit lays other "
    "differences of the same strategies on them",
}


def _why(mode, coeff):
    return WHY_DISAGREE.get((mode, coeff)) or WHY_DISAGREE[(None, coeff)]


def _together(got, mode, coeff):
    """For an indirect call, what the fit does determine: a call and an
    indirect call beyond it together, against their counterparts' sum."""
    c, p = got["coef"][mode], got["physical"][mode]
    if coeff != "indirect calls" or c.get("calls") is None or c.get(coeff) is None:
        return ""
    return (f": an indirect call in all, {c['calls'] + c[coeff]:+.3f} ns against "
            f"{p['calls'] + p[coeff]:.3f} ns")


def section(data, baseline_of, scenarios):
    got, why = model(data, baseline_of, scenarios)
    head = "## Cost model: predicted against measured, on scenarios it was not fitted on\n\n```\n" + \
        EXPLAINED + "\n```\n\n"
    if got is None:
        return head + f"Not computed: {why}.\n"
    out = [head, _calibration_line(got["cal"])] + _left_out(data, got)
    out += _held_out(got)
    out += _coefficients(got)
    out.append(mispredict_note(got["rows"], got["cal"]))
    out.append(_differences_table(got))
    out.append(_decomposition_table(got))
    return "\n".join(out) + "\n"


def _ns(v, fmt="{:.2f} ns"):
    return "n/a" if v is None else fmt.format(v)


def _calibration_line(cal):
    per = lambda d: ", ".join(f"{v} {ns:.2f} ns" for v, ns in sorted(d.items())) or "n/a"  # noqa: E731
    return (f"Calibrations of this run: L1 load {cal['l1']:.2f} ns, L2 load {cal['l2']:.2f} ns, memory load "
            f"{cal['mem']:.1f} ns" + (f", mispredict {cal['mispredict']:.2f} ns" if cal["mispredict"] else "") +
            (f", core cycle {cal['cycle']:.3f} ns (calib/cycle; the pass test takes each scenario's own "
             "ns_per_cycle)" if cal["cycle"] else "") +
            f". Dispatch group, plain build: call and return {_ns(cal['call'])}, test and branch "
            f"{_ns(cal['test'])}, indirect beyond direct call {_ns(cal['icall'])}. Per build: return thunk "
            f"{per(cal['rethunk'])}; thunk call {per(cal['thunk'])}, of which the thunk's own "
            f"{per(cal['thunk_own'])}.\n")


def _left_out(data, got):
    out = []
    if got["no_counts"]:
        have = {k[0] for k in sim_rows(data)}
        by = {}
        for (v, name), n in got["no_counts"].items():
            by.setdefault(v, []).append((name, n))
        parts = []
        for v, lst in sorted(by.items()):
            n = sum(k for _, k in lst)
            if v not in have:
                parts.append(f"{n} differences of the {v} build, which make cachesim did not simulate "
                             f"(`make cachesim VARIANT={v}` adds them)")
            else:
                parts.append(f"{n} differences of the {v} build in scenarios it has no rows of (" +
                             ", ".join(sorted(name for name, _ in lst)) + "; `make cachesim` with "
                             "`ORDERS=` for another order)")
        out.append("**Left out, no simulated counts:** " + "; ".join(parts) + ". A build's differences "
                   "are never priced with another build's counts.\n")
    if got["no_dispatch"]:
        out.append("**Left out, no dispatch group:** the differences of the " + ", ".join(got["no_dispatch"]) +
                   " build (its thunks have no price without it).\n")
    if not all(r["chain_split"] for r in got["rows"]):
        out.append("This cachesim.csv has no chain/off-chain split of the misses (it predates it): "
                   "latency and cold use every D1 read miss as a chain miss. `make cachesim` again "
                   "gives the split.\n")
    ctx = [r for r in got["rows"] if "component" in r["scenario"]]
    out.append(f"Component context: {len(ctx)} differences" if ctx else
               "Component context: no component-context timings in this run (the suite's lookup groups "
               "run the bare context); the model takes them where a run has them.")
    return out


def _table(head, rows):
    return ("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n" +
            "\n".join("| " + " | ".join(r) + " |" for r in rows) + "\n")


def _held_out(got):
    out = ["\n### Held out\n"]
    tbl = [["nothing fitted: physical counterparts", "all", *_sfmt(got["physical_only"])]]
    for label, _ in FOLDS:
        tbl.append([f"fitted, one {label} held out at a time", label, *_sfmt(got["folds"][label]["summary"])])
    tbl.append(["fitted on every difference (in sample, not a validation)", "-", *_sfmt(got["in_sample"])])
    out.append(_table(["predictions", "held out by", "within max(cycle, 10%) or CI", "median abs error ns"],
                      tbl))
    pairs = got["folds"]["scenario group"]["pairs"]
    parts = []
    for key in sorted({(r["mode"], r["variant"]) for r, _ in pairs}, key=lambda k: (MODES.index(k[0]), k[1])):
        parts.append([*key, *_sfmt(summary([(r, p) for r, p in pairs if (r["mode"], r["variant"]) == key]))])
    out.append("Held out by scenario group, per mode and build:\n\n" +
               _table(["mode", "build", "within max(cycle, 10%) or CI", "median abs error ns"], parts))
    s = got["folds"]["scenario group"]["summary"]
    ok = s["share"] >= 0.8 and s["median_abs"] < 0.3
    out.append(f"Target (issue: at least 80% within, median absolute error below 0.3 ns, held out by "
               f"scenario group): **{'met' if ok else 'not met'}** ({s['share'] * 100:.0f}%, "
               f"{s['median_abs']:.2f} ns).\n")
    second, shift = _beside(got)
    out += second
    sh = got["shared"]
    offs = sorted(sh["offsets"].values())
    out.append(f"What is left is largely shared within a scenario group: the median held-out residual of "
               f"each group (every difference of a group has the same baseline, so a shift of the "
               f"baseline's own time moves them all alike) runs from {offs[0]:+.2f} to {offs[-1]:+.2f} ns "
               f"over the {len(offs)} groups. Taking each group's median residual out, a diagnosis and "
               f"not a prediction, {_sfmt(sh['summary'])[0]} would hold (median abs error "
               f"{sh['summary']['median_abs']:.2f} ns): no count differs between a group's strategies "
               "the way that shift does.\n")
    out += shift
    b = got["bound"]
    out.append(f"Even fitted to the answers, these counts go only so far: every count ({', '.join(BOUND_COUNTS)}) "
               f"and an intercept, fitted by least squares per mode and build to the very differences it is "
               f"then judged on ({len(BOUND_COUNTS) + 1} coefficients per mode and build, in sample, no "
               f"validation), holds {_sfmt(b)[0]}, median abs error {b['median_abs']:.2f} ns" +
               (": even in sample, a least-squares fit of every count stays under the target on this run.\n"
                if b["share"] < 0.8 else ".\n"))
    return out


REPRO_ROW = "| B, A's counts | "
REPRO_SHIFT = "Shift per scenario group in both runs: "


def held_cell(s):
    """A summary() as repro.md's cells and the report's quote give it:
    _sfmt()'s two cells in one."""
    share, err = _sfmt(s)
    return f"{share}, {err} ns" if s["n"] else "n/a"


def shift_line(off_a, off_b):
    """Whether runs A and B leave the same shift in each scenario group
    (shared_offsets() of each, B priced with A's counts): one line,
    opening with REPRO_SHIFT, by which the report finds it again."""
    common = sorted(set(off_a) & set(off_b))
    if not common:
        return REPRO_SHIFT + "no scenario group in common."
    gaps = [abs(off_b[g] - off_a[g]) for g in common]
    lo, hi = min(off_a[g] for g in common), max(off_a[g] for g in common)
    same = max(gaps) < 0.25 * (hi - lo)
    return (f"{REPRO_SHIFT}the median held-out residual of each of the {len(common)} scenario groups, "
            f"which every difference of the group shares, runs from {lo:+.2f} to {hi:+.2f} ns in A; in B each "
            f"group's is within {statistics.median(gaps):.2f} ns of A's at the median and {max(gaps):.2f} ns at "
            "most" + (", under a quarter of that spread: the shift comes with the build and the scenario, "
                      "not with the run." if same else ": the shift moves between the runs."))


# The runs beside this one that repro.py compared it with, in the folder:
# (file, what that run is).  layout.md: docs/method.md#the-layout.
BESIDE = (("repro.md", "The second run beside this one"),
          ("layout.md", "A run of the same build linked in the other order (LINK_ORDER=reverse)"))


def _beside(got):
    """The same validation on the runs beside this one (BESIDE), as
    repro.py wrote it into the folder's repro.md and layout.md (B priced
    with this run's counts), and whether each leaves the same shift in each
    scenario group: two lists of lines."""
    out, said = [], []
    for name, what in BESIDE:
        try:
            with open(os.path.join(got.get("dir") or "", name), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        row = next((ln for ln in lines if ln.startswith(REPRO_ROW)), None)
        shift = next((ln for ln in lines if ln.startswith(REPRO_SHIFT)), None)
        cells = [c.strip() for c in row.strip().strip("|").split("|")][1:] if row else []
        if len(cells) != len(FOLDS):
            continue
        out.append(f"{what} ([{name}]({name}#cost-model-in-both-runs)), priced with this run's counts: " +
                   "; ".join(f"{label} held out {c}" for (label, _), c in zip(FOLDS, cells)) + ".\n")
        if shift:      # placed after the reading of that shift
            said.append(f"Against {what[0].lower()}{what[1:]} (this run is A, that one B): "
                        f"{shift[len(REPRO_SHIFT):]}\n")
    return out, said


def _not_fitted(mode, coeff, phys):
    """What the model prices a coefficient at where it does not fit it."""
    if coeff == "instructions":
        return "none (a call's and a test's are in their prices; the rest issue beside the lookup's work)"
    return "none (they overlap)" if mode == "throughput" else f"{phys:.2f} ns"


def _coefficients(got):
    cal = got["cal"]
    out = ["### Coefficients and their physical counterparts\n"]
    what = {"instructions": ("per instruction", "the baseline's own ns per instruction (median)"),
            "branches": ("per conditional branch", "dispatch: flag test, never set, minus inlined default"),
            "calls": ("per call and return", "dispatch: direct call minus inlined default"),
            "indirect calls": ("per indirect call beyond a direct one",
                               "dispatch: indirect call (one target) minus direct call"),
            "misses": ("per miss (throughput: D1 read; latency, cold: chain)", "L2 - L1 load (pointer chase)")}
    t, far = [], []
    for m in MODES:
        for c in COEFFS:
            fitted = c in TERMS[m]
            v = got["coef"][m].get(c) if fitted else got["free"][m].get(c)
            lo, hi = (got["intervals"] if fitted else got["free_intervals"])[m][c]
            p = got["physical"][m][c]
            iv = "n/a" if lo is None else f"[{lo:+.3f}, {hi:+.3f}]"
            shown = _ns(v, "{:+.3f} ns") if fitted else \
                (f"not fitted: {_not_fitted(m, c, p)}; fitted freely as a check: {_ns(v, '{:+.3f} ns')}")
            t.append([m, what[c][0], shown, iv, f"{_ns(p, '{:.3f} ns')}: {what[c][1]}", _ratio_note(v, p)])
            if v is not None and p and (v / p > DISAGREE or v / p < 1 / DISAGREE):
                held = lo is not None and lo <= p <= hi
                far.append(f"- {m}, {what[c][0]}{'' if fitted else ' (fitted freely as a check)'}: "
                           f"{v:+.3f} against {p:.3f}: " +
                           ("its 95% interval holds the physical value, so the data cannot tell them apart"
                            if held else _why(m, c) + _together(got, m, c)) + ".")
    prices = lambda key: ", ".join(f"{v} {ns:.2f} ns" for v, ns in sorted(cal[key].items()) if ns)  # noqa: E731
    for m in MODES:
        for term, key, label in PRICED:
            if not any(abs(column(r, term, cal)) > 1e-9 for r in got["rows"] if r["mode"] == m):
                continue
            v = got["free"][m].get(term)
            lo, hi = got["free_intervals"][m][term]
            t.append([m, label, f"not fitted: 1x the build's price; fitted freely as a check: {_ns(v, '{:.2f}x')}",
                      "n/a" if lo is None else f"[{lo:+.2f}x, {hi:+.2f}x]",
                      f"1x the dispatch group of the build ({prices(key)})", _ratio_note(v, 1.0)])
            if v is not None and (v > DISAGREE or v < 1 / DISAGREE):
                held = lo is not None and lo <= 1.0 <= hi
                far.append(f"- {m}, {label} (fitted freely as a check): {v:.2f}x the dispatch group's price: " +
                           ("its 95% interval holds 1x, so the data cannot tell them apart" if held
                            else _why(m, term)) + ".")
    out.append(_table(["mode", "coefficient", "fitted", "95% interval (groups resampled)",
                       "physical counterpart", "fitted / physical"], t))
    if far:
        out.append("Where a coefficient is more than 2x from its physical counterpart (or of the other "
                   "sign), the reading offered:\n\n" + "\n".join(far) + "\n")
    return out


def _differences_table(got):
    pairs = got["folds"]["scenario group"]["pairs"]
    lines = []
    for r, p in sorted(pairs, key=lambda rp: (rp[0]["variant"], rp[0]["scenario"], rp[0]["mode"],
                                               rp[0]["strategy"])):
        x = r["x"]
        lines.append([r["scenario"], r["mode"], r["variant"], f"{r['strategy']} - {r['baseline']}",
                      f"{x['instructions']:+.1f}", f"{x['branches']:+.1f}", f"{x['calls']:+.1f}",
                      f"{x['indirect calls']:+.1f}", f"{x['returns']:+.1f}", f"{x['thunk calls']:+.1f}",
                      f"{x['misses']:+.2f}",
                      "-" if r["mode"] == "throughput" else f"{x['off-chain misses']:+.2f}",
                      f"{p:+.2f}", f"{r['measured']:+.2f} [{r['ci'][0]:+.2f}, {r['ci'][1]:+.2f}]",
                      f"{r['measured'] - p:+.2f}", f"{r['cycle']:.2f}" if r["cycle"] else "n/a",
                      "yes" if holds(r, p) else "no"])
    return "### Every difference, predicted with its scenario group held out\n\n" + _table(
        ["scenario", "mode", "build", "difference", "d instructions (thunks' out)", "d branches", "d calls",
         "d indirect calls", "d returns", "d thunk calls", "d misses (mode's)",
         "d off-chain misses (overlap, not priced)", "predicted ns", "measured ns [95% CI]", "residual ns",
         "cycle ns", "holds"], lines)


# decompose()'s events in the order the table prints them.
DECOMPOSED = ("branches", "calls", "indirect calls", "returns", "thunk calls", "LL misses", "chain misses")


def _decomposition_table(got):
    """Each difference taken apart: ns per priced event, with the fitted
    coefficients (every difference in the fit), and what is left."""
    lines = []
    for r in sorted(got["rows"], key=lambda r: (r["variant"], r["scenario"], r["mode"], r["strategy"])):
        parts = decompose(got["coef"], got["cal"], r)
        pred = sum(parts.values())
        lines.append([r["scenario"], r["mode"], r["variant"], f"{r['strategy']} - {r['baseline']}"] +
                     [f"{parts[e]:+.2f}" if e in parts else "-" for e in DECOMPOSED] +
                     [f"{pred:+.2f}", f"{r['measured']:+.2f}", f"{r['measured'] - pred:+.2f}"])
    return ("### Every difference taken apart\n\nThe model's prediction of each difference, in ns, "
            "split into its priced events: each fitted coefficient times its count difference, the "
            "thunks and LL misses at their calibrated prices, and in latency and cold the misses on "
            "the lookup's chain (`-`: not priced in that mode). The residual is what no priced event "
            "explains (docs/method.md#the-cost-model).\n\n" + _table(
                ["scenario", "mode", "build", "difference"] + [f"{e} ns" for e in DECOMPOSED] +
                ["predicted ns", "measured ns", "residual ns"], lines))


def _sfmt(s):
    """A summary() as two table cells: how many hold (share), median abs error."""
    if not s["n"]:
        return ["n/a", "n/a"]
    return [f"{s['held']} of {s['n']} ({s['share'] * 100:.0f}%)", f"{s['median_abs']:.2f}"]


def mispredict_note(rows, cal):
    """Where callgrind's branch predictor and the CPU disagree: the
    differences whose simulated extra mispredicts, at the calibrated
    penalty, would add more than the measured difference's CI allows."""
    pen = cal.get("mispredict")
    if not pen:
        return ""
    bad = {}
    for r in rows:
        mp = r["x"]["sim mispredicts"]
        extra = mp * pen
        lo, hi = r["ci"]
        # The simulated mispredicts alone would put the difference outside its CI.
        if abs(mp) >= 0.1 and (extra > hi if extra > 0 else extra < lo):
            bad.setdefault(r["strategy"], []).append((r, extra))
    if not bad:
        return ("Callgrind's branch predictor is not used as the CPU's; its simulated mispredicts "
                "explain no measured difference here beyond its CI either way.\n")
    parts = []
    for s, lst in sorted(bad.items(), key=lambda kv: -len(kv[1])):
        xs = [r["x"]["sim mispredicts"] for r, _ in lst]
        ms = [r["measured"] for r, _ in lst]
        parts.append(f"`{s}` in {len(lst)} differences: callgrind simulates {min(xs):+.2f} to {max(xs):+.2f} "
                     f"mispredicts per lookup ({min(e for _, e in lst):+.1f} to {max(e for _, e in lst):+.1f} ns "
                     f"at the calibrated {pen:.2f} ns) where the measured difference is {min(ms):+.2f} to "
                     f"{max(ms):+.2f} ns")
    return ("**Callgrind and the CPU disagree on branches:** " + "; ".join(parts) + ". The CPU's "
            "predictor learns these branches and callgrind's simple one does not, so the model takes no "
            "mispredict term from the simulation (a run with hardware counters could count the CPU's "
            "own).\n")
