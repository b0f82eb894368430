#!/usr/bin/env python3
"""test_costmodel.py - the cost model (scripts/lib/costmodel.py) on hand-made
runs whose answer is known: the terms priced by calibrations, each build
priced with its own counts, the pass test's one-cycle floor, the fit, and a
validation that never lets a held-out difference into the fit that predicts
it.  And the regulator tables (scripts/lib/regulator_report.py) on
hand-made regulator samples."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from lib import benchmarks, costmodel, regulator_report  # noqa: E402
from lib import runfolder as report  # noqa: E402

CYCLE = 0.28
# The prices the fixtures' measurements are made from, per mode: ns per
# instruction (none, as the model prices them: a call's and a test's are in
# their prices), conditional branch, call and return, indirect call beyond a
# direct one (the fitted terms), and per miss (none in throughput, where
# they overlap; the chain's at L2 - L1 otherwise, as the model prices them).
TRUE = {"throughput": (0.0, 0.08, 0.7, 0.1, 0.0), "latency": (0.0, 0.03, 0.2, 0.05, 2.8),
        "cold": (0.0, 0.1, 0.4, 0.2, 2.8)}
RATE = 10.0 / 100          # the plain baselines' 10 ns over their 100 simulated instructions
THUNK_NS = 9.0             # a retpoline thunk's own cost
RET_NS = 4.5               # the srso build's return thunk, per return
BUILDS = ("plain", "retpoline", "srso")
# The thunk builds' dispatch group: direct call, indirect call (ns).
DIRECT = {"plain": 1.0, "retpoline": 1.0, "srso": 1.0 + RET_NS}
INDIRECT = {"plain": 1.02, "retpoline": 1.0 + THUNK_NS, "srso": 1.0 + RET_NS + THUNK_NS + RET_NS}
# Per strategy, the count differences from the baseline: instructions,
# conditional branches, calls (and returns) of compiled code, indirect calls
# (plain), D1 read misses, chain misses, thunk calls (thunk builds: the
# indirect calls become thunk calls), simulated mispredicts.
DELTAS = {"default_ops": (25, 1, 2.8, 2.8, 0.5, 0.2, 2.8, 0.0),
          "parent_ops": (12, 3, 0.0, 0.0, 1.5, 0.1, 0.0, 0.0),
          "embedded": (-5, 2, 0.0, 0.0, 0.8, 0.8, 0.0, 0.0),
          "flag_hoisted": (8, 4, 0.0, 0.0, 0.1, 0.05, 0.0, 0.35),
          "icall_wrapper": (30, 2, 2.8, 0.0, 0.5, 0.2, 0.0, 0.0),
          "null_tested": (10, 3, 2.8, 2.8, 0.3, 0.1, 2.8, 0.0)}
BASE_RETURNS = 5.0


def entry(samples, rounds=True, cycle=CYCLE):
    n = len(samples)
    return {"samples": list(samples),
            "counters": {"round": list(range(n)), "ns_per_cycle": [cycle] * n} if rounds else {}}


def thunked(strategy, variant):
    """(thunk calls, indirect calls left) of @strategy in @variant."""
    *_, icall, _, _, thunks, _ = DELTAS[strategy]
    t = thunks if variant != "plain" else 0.0
    return t, icall - t


def sim(strategy, scenario, variant="plain"):
    di, db, calls, _, d1, chain, _, mp = DELTAS.get(strategy, (0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    t, icall = thunked(strategy, variant) if strategy in DELTAS else (0.0, 0.0)
    returns = BASE_RETURNS + calls + t
    # the thunks' own instructions, as the build executes them
    ir = 100 + di + costmodel.THUNK_INSTRUCTIONS * t + costmodel.RETURN_THUNK_INSTRUCTIONS.get(variant, 0) * returns
    return {"scenario": scenario, "strategy": strategy, "instructions_per_lookup": str(ir),
            "cond_branches_per_lookup": str(20 + db), "returns_per_lookup": str(returns),
            "indirect_calls_per_lookup": str(icall), "thunk_calls_per_lookup": str(t),
            "D1_read_misses_per_lookup": str(1.0 + d1), "D1_read_misses_chain_per_lookup": str(0.5 + chain),
            "D1_read_misses_off_chain_per_lookup": str(0.5 + d1 - chain), "LL_misses_per_lookup": "0",
            "cond_mispredicts_per_lookup": str(mp), "indirect_mispredicts_per_lookup": "0",
            "arch": "x86_64", "variant": variant}


def timed(mode, size, order, variant):
    dentries = {"L1": 96, "L2": 2048}[size]
    pollute = 98304 if mode == "cold" else 0
    return (f"mode:{mode}/size:{size}/dentries:{dentries}/custom:0/order:{order}/pollute:{pollute}/depth:1" +
            ("" if variant == "plain" else f"/variant:{variant}"))


def truth(mode, strategy, variant, true=None):
    di, db, calls, _, d1, chain, _, _ = DELTAS[strategy]
    a, b, c, e, m = (true or TRUE)[mode]
    t, icall = thunked(strategy, variant)
    ret = RET_NS if variant == "srso" else 0.0
    return a * di + b * db + c * calls + e * icall + m * chain + t * THUNK_NS + (calls + t) * ret


def run(variants=BUILDS, sim_variants=BUILDS, noise=None, true=None):
    """A run: calibrations, a dispatch group per build, and lookups whose
    differences are made from @true (TRUE; plus @noise[(timed, strategy)] ns)."""
    results = {
        "calib/chase/bytes:4096": entry([1.0] * 5, rounds=False),
        "calib/chase/bytes:65536": entry([3.8] * 5, rounds=False),
        "calib/chase/bytes:134217728": entry([101.0] * 5, rounds=False),
        "calib/branch/predictable": entry([1.0] * 5, rounds=False),
        "calib/branch/random": entry([4.0] * 5, rounds=False),
        "calib/cycle": entry([CYCLE] * 5, rounds=False),
        "dispatch/inlined_default": entry([0.3] * 5, rounds=False),
        "dispatch/flag_test/set:0": entry([0.55] * 5, rounds=False),
    }
    cachesim = []
    for v in variants:
        tag = "" if v == "plain" else f"/variant:{v}"
        results["dispatch/direct_call" + tag] = entry([DIRECT[v]] * 5, rounds=False)
        results["dispatch/indirect/targets:1/order:predictable" + tag] = entry([INDIRECT[v]] * 5, rounds=False)
    for v in variants:
        for size in ("L1", "L2"):
            for order in ("uniform", "sorted"):
                for mode in costmodel.MODES:
                    sc = timed(mode, size, order, v)
                    results[f"lookup/direct/{sc}"] = entry([10.0] * 8)
                    for s in DELTAS:
                        diff = truth(mode, s, v, true) + (noise or {}).get((sc, s), 0.0)
                        results[f"lookup/{s}/{sc}"] = entry([10.0 + diff] * 8)
    for v in sim_variants:
        for size in ("L1", "L2"):
            for order in ("uniform", "sorted"):
                for kind in ("warm", "coldops"):
                    name = f"{size}-0pct-{kind}" + ("" if order == "uniform" else f"+{order}")
                    cachesim += [sim(s, name, v) for s in ("direct",) + tuple(DELTAS)]
    meta = {"arch": "x86_64", "caches": [{"level": 1, "type": "Data", "size_bytes": 32768}]}
    return {"results": results, "meta": meta, "cachesim_all": cachesim,
            "cachesim": [r for r in cachesim if r["variant"] == "plain"]}


def differences(d):
    return costmodel.differences(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))


def model(d):
    return costmodel.model(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))


class TestCostModel(unittest.TestCase):
    def test_each_build_is_priced_with_its_own_counts(self):
        rows, missing = differences(run())
        r = {(x["variant"], x["mode"], x["strategy"], x["size"], x["scenario"]): x for x in rows}
        ret = r[("retpoline", "latency", "default_ops", "L1", "L1-0pct-warm")]
        self.assertAlmostEqual(ret["x"]["thunk calls"], 2.8)
        # the thunk's own instructions are priced in the thunk call, not twice
        self.assertAlmostEqual(ret["x"]["instructions"], 25)
        self.assertAlmostEqual(ret["x"]["d instructions"], 25 + 3 * 2.8)
        # its return is a return, but not a call of compiled code
        self.assertAlmostEqual(ret["x"]["returns"], 2 * 2.8)
        self.assertAlmostEqual(ret["x"]["calls"], 2.8)
        self.assertAlmostEqual(ret["x"]["indirect calls"], 0.0)
        srso = r[("srso", "latency", "default_ops", "L1", "L1-0pct-warm")]
        # the return thunk's instructions, per return, are priced with it
        self.assertAlmostEqual(srso["x"]["instructions"], 25)
        self.assertAlmostEqual(srso["ns_per_instruction"], 10.0 / (100 + 4 * BASE_RETURNS))
        plain = r[("plain", "latency", "default_ops", "L1", "L1-0pct-warm")]
        self.assertAlmostEqual(plain["x"]["thunk calls"], 0.0)
        self.assertAlmostEqual(plain["x"]["indirect calls"], 2.8)
        self.assertAlmostEqual(plain["ns_per_instruction"], RATE)
        self.assertEqual(missing, {})
        cal = costmodel.calibration(run()["results"], run()["meta"])
        self.assertAlmostEqual(cal["thunk_own"]["retpoline"], THUNK_NS)
        self.assertAlmostEqual(cal["thunk_own"]["srso"], THUNK_NS)
        self.assertAlmostEqual(cal["rethunk"]["srso"], RET_NS)
        self.assertAlmostEqual(cal["rethunk"]["retpoline"], 0.0)
        self.assertAlmostEqual(cal["thunk"]["plain"], 0.0)
        self.assertAlmostEqual(cal["call"], 0.7)
        self.assertAlmostEqual(cal["test"], 0.25)
        # thunk calls and returns at the dispatch group's prices, a chain miss at the chase's L2 - L1
        self.assertAlmostEqual(costmodel.fixed_ns(ret, cal), 2.8 * THUNK_NS + 0.2 * (3.8 - 1.0))
        self.assertAlmostEqual(costmodel.fixed_ns(srso, cal), 2.8 * THUNK_NS + 5.6 * RET_NS + 0.2 * 2.8)

    def test_a_build_without_its_counts_is_left_out_not_priced_with_the_plain_ones(self):
        rows, missing = differences(run(sim_variants=("plain",)))
        self.assertEqual({r["variant"] for r in rows}, {"plain"})
        self.assertEqual(sum(missing.values()), 2 * 2 * 2 * 3 * len(DELTAS))
        self.assertEqual({v for v, _ in missing}, {"retpoline", "srso"})
        text = costmodel.section(run(sim_variants=("plain",)), report.baseline_of,
                                 benchmarks.lookup_scenarios(run()["results"]))
        self.assertIn("make cachesim VARIANT=retpoline", text)

    def test_the_modes_take_their_own_misses(self):
        rows, _ = differences(run())
        for r in rows:
            want = r["x"]["D1 misses"] if r["mode"] == "throughput" else r["x"]["chain misses"]
            self.assertEqual(r["x"]["misses"], want)

    def test_sorted_order_and_component_context_have_their_own_counts(self):
        self.assertEqual(costmodel.sim_name({"size": "L1", "custom": "0", "pollute": "0", "order": "sorted"}),
                         "L1-0pct-warm+sorted")
        self.assertEqual(costmodel.sim_name({"size": "L2", "custom": "10", "pollute": "98304",
                                             "order": "uniform"}), "L2-10pct-coldops")
        self.assertEqual(costmodel.sim_name({"size": "L1", "custom": "0", "pollute": "0", "order": "uniform",
                                             "context": "component", "kernel": "6.1"}),
                         "L1-0pct-component-6.1")

    def test_the_fit_finds_the_coefficients_the_data_were_made_from(self):
        got, why = model(run())
        self.assertIsNone(why)
        for mode, prices in TRUE.items():
            for c, want in zip(costmodel.COEFFS, prices):
                self.assertAlmostEqual(got["free"][mode][c], want, places=6)
                if c in costmodel.TERMS[mode]:
                    self.assertAlmostEqual(got["coef"][mode][c], want, places=6)
        for label, _ in costmodel.FOLDS:
            self.assertEqual(got["folds"][label]["summary"]["share"], 1.0)
            self.assertAlmostEqual(got["folds"][label]["summary"]["median_abs"], 0.0, places=6)
        for mode in costmodel.MODES:
            # fitted freely together with the rest, the dispatch group's prices hold: 1x
            self.assertAlmostEqual(got["free"][mode]["thunk calls"], 1.0, places=6)
            self.assertAlmostEqual(got["free"][mode]["returns"], 1.0, places=6)

    def test_instructions_are_not_priced_but_checked(self):
        # A machine where every extra instruction costs 0.05 ns in throughput:
        # the model has no instruction term, so it misses them, and the free
        # fit, the check beside it, finds the price.
        true = {**TRUE, "throughput": (0.05,) + TRUE["throughput"][1:]}
        d = run(true=true)
        got, _ = model(d)
        self.assertNotIn("instructions", costmodel.TERMS["throughput"])
        self.assertAlmostEqual(got["free"]["throughput"]["instructions"], 0.05, places=6)
        self.assertAlmostEqual(got["free"]["latency"]["instructions"], 0.0, places=6)
        self.assertLess(got["folds"]["scenario group"]["summary"]["share"], 1.0)
        text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIn("| throughput | per instruction | not fitted: none (a call's and a test's are in their "
                      "prices; the rest issue beside the lookup's work); fitted freely as a check: +0.050 ns |",
                      text)

    def test_the_counts_fitted_to_the_answers(self):
        # exact data: every count with an intercept fits it exactly
        got, _ = model(run())
        self.assertEqual(got["bound"]["share"], 1.0)
        # a difference no count explains stays out of reach even in sample
        d = run(noise={(timed("latency", "L1", "uniform", "plain"), "embedded"): 3.0,
                       (timed("latency", "L2", "uniform", "plain"), "embedded"): -3.0})
        got, _ = model(d)
        self.assertLess(got["bound"]["share"], 1.0)
        text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIn("Even fitted to the answers", text)

    def test_physical_counterparts(self):
        got, _ = model(run())
        self.assertAlmostEqual(got["physical"]["latency"]["misses"], 3.8 - 1.0)
        self.assertAlmostEqual(got["physical"]["cold"]["calls"], 0.7)
        self.assertAlmostEqual(got["physical"]["cold"]["branches"], 0.25)
        self.assertAlmostEqual(got["physical"]["cold"]["indirect calls"], 0.02)
        # an extra instruction's counterpart: the baselines' own ns per instruction (median)
        rates = sorted(r["ns_per_instruction"] for r in got["rows"] if r["mode"] == "throughput")
        self.assertAlmostEqual(got["physical"]["throughput"]["instructions"], rates[len(rates) // 2])
        self.assertIn(RATE, rates)

    def test_a_shift_shared_by_a_group_is_named_apart_not_predicted(self):
        # Every difference of one group 0.5 ns higher, as a slower baseline would give.
        d = run(noise={(timed(m, "L1", "uniform", "plain"), s): 0.5 for m in ("throughput", "latency")
                       for s in DELTAS})
        got, _ = model(d)
        group = "L1-0pct-warm plain"
        pairs = [(r, p) for r, p in got["folds"]["scenario group"]["pairs"]
                 if r["group"] == group and r["mode"] == "latency"]
        self.assertEqual(costmodel.summary(pairs)["held"], 0)
        self.assertLess(got["folds"]["scenario group"]["summary"]["share"], 1.0)
        self.assertAlmostEqual(got["shared"]["offsets"][group], 0.5, places=6)
        self.assertEqual(got["shared"]["summary"]["share"], 1.0)

    def test_the_second_run_of_repro_md_is_quoted(self):
        import tempfile
        d = run()
        with tempfile.TemporaryDirectory() as tmp:
            d["dir"] = tmp
            text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
            self.assertNotIn("The second run beside this one", text)
            with open(os.path.join(tmp, "repro.md"), "w") as f:
                f.write("| A | 1 of 2 (50%), 0.10 ns | x | y |\n" + costmodel.REPRO_ROW +
                        "7 of 9 (78%), 0.25 ns | 6 of 9 (67%), 0.30 ns | 5 of 9 (56%), 0.40 ns |\n")
            text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
            self.assertIn("scenario group held out 7 of 9 (78%), 0.25 ns; strategy held out 6 of 9", text)
            self.assertNotIn("Against the second run", text)
            with open(os.path.join(tmp, "repro.md"), "a") as f:
                f.write(costmodel.shift_line({"g1": 0.5, "g2": -0.5}, {"g1": 0.45, "g2": -0.5}) + "\n")
            text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
            self.assertIn("Against the second run beside this one (this run is A, that one B): the median held-out",
                          text)
            # the run of the same build linked in the other order, from layout.md
            self.assertNotIn("linked in the other order", text)
            with open(os.path.join(tmp, "layout.md"), "w") as f:
                f.write(costmodel.REPRO_ROW + "3 of 9 (33%), 0.50 ns | 2 of 9 (22%), 0.60 ns | "
                        "1 of 9 (11%), 0.70 ns |\n")
            text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
            self.assertIn("linked in the other order (LINK_ORDER=reverse) ([layout.md](layout.md#cost-model-in-"
                          "both-runs)), priced with this run's counts: scenario group held out 3 of 9 (33%)", text)

    def test_an_indirect_call_is_read_with_the_call_it_is(self):
        got = {"coef": {"throughput": {"calls": 1.0, "indirect calls": -0.5}},
               "physical": {"throughput": {"calls": 1.1, "indirect calls": 0.02}}}
        self.assertEqual(costmodel._together(got, "throughput", "indirect calls"),
                         ": an indirect call in all, +0.500 ns against 1.120 ns")
        self.assertEqual(costmodel._together(got, "throughput", "calls"), "")

    def test_the_shift_of_a_group_is_compared_between_runs(self):
        a = {"g1": 0.5, "g2": -0.5, "g3": 0.0}
        same = costmodel.shift_line(a, {"g1": 0.45, "g2": -0.5, "g3": 0.1, "g4": 3.0})
        self.assertIn("each of the 3 scenario groups", same)           # g4: not in A
        self.assertIn("runs from -0.50 to +0.50 ns in A", same)
        self.assertIn("within 0.05 ns of A's at the median and 0.10 ns at most", same)
        self.assertIn("comes with the build and the scenario", same)
        moved = costmodel.shift_line(a, {"g1": -0.5, "g2": 0.5, "g3": 0.0})
        self.assertIn("1.00 ns at most: the shift moves between the runs", moved)
        self.assertIn("no scenario group in common", costmodel.shift_line(a, {"x": 1.0}))

    def test_counts_from_another_run_only_of_the_same_build(self):
        a = {"git": {"commit": "abc", "dirty": False}, "cc": {"version": "gcc 12"}}
        self.assertIsNone(report.same_build(a, dict(a)))
        other = {**a, "git": {"commit": "def", "dirty": False}}
        # another commit: only where the build inputs are the same
        self.assertIsNone(report.same_build(a, other, sources=lambda c1, c2: None))
        self.assertEqual(report.same_build(a, other, sources=lambda c1, c2: "they differ"), "they differ")
        self.assertIn("not in this repository", report.same_build(a, other))
        self.assertIn("uncommitted", report.same_build(a, {**a, "git": {"commit": "abc", "dirty": True}}))
        self.assertIn("cc", report.same_build(a, {**a, "cc": {"version": "gcc 13"}}))
        self.assertIn("names no commit", report.same_build({}, {}))
        # this repository's first commit and HEAD: the sources have grown since
        log = subprocess.run(["git", "-C", os.path.join(HERE, ".."), "rev-list", "--max-parents=0", "HEAD"],
                             capture_output=True, text=True)
        if log.returncode == 0 and log.stdout.strip():    # a checkout with its history
            first = log.stdout.split()[0]
            self.assertIsNone(report.same_sources(first, first))
            self.assertIn("differ in", report.same_sources(first, "HEAD"))

    def test_the_pass_test_has_a_floor_of_one_cycle(self):
        row = {"measured": 0.10, "ci": (0.08, 0.12), "cycle": CYCLE}
        self.assertTrue(costmodel.holds(row, 0.30))         # 0.2 ns off: within a cycle
        self.assertFalse(costmodel.holds(row, 0.45))        # 0.35 ns off: more than a cycle
        big = {"measured": 10.0, "ci": (9.9, 10.1), "cycle": CYCLE}
        self.assertTrue(costmodel.holds(big, 10.9))         # within 10%
        self.assertFalse(costmodel.holds(big, 11.2))
        self.assertTrue(costmodel.holds({"measured": 10.0, "ci": (8.0, 12.0), "cycle": CYCLE}, 11.9))

    def test_a_held_out_difference_never_enters_the_fit_that_predicts_it(self):
        # Give one scenario group's measurements a large error.  A validation
        # whose fit saw them would move its predictions of that group; a held-out
        # one predicts them exactly as it would with the true values.
        d0 = run()
        d1 = run(noise={(timed(m, "L2", "sorted", "plain"), s): 5.0 for m in costmodel.MODES for s in DELTAS})
        rows0, _ = differences(d0)
        rows1, _ = differences(d1)
        cal = costmodel.calibration(d0["results"], d0["meta"])
        phys = costmodel.physical(rows0, cal)
        held = "L2-0pct-warm+sorted plain", "L2-0pct-coldops+sorted plain"
        p0 = {(r["timed"], r["strategy"]): p for r, p in costmodel.cross_validate(rows0, cal, "group", phys)}
        p1 = {(r["timed"], r["strategy"]): p for r, p in costmodel.cross_validate(rows1, cal, "group", phys)}
        n = 0
        for r in rows1:
            if r["group"] in held:
                n += 1
                self.assertAlmostEqual(p1[(r["timed"], r["strategy"])], p0[(r["timed"], r["strategy"])],
                                       places=9)
        self.assertEqual(n, 3 * len(DELTAS))
        # ... and those differences are therefore judged wrong: the answer did not leak in.
        pairs = [(r, p1[(r["timed"], r["strategy"])]) for r in rows1 if r["group"] in held]
        self.assertEqual(costmodel.summary(pairs)["held"], 0)
        # A fit on every difference (what the validation must not be) does move them.
        leaky = costmodel.fit(rows1, cal, phys)
        moved = [abs(costmodel.predict(leaky, cal, r) - p0[(r["timed"], r["strategy"])]) for r in rows1
                 if r["group"] in held]
        self.assertGreater(max(moved), 0.01)

    def test_every_fold_holds_out_its_key(self):
        rows, _ = differences(run())
        cal = costmodel.calibration(run()["results"], run()["meta"])
        seen = []
        real_fit = costmodel.fit

        def spy(train, cal_, fallback):
            seen.append(train)
            return real_fit(train, cal_, fallback)
        costmodel.fit = spy
        try:
            for _, key in costmodel.FOLDS:
                seen.clear()
                pairs = costmodel.cross_validate(rows, cal, key, costmodel.physical(rows, cal))
                self.assertEqual(len(pairs), len(rows))
                keys = sorted({r[key] for r in rows})
                self.assertEqual(len(seen), len(keys))
                for k, train in zip(keys, seen):
                    self.assertTrue(train)
                    self.assertNotIn(k, {r[key] for r in train})
        finally:
            costmodel.fit = real_fit

    def test_callgrinds_mispredicts_are_named_not_priced(self):
        d = run()
        got, _ = model(d)
        text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIn("Callgrind and the CPU disagree", text)
        self.assertIn("`flag_hoisted`", text)
        # the fit is exact without a mispredict term: nothing of them is priced
        self.assertEqual(got["folds"]["scenario group"]["summary"]["share"], 1.0)

    def test_each_difference_taken_apart_adds_up_to_its_prediction(self):
        got, why = model(run())
        self.assertIsNone(why)
        for r in got["rows"]:
            parts = costmodel.decompose(got["coef"], got["cal"], r)
            self.assertAlmostEqual(sum(parts.values()), costmodel.predict(got["coef"], got["cal"], r), places=9)
            self.assertTrue(set(parts) <= set(costmodel.DECOMPOSED), parts)
            # the calls' share is the fitted price times the count difference
            self.assertAlmostEqual(parts["calls"], got["coef"][r["mode"]]["calls"] * r["x"]["calls"], places=9)
        d = run()
        text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIn("### Every difference taken apart", text)

    def test_the_section_reports_held_out_figures_and_coefficients(self):
        d = run()
        text = costmodel.section(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIn("one scenario group held out at a time", text)
        self.assertIn("physical counterpart", text)
        self.assertIn("**met**", text)
        self.assertIn("no component-context timings", text)

    def test_without_the_dispatch_group_it_says_what_it_needs(self):
        d = run()
        for name in [n for n in d["results"] if n.startswith("dispatch/")]:
            del d["results"][name]
        got, why = model(d)
        self.assertIsNone(got)
        self.assertIn("needs the dispatch group", why)
        d = run()
        del d["results"]["dispatch/direct_call/variant:srso"]
        got, _ = model(d)
        self.assertEqual(got["no_dispatch"], ["srso"])
        self.assertNotIn("srso", {r["variant"] for r in got["rows"]})

    def test_without_counts_it_says_what_it_needs(self):
        d = run()
        d["cachesim"], d["cachesim_all"] = [], []
        got, why = model(d)
        self.assertIsNone(got)
        self.assertIn("make cachesim", why)
        self.assertIn("Not computed", costmodel.section(d, report.baseline_of,
                                                        benchmarks.lookup_scenarios(d["results"])))


def reg_entry(samples, reads=1.0, writes=1.0, bus_us=0.0):
    """A regulator benchmark's repetitions, with its per-call counters."""
    n = len(samples)
    return {"samples": list(samples),
            "counters": {"reads": [reads] * n, "writes": [writes] * n, "bus_us": [bus_us] * n,
                         "delay_us": [0.0] * n}}


