#!/usr/bin/env python3
"""test_blocks.py - make bench's schedule on recorded and made-up data: the
run-wide slow-phase rule, the stopping rule of scripts/blocks.py, the merge
of block parts in order, and the build chosen from the kernel's mitigations
(scripts/host-build.sh on made-up sysfs folders).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from lib import blocks, stats  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "blocks", "slow-phase.json")
STRATEGIES = {"direct": 1.0, "default_ops": 1.2, "null_tested": 1.03}


def part(group, block, rounds, spread, host=1.0, seed=0, slow=1.0):
    """One block's Google Benchmark JSON: every strategy of STRATEGIES in
    throughput mode, @rounds rounds, each strategy's ratio to direct moved
    per block by up to +-@spread (a block's own placement), its host level
    @host, its times @slow times the quiet ones."""
    rng = random.Random(seed * 1000 + block)
    shift = {s: 1 + rng.uniform(-spread, spread) for s in STRATEGIES}
    out = []
    for r in range(rounds):
        rnd = (block - 1) * rounds + r
        for s, ratio in STRATEGIES.items():
            t = 10.0 * slow * (ratio * shift[s] if s != "direct" else 1.0) * (1 + rng.uniform(-0.001, 0.001))
            out.append({"name": f"lookup/{s}/mode:throughput/{group}/iterations:1000/manual_time",
                        "run_type": "iteration", "real_time": t, "time_unit": "ns",
                        "round": rnd, "pass": block, "host_level_ns": 0.2 * host, "measured_ns": 3e6})
    return {"context": {}, "benchmarks": out}


def write_parts(d, job, n, **kw):
    os.makedirs(os.path.join(d, job), exist_ok=True)
    for k in range(1, n + 1):
        args = dict(kw)
        hosts = args.pop("hosts", {})
        with open(os.path.join(d, job, f"{k}.json"), "w") as f:
            json.dump(part(block=k, host=hosts.get(k, 1.0), slow=1.4 if k in hosts else 1.0, **args), f)


class TestRunWideRule(unittest.TestCase):
    def test_the_reference_runs_slow_phase_is_set_aside(self):
        """The committed reference run's blocks 4-7 ran in the host's slow
        phase (its L1 throughput level 1.43-1.56x the others'): the rule,
        given that level per block as the host level, sets exactly them aside."""
        with open(FIXTURE) as f:
            levels = json.load(f)["levels"]
        l1 = {int(p): v for p, v in
              levels["mode:throughput/size:L1/dentries:96/custom:0/order:uniform/pollute:0/depth:1"].items()}
        self.assertEqual(stats.host_slow(l1), {4, 5, 6, 7})

    def test_a_quiet_run_sets_nothing_aside(self):
        rng = random.Random(3)
        quiet = {p: 0.2 * (1 + rng.uniform(0, 0.15)) for p in range(1, 40)}
        self.assertEqual(stats.host_slow(quiet), set())

    def test_one_fast_process_does_not_move_the_floor(self):
        levels = {p: 0.2 for p in range(1, 30)}
        levels[30] = 0.12          # one process that drew a fast moment
        self.assertEqual(stats.host_slow(levels), set())


    def test_each_build_is_judged_against_its_own_floor(self):
        """Zen 5: the level loop takes 0.181 ns per word in the plain build
        and 0.144 in the srso build.  One floor over both would set the
        plain build's processes aside; one per build sets none aside."""
        rng = random.Random(7)
        procs = []
        for b, level in (("", 0.181), ("/variant:srso", 0.144)):
            for p in range(1, 23):
                e = {"samples": [1.0], "counters": {"pass": [float(p)],
                                                     "host_level_ns": [level * (1 + rng.uniform(0, 0.03))]}}
                procs.append((f"size:L1/g:a{b}", e))
        floors = stats.run_floor(procs)
        self.assertEqual(set(floors), {"plain", "srso"})
        for g, e in procs:
            self.assertEqual(stats.host_slow({1: e["counters"]["host_level_ns"][0]},
                                             floors[stats.build_of(g)]), set())
        one = stats.host_floor([e["counters"]["host_level_ns"][0] for _, e in procs])
        self.assertGreater(len(stats.host_slow({i: e["counters"]["host_level_ns"][0]
                                                for i, (_, e) in enumerate(procs)}, one)), 15)


class TestRatioStatistic(unittest.TestCase):
    def test_two_clusters_of_blocks_are_named(self):
        # 7 blocks at 6.25, 15 at 6.65: the srso default_ops latency ratio on Zen 5.
        rng = random.Random(2)
        xs = [6.25 * (1 + rng.uniform(-0.002, 0.002)) for _ in range(7)] + \
             [6.65 * (1 + rng.uniform(-0.002, 0.002)) for _ in range(15)]
        (lo, a), (hi, b) = stats.two_levels(xs)
        self.assertAlmostEqual(lo, 6.25, delta=0.02)
        self.assertAlmostEqual(hi, 6.65, delta=0.02)
        self.assertAlmostEqual(a, 7 / 22)

    def test_one_spread_cluster_is_not_two_levels(self):
        for seed in range(20):
            rng = random.Random(seed)
            self.assertIsNone(stats.two_levels([rng.gauss(1.0, 0.02) for _ in range(22)]), seed)

    def test_close_levels_or_a_lone_block_are_not_two_levels(self):
        self.assertIsNone(stats.two_levels([1.000] * 10 + [1.005] * 10))   # 0.5% apart
        self.assertIsNone(stats.two_levels([1.0] * 20 + [1.1, 1.1]))       # two blocks alone

    def test_pinned_needs_six_blocks(self):
        for n, want in ((5, False), (6, True)):
            d = tempfile.mkdtemp()
            write_parts(d, "1", n, group="size:L1/g:a", rounds=3, spread=0.001, seed=1)
            merged = {}
            for k in range(1, n + 1):
                blocks._merge(merged, blocks.read_part(os.path.join(d, "1", f"{k}.json")))
            strat = next(iter(merged.values()))
            p = stats.paired(strat["direct"], strat["default_ops"])
            self.assertEqual((p["unit"], p["processes"]), ("blocks", n))
            self.assertLess(p["half_pct"], 1.0)
            self.assertEqual(stats.pinned(p), want)

    def test_one_block_falls_back_to_rounds_and_says_so(self):
        d = tempfile.mkdtemp()
        write_parts(d, "1", 1, group="size:L1/g:a", rounds=12, spread=0.001, seed=1)
        strat = next(iter(blocks.read_part(os.path.join(d, "1", "1.json")).values()))
        p = stats.paired(strat["direct"], strat["default_ops"])
        self.assertEqual((p["unit"], p["processes"]), ("rounds", 1))
        self.assertFalse(stats.pinned(p))
        self.assertIn("(1 block)", stats.ratio_cell(p))

    def test_stopping_and_reporting_use_one_statistic(self):
        """A group that blocks.py calls pinned has every ratio pinned by
        stats.paired() over the same blocks, and the other way round."""
        for seed, spread in ((1, 0.002), (2, 0.02), (3, 0.006), (4, 0.01)):
            d = tempfile.mkdtemp()
            write_parts(d, "1", 8, group="size:L1/g:a", rounds=3, spread=spread, seed=seed)
            ok = blocks.status(d, ["1"], target=1.0, min_blocks=6)["1"][2]
            merged = {}
            for k in range(1, 9):
                blocks._merge(merged, blocks.read_part(os.path.join(d, "1", f"{k}.json")))
            strat = next(iter(merged.values()))
            q = stats.quiet_processes(list(strat.values()))
            every = all(stats.pinned(stats.paired(strat["direct"], e, q))
                        for s, e in strat.items() if s != "direct")
            self.assertEqual(ok, every, (seed, spread))


SHARED_RUNS = os.path.join(ROOT, "..", "shared", "runs")


@unittest.skipUnless(os.path.isdir(SHARED_RUNS), "no ../shared/runs beside the checkout")
class TestZen5Runs(unittest.TestCase):
    """Three make bench runs on a Zen 5 host (the fixtures in shared/runs):
    the idle one is quiet, the busy one disturbed, and no ratio is called
    pinned on fewer than MIN_PIN_BLOCKS blocks.  Read only."""

    def load(self, tail):
        from lib import runfolder, runstate
        d = next(os.path.join(SHARED_RUNS, n) for n in os.listdir(SHARED_RUNS) if n.endswith(tail))
        data = runfolder.load_run(d, writes=False)
        return data, runstate

    def test_the_idle_run_is_quiet(self):
        data, runstate = self.load("-idle")
        disturbed, why, _ = runstate.host_state(data)
        self.assertFalse(disturbed, why)

    def test_the_busy_run_is_disturbed(self):
        data, runstate = self.load("-busy-cpu0")
        disturbed, why, _ = runstate.host_state(data)
        self.assertTrue(disturbed)
        self.assertTrue(any("load average" in w for w in why), why)

    def test_no_ratio_is_pinned_on_fewer_than_six_blocks(self):
        for tail in ("-idle", "-busy-cpu0", "-loaded"):
            data, runstate = self.load(tail)
            comps = [p for _, _, p in runstate._comparisons(data["results"]) if p]
            self.assertGreater(len(comps), 200)
            for p in comps:
                if stats.pinned(p):
                    self.assertGreaterEqual(p["processes"], stats.MIN_PIN_BLOCKS)


class TestStoppingRule(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_a_steady_group_is_pinned_a_spread_one_is_not(self):
        write_parts(self.d, "1", 6, group="size:L1/g:a", rounds=3, spread=0.002, seed=1)
        write_parts(self.d, "2", 6, group="size:L1/g:b", rounds=3, spread=0.08, seed=2)
        st = blocks.status(self.d, ["1", "2"], target=1.0, min_blocks=6)
        self.assertTrue(st["1"][2], st["1"])
        self.assertFalse(st["2"][2], st["2"])
        self.assertGreater(st["2"][1], 1.0)

    def test_too_few_blocks_is_never_pinned(self):
        write_parts(self.d, "1", 3, group="size:L1/g:a", rounds=3, spread=0.002, seed=1)
        self.assertFalse(blocks.status(self.d, ["1"], target=1.0, min_blocks=6)["1"][2])

    def test_a_block_in_the_slow_phase_does_not_count(self):
        """Blocks 2 and 5 ran with the host 1.5x slower: set aside, so 8 blocks keep 6."""
        write_parts(self.d, "1", 8, group="size:L1/g:a", rounds=3, spread=0.002, seed=1,
                    hosts={2: 1.5, 5: 1.5})
        write_parts(self.d, "2", 8, group="size:L1/g:b", rounds=3, spread=0.002, seed=4)
        kept, _, _ = blocks.status(self.d, ["1", "2"], target=1.0, min_blocks=6)["1"]
        self.assertEqual(kept, 6)

    def test_the_cache_gives_the_same_answer(self):
        write_parts(self.d, "1", 6, group="size:L1/g:a", rounds=3, spread=0.01, seed=5)
        a = blocks.status(self.d, ["1"], target=1.0, min_blocks=6)
        self.assertTrue(os.path.exists(os.path.join(self.d, ".blocks-cache.json")))
        self.assertEqual(a, blocks.status(self.d, ["1"], target=1.0, min_blocks=6))


class TestPinTarget(unittest.TestCase):
    def test_the_runs_target_from_meta_json_decides_pinned(self):
        # One statement of the target (the suite's profile table), carried in
        # meta.json: a ratio +-1.5% wide is pinned under a 2% target only.
        p = {"unit": "blocks", "processes": 8, "half_pct": 1.5}
        try:
            stats.set_pin_target(None)
            self.assertFalse(stats.pinned(p))
            stats.set_pin_target(2.0)
            self.assertTrue(stats.pinned(p))
            self.assertFalse(stats.pinned(p, target=1.0))
        finally:
            stats.set_pin_target(1.0)


class TestMerge(unittest.TestCase):
    def test_parts_merge_in_the_order_of_their_numbers(self):
        with tempfile.TemporaryDirectory() as d:
            parts = os.path.join(d, "parts")
            for job, k in (("2", 1), ("10", 1), ("2", 10), ("2", 2)):
                os.makedirs(os.path.join(parts, job), exist_ok=True)
                with open(os.path.join(parts, job, f"{k}.json"), "w") as f:
                    json.dump({"context": {}, "benchmarks": [{"name": f"{job}/{k}"}]}, f)
            out = os.path.join(d, "b.json")
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "merge.py"), parts, out], check=True)
            with open(out) as f:
                names = [b["name"] for b in json.load(f)["benchmarks"]]
            self.assertEqual(names, ["2/1", "2/2", "2/10", "10/1"])


