#!/usr/bin/env python3
"""test_costmodel.py - the cost model's arithmetic on hand-made inputs whose
answer is known: each term is the count difference times its calibration,
the verdict compares with the paired measurement, and the culprit named is
the largest term.  And the regulator tables (scripts/lib/regulator_report.py) on
hand-made regulator samples."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from lib import benchmarks, costmodel, regulator_report  # noqa: E402
from lib import runfolder as report  # noqa: E402

SC = "mode:throughput/size:L1/dentries:64/custom:0/order:uniform/pollute:0/depth:1"


def entry(samples, rounds=True):
    return {"samples": list(samples),
            "counters": {"round": list(range(len(samples)))} if rounds else {}}


def sim(strategy, ir, d1r, ll=0.0, bcm=0.0, bim=0.0, bi=0.0, scenario="L1-0pct-warm"):
    return {"scenario": scenario, "strategy": strategy, "instructions_per_lookup": str(ir),
            "D1_read_misses_per_lookup": str(d1r), "LL_misses_per_lookup": str(ll),
            "cond_mispredicts_per_lookup": str(bcm), "indirect_mispredicts_per_lookup": str(bim),
            "indirect_branches_per_lookup": str(bi)}


def data(measured_diff):
    results = {
        "calib/chase/bytes:4096": entry([1.0] * 5, rounds=False),
        "calib/chase/bytes:65536": entry([4.0] * 5, rounds=False),
        "calib/chase/bytes:134217728": entry([101.0] * 5, rounds=False),
        "calib/branch/predictable": entry([1.0] * 5, rounds=False),
        "calib/branch/random": entry([3.5] * 5, rounds=False),
        "dispatch/direct_call": entry([1.0] * 5, rounds=False),
        "dispatch/indirect/targets:1/order:predictable": entry([1.4] * 5, rounds=False),
        f"lookup/direct/{SC}": entry([10.0] * 8),
        f"lookup/default_ops/{SC}": entry([10.0 + measured_diff] * 8),
    }
    meta = {"caches": [{"level": 1, "type": "Data", "size_bytes": 32768}]}
    cachesim = [sim("direct", 100, 1.0), sim("default_ops", 120, 2.0, bcm=0.5, bi=3)]
    return {"results": results, "meta": meta, "cachesim": cachesim}


class TestCostModel(unittest.TestCase):
    def run_model(self, measured_diff):
        d = data(measured_diff)
        rows, why = costmodel.model(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertIsNone(why)
        self.assertEqual(len(rows), 1)
        return rows[0]

    def test_terms_are_counts_times_calibrations(self):
        r = self.run_model(12.0)
        t = r["terms"]
        # 20 more instructions at the baseline's 100 instructions per 10 ns: 2 ns
        self.assertAlmostEqual(t["instructions"], 2.0)
        # one more D1 read miss, served from L2: 4 - 1 ns
        self.assertAlmostEqual(t["D1 misses"], 3.0)
        self.assertAlmostEqual(t["LL misses"], 0.0)
        # half a mispredict more at 2 x (3.5 - 1) ns
        self.assertAlmostEqual(t["mispredicts"], 2.5)
        # the plain build: an indirect call is only its instructions
        self.assertAlmostEqual(t["hardening"], 0.0)
        self.assertAlmostEqual(r["predicted"], 7.5)
        self.assertAlmostEqual(r["measured"], 12.0)
        self.assertFalse(r["ok"])            # 7.5 is not within 25% of 12
        self.assertEqual(r["culprit"], "D1 misses")

    def test_a_close_prediction_holds(self):
        r = self.run_model(8.0)              # 7.5 is within 25% of 8
        self.assertTrue(r["ok"])
        self.assertIsNone(r["culprit"])

    def test_without_counts_it_says_what_it_needs(self):
        d = data(8.0)
        d["cachesim"] = []
        rows, why = costmodel.model(d, report.baseline_of, benchmarks.lookup_scenarios(d["results"]))
        self.assertEqual(rows, [])
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