def reg(strategy, core="2011", bus="mmio", path="set_voltage", driver="plain", delay="none"):
    return f"regulator/{strategy}/core:{core}/bus:{bus}/path:{path}/driver:{driver}/delay:{delay}"


class TestRegulatorTables(unittest.TestCase):
    def test_share_of_the_path(self):
        res = {
            reg("null_tested", path="enable", driver="ab8500_tvout", delay="wait"): entry([50000.0] * 9, False),
            reg("flag_gated", path="enable", driver="ab8500_tvout", delay="wait"):
                entry([50000.0, 50001.0] * 4 + [50000.5], False),
            reg("null_tested"): entry([20.0] * 9, False),
            reg("default_ops"): entry([24.0] * 9, False),
        }
        rows = {r[0]: r for r in regulator_report.stop_mattering(res)}
        spin = rows["regulator 2011, mmio, enable, ab8500_tvout, delay wait"]
        self.assertAlmostEqual(spin[1], 50000.0)
        self.assertAlmostEqual(spin[2], 0.5)
        self.assertAlmostEqual(spin[3], 1e-5)
        plain = rows["regulator 2011, mmio, set_voltage, plain, delay none"]
        self.assertAlmostEqual(plain[3], 0.2)
        self.assertTrue(plain[4])            # 24 against 20: measurable
        self.assertIn("+20.000%", regulator_report.regulator_section(res))

    def test_groups_by_core_bus_path_driver_and_delay_in_report_order(self):
        res = {reg("null_tested", core=c, bus=b): reg_entry([10.0] * 5)
               for c in ("6.x", "2011") for b in ("i2c", "mmio")}
        keys = list(regulator_report.regulator_groups(res))
        self.assertEqual([k[:2] for k in keys],
                         [("2011", "mmio"), ("2011", "i2c"), ("6.x", "mmio"), ("6.x", "i2c")])
        self.assertEqual(keys[0][2:], ("set_voltage", "plain", "none"))

    def test_the_extra_read_on_each_bus(self):
        # default_ops reads the old selector: one read more, 97.5 us of bus time on I2C
        res = {
            reg("null_tested"): reg_entry([100.0] * 9, reads=0.0),
            reg("default_ops"): reg_entry([110.0] * 9, reads=1.0),
            reg("null_tested", bus="i2c"): reg_entry([72600.0] * 9, reads=0.0, bus_us=72.5),
            reg("default_ops", bus="i2c"): reg_entry([170100.0] * 9, reads=1.0, bus_us=170.0),
        }
        got = {(r[0], r[1]): r for r in regulator_report.plus21(regulator_report.regulator_groups(res))}
        mmio, i2c = got[("2011", "mmio")], got[("2011", "i2c")]
        self.assertAlmostEqual(mmio[4], 0.10)
        self.assertAlmostEqual(i2c[3], 97500.0)
        self.assertAlmostEqual(i2c[6], 1.0)
        self.assertTrue(i2c[5])
        text = regulator_report.regulator_section(res)
        self.assertIn("Where the earlier \"+21%\" came from", text)
        self.assertIn("core 2011, bus i2c: `default_ops` +97500.0 ns", text)
        self.assertIn("never runs with the two commits", text)

    def test_dispatch_alone_leaves_out_the_strategy_with_other_accesses(self):
        res = {
            reg("null_tested", bus="i2c"): reg_entry([72600.0, 72610.0] * 4 + [72605.0], reads=0.0),
            reg("flag_gated", bus="i2c"): reg_entry([72602.0, 72608.0] * 4 + [72605.0], reads=0.0),
            reg("default_ops", bus="i2c"): reg_entry([170100.0] * 9, reads=1.0),
        }
        label = "regulator 2011, i2c, set_voltage, plain, delay none"
        spread, share, measurable, n = regulator_report.dispatch_alone(res)[label]
        self.assertEqual(n, 2)
        self.assertAlmostEqual(spread, 0.0)
        self.assertFalse(measurable)
        row = {r[0]: r for r in regulator_report.stop_mattering(res)}[label]
        self.assertTrue(row[4])              # with default_ops' extra read: measurable
        section = regulator_report.stop_mattering_section(res)
        self.assertIn("(0.000%, 2 strategies) | no |", section)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print(f"costmodel tests: {result.testsRun - failed} passed, {failed} failed", file=sys.stderr)
    sys.exit(failed)