class TestHostBuild(unittest.TestCase):
    CASES = [
        ({"spectre_v2": "Mitigation: Retpolines; STIBP: disabled",
          "spec_rstack_overflow": "Vulnerable: Safe RET, no microcode"}, "srso"),
        ({"spectre_v2": "Mitigation: Retpolines", "spec_rstack_overflow": "Mitigation: Safe RET"}, "srso"),
        ({"spectre_v2": "Mitigation: Retpolines", "retbleed": "Mitigation: untrained return thunk",
          "spec_rstack_overflow": "Not affected"}, "rethunk"),
        ({"spectre_v2": "Mitigation: Retpolines; STIBP: disabled", "retbleed": "Not affected"}, "retpoline"),
        ({"spectre_v2": "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional"}, "kernel"),
        ({"spectre_v2": "Vulnerable"}, "kernel"),
    ]

    def host_build(self, files, arch="x86_64"):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), "w") as f:
                    f.write(text + "\n")
            out = subprocess.run([os.path.join(ROOT, "scripts", "host-build.sh"), arch],
                                 env={**os.environ, "VULN_DIR": d}, capture_output=True, text=True, check=True)
        variant, why = out.stdout.rstrip("\n").split("\t")
        return variant, why

    def test_each_mitigation_picks_its_build_and_says_why(self):
        for files, want in self.CASES:
            variant, why = self.host_build(files)
            self.assertEqual(variant, want, files)
            self.assertTrue(why and ("spectre_v2" in why or "mitigations" in why), why)

    def test_no_sysfs_says_the_mitigations_are_unknown(self):
        out = subprocess.run([os.path.join(ROOT, "scripts", "host-build.sh"), "x86_64"],
                             env={**os.environ, "VULN_DIR": "/nonexistent"}, capture_output=True, text=True)
        self.assertEqual(out.stdout.split("\t")[0], "kernel")
        self.assertIn("unknown", out.stdout)

    def test_arm64_is_bti_pac(self):
        self.assertEqual(self.host_build({}, "arm64")[0], "bti-pac")


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=1).result
    failed = len(r.failures) + len(r.errors)
    print(f"blocks tests: {r.testsRun - failed} passed, {failed} failed", file=sys.stderr)
    sys.exit(failed)
