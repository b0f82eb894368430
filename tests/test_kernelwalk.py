#!/usr/bin/python3
"""test_kernelwalk.py - the running kernel's line (scripts/lib/kernelwalk.py):
slope and intercept recovered from synthetic points, a point off the line
flagged, samples of failed calls dropped, a refused walk named."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from lib import kernelwalk  # noqa: E402

DEPTHS = (1, 2, 4, 8, 16, 24, 32)


def results(slope, fixed, reps=21, noise=0.01, off=None, failed=0, seed=7):
    rng = random.Random(seed)
    out = {}
    for s in ("hot", "cold"):
        for d in DEPTHS:
            ns = fixed + slope * d
            samples = [ns * (1 + rng.uniform(-noise, noise)) * (1.2 if d == off else 1) for _ in range(reps)]
            out[f"kernel/fstatat/set:{s}/depth:{d}"] = {
                "samples": samples, "label": "tmpfs",
                "counters": {"failed_calls": [failed] * reps, "depth": [d] * reps}}
    return out


class KernelWalk(unittest.TestCase):
    def test_the_line_is_recovered_with_an_interval_that_holds_it(self):
        f = kernelwalk.live_kernel(results(60.0, 600.0))["hot"]
        self.assertAlmostEqual(f["slope"], 60.0, delta=0.6)
        self.assertAlmostEqual(f["intercept"], 600.0, delta=10)
        self.assertLess(f["slope_ci"][1] - f["slope_ci"][0], 2)
        self.assertEqual(f["repetitions"], 21)
        self.assertEqual(f["flagged"], [])
        # A 95% interval: it holds the true slope in about 95 of 100 data sets.
        held = sum(lo <= 60.0 <= hi for lo, hi in (
            kernelwalk.live_kernel(results(60.0, 600.0, seed=k))["hot"]["slope_ci"] for k in range(200)))
        self.assertTrue(176 <= held <= 198, held)

    def test_the_interval_is_over_processes_when_make_bench_ran_three(self):
        # Three processes whose slopes differ by +-5 ns: an interval over their
        # repetitions would be narrow and wrong; over the processes it holds them.
        runs = [results(60.0 + dv, 600.0, reps=21, seed=k) for k, dv in enumerate((-5, 0, 5), 1)]
        merged = {}
        for k, r in enumerate(runs, 1):
            for name, e in r.items():
                m = merged.setdefault(name, {"samples": [], "label": "tmpfs",
                                             "counters": {"failed_calls": [], "pass": []}})
                m["samples"] += e["samples"]
                m["counters"]["failed_calls"] += e["counters"]["failed_calls"]
                m["counters"]["pass"] += [k] * len(e["samples"])
        f = kernelwalk.live_kernel(merged)["hot"]
        self.assertEqual((f["processes"], f["over"], f["repetitions"]), (3, "processes", 63))
        self.assertAlmostEqual(f["slope"], 60.0, delta=0.5)
        lo, hi = f["slope_ci"]
        self.assertTrue(lo < 55 and hi > 65, f["slope_ci"])
        self.assertEqual([round(x) for x in f["process_slopes"]], [55, 60, 65])

    def test_a_depth_off_the_line_is_flagged(self):
        f = kernelwalk.live_kernel(results(60.0, 600.0, off=8))["hot"]
        self.assertIn(8, f["flagged"])
        self.assertGreater(f["residuals"][8], kernelwalk.RESIDUAL_FLAG)

    def test_exact_points_fit_exactly(self):
        self.assertEqual(kernelwalk.fit([(1, 3.0), (2, 5.0), (4, 9.0)]), (2.0, 1.0))
        with self.assertRaises(ValueError):
            kernelwalk.fit([(4, 1.0), (4, 2.0)])

    def test_samples_of_failed_calls_are_not_a_measurement(self):
        self.assertEqual(kernelwalk.live_kernel(results(60.0, 600.0, failed=3)), {})

    def test_a_refused_walk_is_named_in_the_section(self):
        data = {"results": {}, "meta": {"kernel": "6.x"},
                "skipped": {"kernel/fstatat/set:hot/depth:1": "no directory for its trees in /x (EACCES)"}}
        self.assertEqual(kernelwalk.kernel_section(data),
                         "## The running kernel\n\nNot measured here: no directory for its trees in /x (EACCES).\n")
        self.assertEqual(kernelwalk.kernel_section({"results": {}, "meta": {}, "skipped": {}}), "")


if __name__ == "__main__":
    res = unittest.main(exit=False, verbosity=1).result
    print(f"kernelwalk tests: {res.testsRun - len(res.failures) - len(res.errors)} passed, "
          f"{len(res.failures) + len(res.errors)} failed", file=sys.stderr)
    sys.exit(len(res.failures) + len(res.errors))
