#!/usr/bin/env python3
"""test_report.py - the report scripts on fixture runs (tests/fixtures/report/).

`supported` is a run where every claim of the article holds, `unsupported` one
where none does, so the verdict logic is seen to fail as well as pass; then
malformed, missing and incomplete inputs, each of which must give one clear
line naming the file and exit status 2, never a traceback.
"""
import gzip
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures", "report")
REPORT = os.path.join(ROOT, "scripts", "report.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from lib import benchmarks, stats  # noqa: E402


def run_report(folder, *extra):
    return subprocess.run([sys.executable, REPORT, folder, "--no-plots", *extra],
                          capture_output=True, text=True)


class Fixture(unittest.TestCase):
    def copy(self, name):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        dst = os.path.join(d, name)
        shutil.copytree(os.path.join(FIXTURES, name), dst)
        return dst

    def edited_copy(self, edit):
        """A copy of the supported fixture, edit(benchmarks) applied to its benchmarks.json."""
        d = self.copy("supported")
        path = os.path.join(d, "benchmarks.json")
        with open(path) as f:
            data = json.load(f)
        edit(data["benchmarks"])
        with open(path, "w") as f:
            json.dump(data, f)
        return d

    def outputs(self, d):
        """The report.md and claims.json that report.py writes into @d."""
        res = run_report(d)
        self.assertEqual(res.returncode, 0, res.stderr)
        out = {}
        for name in ("report.md", "claims.json"):
            with open(os.path.join(d, name), "rb") as f:
                out[name] = f.read()
        return out

    def verdicts(self, name):
        d = self.copy(name)
        res = run_report(d)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(d, "claims.json")) as f:
            claims = json.load(f)
        with open(os.path.join(d, "report.md")) as f:
            report = f.read()
        return [c["verdict"] for c in claims], report


class TestVerdicts(Fixture):
    def test_every_claim_supported_on_the_supported_fixture(self):
        v, _ = self.verdicts("supported")
        self.assertEqual(v[0], "supported")                       # NULL test
        self.assertEqual(v[1], "supported")                       # default ops
        self.assertEqual(v[2], "supported in simulated misses and in time: null_tested is "
                               "slower by 3.31 ns; default_ops is slower by 5.69 ns")  # flag bits
        self.assertTrue(v[3].startswith("by construction for space") and
                        "supported for memory references" in v[3], v[3])  # vtable vs embedded
        self.assertEqual(v[4], "by construction: one pointer of 192 bytes, 4.2% (the article says about 5%)")
        self.assertEqual(v[5], "supported")                       # hoisted compare

    def test_no_claim_supported_on_the_unsupported_fixture(self):
        v, _ = self.verdicts("unsupported")
        self.assertEqual(v[0], "not supported")
        self.assertTrue(v[1].startswith("depends on what is counted: the call site is smaller"), v[1])
        self.assertEqual(v[2], "not supported: flag_gated misses no less often (simulated)")
        self.assertTrue(v[3].endswith("not supported for memory references: no extra reads here"), v[3])
        self.assertTrue(v[4].startswith("by construction"), v[4])
        self.assertTrue(v[5].startswith("not supported in this model"), v[5])

    def test_known_input_gives_known_table(self):
        _, report = self.verdicts("supported")
        # flag_gated: samples spread around 5.0 ns; direct (4.8) is the baseline.
        self.assertIn("| flag_gated | 4.96 | 4.95 | 4.99 | 19.8 | 1.042 [1.042, 1.042] (1 block) (not pinned) | 192 | 39 |", report)
        self.assertIn("| null_tested | 43.4 | 43.3 | 43.6 | 173.5 | 1.084 [1.079, 1.089] (1 block) (not pinned) | "
                      "+3.36 [+3.19, +3.53] | 0.28 | 192 | 39 |", report)
        self.assertIn("| null_test/nonnull:100 | 1.8 | [1.78, 1.81] | 0.6% | 1.29x |", report)
        self.assertIn("**Verdict: supported.**", report)
        self.assertIn("No hardware counters were counted", report)

    def test_claims_say_what_is_missing(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "cachesim.csv"))
        os.unlink(os.path.join(d, "disasm.json"))
        self.assertEqual(run_report(d).returncode, 0)
        with open(os.path.join(d, "claims.json")) as f:
            v = [c["verdict"] for c in json.load(f)]
        self.assertEqual(v[1], "not tested: needs make disasm")
        # Without cachesim the flag-bits claim stands on its cold timings alone.
        self.assertTrue(v[2].startswith("supported in time: null_tested is slower"), v[2])


class TestProvenance(Fixture):
    """A folder whose files come from different builds is flagged; one build is not."""

    def with_provenance(self, commits):
        d = self.copy("supported")
        files = {name: {"commit": c, "variant": "plain", "tool": "test", "date": "2026-12-03"}
                 for name, c in commits.items()}
        with open(os.path.join(d, "provenance.json"), "w") as f:
            json.dump({"files": files}, f)
        return d

    def test_mixed_builds_are_flagged(self):
        d = self.with_provenance({"benchmarks.json": "aaaaaaaaaaaa", "cachesim.csv": "bbbbbbbbbbbb-dirty"})
        res = run_report(d, "--no-plots")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("files from", res.stderr)
        with open(os.path.join(d, "report.md")) as f:
            report = f.read()
        self.assertIn("Mixed builds", report)
        self.assertIn("bbbbbbbbbbbb-dirty", report)
        with open(os.path.join(d, "provenance.json")) as f:
            self.assertIn("report.md", json.load(f)["files"])

    def test_one_build_is_not_flagged(self):
        with open(os.path.join(FIXTURES, "supported", "meta.json")) as f:
            git = json.load(f).get("git") or {}
        c = (git.get("commit") or "aaaaaaaaaaaa")[:12] + ("-dirty" if git.get("dirty") else "")
        d = self.with_provenance({"benchmarks.json": c, "cachesim.csv": c})
        res = run_report(d, "--no-plots")
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(d, "report.md")) as f:
            self.assertNotIn("Mixed builds", f.read())

    def test_broken_provenance_is_refused(self):
        d = self.copy("supported")
        with open(os.path.join(d, "provenance.json"), "w") as f:
            f.write('{"files": {"x": 3}}')
        res = run_report(d, "--no-plots")
        self.assertEqual(res.returncode, 2)
        self.assertIn("provenance.json", res.stderr)


class TestProvenanceRace(unittest.TestCase):
    def test_two_tools_recording_at_once_keep_both_entries(self):
        """make perf and make cachesim finishing together: each of 10 pairs
        of provenance.py runs started at once keeps both entries, and no
        lock or part file is left behind."""
        script = os.path.join(ROOT, "scripts", "provenance.py")
        with tempfile.TemporaryDirectory() as d:
            for name in ("a.md", "b.md"):
                open(os.path.join(d, name), "w").close()
            for i in range(10):
                ps = [subprocess.Popen([sys.executable, script, d, "--tree", "--tool", f"{t}{i}", f"{t}.md"],
                                       stderr=subprocess.PIPE, text=True) for t in "ab"]
                for p in ps:
                    _, err = p.communicate()
                    self.assertEqual(p.returncode, 0, err)
                with open(os.path.join(d, "provenance.json")) as f:
                    files = json.load(f)["files"]
                self.assertEqual((files["a.md"]["tool"], files["b.md"]["tool"]), (f"a{i}", f"b{i}"))
            self.assertEqual(sorted(os.listdir(d)), ["a.md", "b.md", "provenance.json"])


class TestPlotsNeverFailTheReport(Fixture):
    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed (make report installs it)")
    def test_negative_and_zero_times_are_drawn_or_skipped(self):
        d = self.copy("supported")
        path = os.path.join(d, "benchmarks.json")
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if "/mode:cold/" in b["name"]:
                b["real_time"] = -abs(b["real_time"])   # timer overhead larger than the lookup
        with open(path, "w") as f:
            json.dump(data, f)
        res = subprocess.run([sys.executable, REPORT, d], capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        with open(os.path.join(d, "report.md")) as f:
            report = f.read()
        self.assertIn("## Plots", report)
        self.assertIn("## Claims of the article", report)


class TestBadNumbers(Fixture):
    """Numbers no run can produce are refused, naming the file and the field."""

    def edited(self, edit):
        d = self.edited_copy(edit)
        return subprocess.run([sys.executable, REPORT, d, "--no-plots"], capture_output=True, text=True)

    def refused(self, res, fragment):
        self.assertEqual(res.returncode, 2, res.stdout + res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        self.assertIn(fragment, res.stderr)

    def first_throughput(self, bs):
        return next(b for b in bs if b["name"].startswith("lookup/direct/mode:throughput"))

    def test_zero_time_is_refused(self):
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=0.0)),
                     "is not a plausible time")

    def test_negative_throughput_time_is_refused(self):
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=-3.0)),
                     "is not a plausible time")

    def test_absurd_time_is_refused(self):
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=1e300)),
                     "is not a plausible time")

    def test_a_time_below_a_picosecond_is_refused(self):
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=1e-300)),
                     "is not a plausible time (1 ps <= t < 1 h)")

    def test_nan_and_inf_are_refused(self):
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=float("nan"))),
                     "not a finite number")
        self.refused(self.edited(lambda bs: self.first_throughput(bs).update(real_time=float("inf"))),
                     "not a finite number")

    def test_non_string_name_is_refused(self):
        self.refused(self.edited(lambda bs: bs[0].update(name=42, run_name=42)), "not a string")

    def test_duplicated_sample_is_refused(self):
        self.refused(self.edited(lambda bs: bs.append(dict(self.first_throughput(bs)))), "the same sample twice")

    def test_wrong_meta_type_is_refused(self):
        d = self.copy("supported")
        path = os.path.join(d, "meta.json")
        with open(path) as f:
            meta = json.load(f)
        meta["variants"] = "plain"
        with open(path, "w") as f:
            json.dump(meta, f)
        res = subprocess.run([sys.executable, REPORT, d, "--no-plots"], capture_output=True, text=True)
        self.refused(res, "variants='plain': expected list")

    def test_nan_in_cachesim_is_refused(self):
        d = self.copy("supported")
        path = os.path.join(d, "cachesim.csv")
        with open(path) as f:
            lines = f.read().splitlines()
        cells = lines[1].split(",")
        cells[3] = "nan"  # instructions_per_lookup
        lines[1] = ",".join(cells)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        res = subprocess.run([sys.executable, REPORT, d, "--no-plots"], capture_output=True, text=True)
        self.refused(res, "is not a finite count")

    def test_bad_disasm_counts_are_refused(self):
        d = self.copy("supported")
        with open(os.path.join(d, "disasm.json"), "w") as f:
            json.dump({"instructions_per_site": {"null_tested": {"site_d_hash": {"x86_64": "nine"}}}}, f)
        res = subprocess.run([sys.executable, REPORT, d, "--no-plots"], capture_output=True, text=True)
        self.refused(res, "expected instruction counts")


class TestBadInput(Fixture):
    def assertClearError(self, res, *words):
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        self.assertEqual(len(res.stderr.strip().splitlines()), 1, res.stderr)
        for w in words:
            self.assertIn(w, res.stderr)

    def test_missing_folder(self):
        self.assertClearError(run_report("/nonexistent/run"), "/nonexistent/run", "no such results folder")

    def test_missing_benchmarks_json(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "benchmarks.json"))
        self.assertClearError(run_report(d), "benchmarks.json")

    def test_malformed_benchmarks_json(self):
        d = self.copy("supported")
        with open(os.path.join(d, "benchmarks.json"), "w") as f:
            f.write('{"benchmarks": [')
        self.assertClearError(run_report(d), "benchmarks.json", "not valid JSON")

    def test_not_google_benchmark_json(self):
        d = self.copy("supported")
        with open(os.path.join(d, "benchmarks.json"), "w") as f:
            f.write('{"results": []}')
        self.assertClearError(run_report(d), "benchmarks.json", "not Google Benchmark JSON")

    def test_missing_meta(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "meta.json"))
        self.assertClearError(run_report(d), "meta.json", "missing")

    def test_malformed_cachesim(self):
        d = self.copy("supported")
        with open(os.path.join(d, "cachesim.csv"), "a") as f:
            f.write("L1-0pct-warm,direct,20000,lots,1,1,1,1,0,x\n")
        self.assertClearError(run_report(d), "cachesim.csv", "'lots' is not a number")

    def test_incomplete_run_is_refused(self):
        d = self.copy("supported")
        with open(os.path.join(d, "INCOMPLETE"), "w") as f:
            f.write("interrupted by SIGINT after 3 of 10 groups\n")
        self.assertClearError(run_report(d), "incomplete run", "SIGINT")


class TestCompare(Fixture):
    def test_compare_two_runs_gives_ratios(self):
        a, b = self.copy("supported"), self.copy("unsupported")
        out = os.path.join(b, "cmp.md")
        res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare_runs.py"), a, b,
                              "--out", out], capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(out) as f:
            text = f.read()
        # flag_gated: 5.0 ns in A, 8.0 ns in B.
        self.assertRegex(text, r"\| flag_gated \| 4\.99 \| 7\.99 \| 1\.600 \|")
        # null_tested is 8.0 in both: overlapping CIs.
        self.assertRegex(text, r"\| null_tested \| 7\.99 \| 7\.99 \| 1\.000 ~ \|")

    def test_compare_refuses_a_missing_run(self):
        res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare_runs.py"),
                              "/nonexistent/a", self.copy("supported")], capture_output=True, text=True)
        self.assertEqual(res.returncode, 2)
        self.assertIn("/nonexistent/a", res.stderr)
        self.assertNotIn("Traceback", res.stderr)


class TestStatistics(unittest.TestCase):
    def test_paired_ratio_pairs_samples_by_round(self):
        # The baseline drifts by 30% between rounds; the other is always 10% slower
        # than the baseline of its own round: the paired ratio is exactly 1.1.
        base = [10.0 * (1 + 0.3 * (r % 3)) for r in range(30)]
        a = {"samples": base, "counters": {"round": [float(r) for r in range(30)]}}
        b = {"samples": [1.1 * x for x in reversed(base)],
             "counters": {"round": [float(r) for r in reversed(range(30))]}}
        p = stats.paired(a, b)
        self.assertAlmostEqual(p["ratio"], 1.1)
        self.assertAlmostEqual(p["ratio_ci"][0], 1.1)
        self.assertAlmostEqual(p["ratio_ci"][1], 1.1)
        self.assertTrue(p["differs"])
        self.assertEqual(p["n"], 30)

    def test_paired_interval_covers_the_spread_between_processes(self):
        # Four processes of 10 rounds; within each, the ratio is steady (1.00 + 0.001
        # noise), but each process sits at its own level: 1.00, 1.04, 1.08, 1.12.
        # Over the rounds alone the interval is narrow; drawing the processes too,
        # it spans the levels.
        rounds = list(range(40))
        level = [1.00, 1.04, 1.08, 1.12]
        a = {"samples": [10.0] * 40, "counters": {"round": [float(r) for r in rounds]}}
        b = {"samples": [10.0 * (level[r // 10] + 0.001 * (r % 3)) for r in rounds],
             "counters": {"round": [float(r) for r in rounds]}}
        flat = stats.paired(a, b)
        self.assertEqual(flat["processes"], 1)
        for e in (a, b):
            e["counters"]["pass"] = [float(1 + r // 10) for r in rounds]
        by_process = stats.paired(a, b)
        self.assertEqual(by_process["processes"], 4)
        self.assertAlmostEqual(by_process["ratio"], flat["ratio"])
        width = lambda p: p["ratio_ci"][1] - p["ratio_ci"][0]
        self.assertLess(width(flat), 0.05)
        self.assertGreater(width(by_process), 0.07)
        self.assertLessEqual(by_process["ratio_ci"][0], 1.04)
        self.assertGreaterEqual(by_process["ratio_ci"][1], 1.08)

    @staticmethod
    def _procs(per_process):
        """Entries of two strategies, one process per (base, ratios) item of
        @per_process, its rounds numbered on from the last process's."""
        a = {"samples": [], "counters": {"round": [], "pass": []}}
        b = {"samples": [], "counters": {"round": [], "pass": []}}
        r = 0
        for p, (base, ratios) in enumerate(per_process, 1):
            for q in ratios:
                for e, x in ((a, base), (b, base * q)):
                    e["samples"].append(x)
                    e["counters"]["round"].append(float(r))
                    e["counters"]["pass"].append(float(p))
                r += 1
        return a, b

    def test_quiet_processes_set_the_slow_state_aside(self):
        # Five processes in the quiet state (baseline 9 ns, ratios 4.02..4.38 around
        # 4.2) and three in the slow one (baseline 15 ns, 1.67x: ratio 3.2, as a
        # retpoline's fixed cost weighs less on slowed memory).  Pooled, the slow
        # rounds pull the median ratio down; set aside, it is the quiet state's.
        quiet = [4.2 + 0.04 * (k - 4.5) for k in range(10)]
        a, b = self._procs([(9.0, quiet)] * 5 + [(15.0, [3.2] * 10)] * 3)
        q = stats.quiet_processes([a, b])
        self.assertEqual(q, {"kept": {1.0, 2.0, 3.0, 4.0, 5.0}, "processes": 8, "host_slow": 0})
        pooled = stats.paired(a, b)
        self.assertLess(pooled["ratio"], 4.17)
        p = stats.paired(a, b, q)
        self.assertAlmostEqual(p["ratio"], 4.2)
        self.assertEqual((p["processes"], p["set_aside"], p["n"]), (5, 3, 50))
        self.assertEqual(pooled["set_aside"], 0)

    def test_quiet_processes_keep_one_state_whole(self):
        # Levels within 1.3x of the quietest: nothing is set aside.
        a, b = self._procs([(9.0, [1.1] * 4), (10.0, [1.1] * 4), (11.5, [1.1] * 4)])
        self.assertEqual(stats.quiet_processes([a, b])["kept"], {1.0, 2.0, 3.0})
        self.assertEqual(stats.paired(a, b, stats.quiet_processes([a, b]))["set_aside"], 0)
        # One process, or no pass counter: nothing to compare a process with.
        one, _ = self._procs([(9.0, [1.0] * 4)])
        self.assertIsNone(stats.quiet_processes([one]))
        del a["counters"]["pass"]
        self.assertIsNone(stats.quiet_processes([a, b]))
        # A strategy whose median sample is not positive (a cold difference at the
        # timer's noise) gives no level; the others still do.
        a, b = self._procs([(9.0, [1.0] * 4), (20.0, [1.0] * 4)])
        neg = {"samples": [-1.0] * 8, "counters": dict(a["counters"])}
        self.assertEqual(stats.quiet_processes([a, b, neg])["kept"], {1.0})

    def test_paired_refuses_a_round_seen_twice(self):
        a = {"samples": [1.0, 1.0], "counters": {"round": [0.0, 0.0]}}
        with self.assertRaises(benchmarks.ResultsError):
            stats.paired(a, a)

    def test_gb_suffixes_are_not_part_of_the_name(self):
        self.assertEqual(benchmarks.strip_gb_suffixes(
            "lookup/direct/mode:cold/size:L1/iterations:4096/repeats:1/manual_time"),
            "lookup/direct/mode:cold/size:L1")

    def test_median_ci_ranks_for_20_samples(self):
        # Binomial(20, 1/2): P(X <= 5) = 0.0207 <= 0.025 < P(X <= 6): ranks 6 and 15.
        self.assertEqual(stats.median_ci(list(range(1, 21))), (6, 15))

    def test_overlapping_intervals_are_no_difference(self):
        a = stats.summarize([1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7])
        b = stats.summarize([1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2])
        c = stats.summarize([3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7])
        self.assertFalse(stats.differs(a, b))
        self.assertTrue(stats.differs(a, c))


class TestPackedSamples(Fixture):
    """A folder may hold benchmarks.json.gz instead of benchmarks.json: every
    script reads it alike (lib/benchmarks.py read_benchmarks())."""

    def packed_copy(self):
        d = self.copy("supported")
        path = os.path.join(d, "benchmarks.json")
        with open(path, "rb") as f, open(path + ".gz", "wb") as out:
            out.write(gzip.compress(f.read(), mtime=0))
        os.unlink(path)
        return d

    def test_the_report_of_a_packed_copy_is_the_report_of_the_plain_one(self):
        self.assertEqual(self.outputs(self.packed_copy()), self.outputs(self.copy("supported")))

    def test_repro_and_compare_read_a_packed_copy(self):
        plain, packed = os.path.join(FIXTURES, "supported"), self.packed_copy()
        res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "repro.py"), plain, packed],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("14 of 14 ratios agree within 3%; the largest difference is 0.0%.", res.stdout)
        out = os.path.join(packed, "cmp.md")
        res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare_runs.py"),
                              self.copy("supported"), packed, "--out", out], capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(out) as f:
            self.assertRegex(f.read(), r"\| flag_gated \| 4\.99 \| 4\.99 \| 1\.000 ~ \|")
        self.assertEqual(sorted(os.listdir(packed)), sorted(os.listdir(self.packed_copy()) + ["cmp.md"]))

    def test_a_folder_with_both_files_is_refused(self):
        # They may disagree: no reader picks one silently.
        d = self.copy("supported")
        with open(os.path.join(d, "benchmarks.json.gz"), "wb") as f:
            f.write(gzip.compress(b'{"benchmarks": []}', mtime=0))
        for cmd in ([REPORT, d, "--no-plots"], [REPRO, os.path.join(FIXTURES, "supported"), d],
                    [os.path.join(ROOT, "scripts", "summary.py"), d]):
            res = subprocess.run([sys.executable, *cmd], capture_output=True, text=True)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("holds both benchmarks.json and benchmarks.json.gz: keep one", res.stderr)
            self.assertNotIn("Traceback", res.stderr)

    def test_a_damaged_packed_file_is_named(self):
        d = self.packed_copy()
        path = os.path.join(d, "benchmarks.json.gz")
        with open(path, "rb") as f:
            data = f.read()
        for broken in (data[: len(data) // 2], b"not gzip"):
            with open(path, "wb") as f:
                f.write(broken)
            res = run_report(d)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertNotIn("Traceback", res.stderr)
            self.assertIn("benchmarks.json.gz", res.stderr)


PACK_RUN = os.path.join(ROOT, "scripts", "pack_run.py")


class TestPackRun(Fixture):
    """scripts/pack_run.py FOLDER: benchmarks.json replaced by benchmarks.json.gz."""

    def pack_run(self, d):
        return subprocess.run([sys.executable, PACK_RUN, d], capture_output=True, text=True)

    def test_a_folder_without_benchmarks_json_is_refused(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "benchmarks.json"))
        before = sorted(os.listdir(d))
        res = self.pack_run(d)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("no benchmarks.json", res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        self.assertEqual(sorted(os.listdir(d)), before)

    def test_the_packed_file_decompresses_to_the_same_bytes(self):
        d, e = self.copy("supported"), self.copy("supported")
        with open(os.path.join(d, "benchmarks.json"), "rb") as f:
            original = f.read()
        for folder in (d, e):
            res = self.pack_run(folder)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(sorted(n for n in os.listdir(folder) if n.startswith("benchmarks")),
                             ["benchmarks.json.gz"])
        packed = []
        for folder in (d, e):
            with open(os.path.join(folder, "benchmarks.json.gz"), "rb") as f:
                packed.append(f.read())
        self.assertEqual(gzip.decompress(packed[0]), original)
        self.assertEqual(packed[0], packed[1])       # deterministic
        self.assertEqual(self.outputs(d), self.outputs(self.copy("supported")))


REPRO = os.path.join(ROOT, "scripts", "repro.py")
FLAG_L1 = "lookup/flag_gated/mode:throughput/size:L1/"


class TestRepro(Fixture):
    """scripts/repro.py on the supported fixture against copies of itself."""

    def run_b(self, scale):
        """A copy of the fixture whose flag_gated L1 samples are scaled by scale(round)."""
        def edit(benchmarks):
            for b in benchmarks:
                if b["name"].startswith(FLAG_L1):
                    b["real_time"] *= scale(int(b["round"]))
        return self.edited_copy(edit)

    def repro(self, b):
        res = subprocess.run([sys.executable, REPRO, os.path.join(FIXTURES, "supported"), b],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        return res.stdout

    def test_same_run_agrees_everywhere(self):
        out = self.repro(self.copy("supported"))
        self.assertIn("14 of 14 ratios agree within 3%; the largest difference is 0.0%. "
                      "Of the 0 that do not, 0 are wide in at least one run.", out)
        self.assertNotIn("## Not within", out)
        self.assertIn("| flag_gated | 1.042 [1.042, 1.042] | 1.042 [1.042, 1.042] | +0.0% | yes |", out)

    def test_a_run_against_itself_or_a_bad_meta_is_refused(self):
        same = os.path.join(FIXTURES, "supported")
        res = subprocess.run([sys.executable, REPRO, same, same + "/."], capture_output=True, text=True)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("are the same run", res.stderr)
        d = self.copy("supported")
        with open(os.path.join(d, "meta.json"), "w") as f:
            f.write("[]")
        res = subprocess.run([sys.executable, REPRO, same, d], capture_output=True, text=True)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("meta.json: not an object", res.stderr)
        self.assertNotIn("Traceback", res.stderr)

    def test_a_shifted_ratio_is_listed_and_not_wide(self):
        out = self.repro(self.run_b(lambda r: 1.10))
        self.assertIn("13 of 14 ratios agree within 3%; the largest difference is 10.0%. "
                      "Of the 1 that do not, 0 are wide in at least one run.", out)
        misses = out.split("## Not within 3%")[1]
        self.assertIn("| flag_gated | 1.042 [1.042, 1.042] | 1.146 [1.146, 1.146] | +10.0% | no |", misses)

    def test_a_ratio_with_two_states_is_wide(self):
        # Every other round 25% slower: the run cannot pin the ratio down.
        out = self.repro(self.run_b(lambda r: 1.25 if r % 2 else 1.0))
        misses = out.split("## Not within 3%")[1]
        row = next(line for line in misses.splitlines() if "| flag_gated |" in line)
        self.assertTrue(row.endswith("| no (wide) | 1 of 1, 1 of 1 |"), row)
        self.assertIn("Of the 1 that do not, 1 are wide in at least one run.", out)

    def test_bad_input_is_one_line_and_status_2(self):
        res = subprocess.run([sys.executable, REPRO, os.path.join(FIXTURES, "supported"),
                              "/nonexistent/run"], capture_output=True, text=True)
        self.assertEqual(res.returncode, 2)
        self.assertEqual(len(res.stderr.strip().splitlines()), 1, res.stderr)
        self.assertNotIn("Traceback", res.stderr)

    def test_a_tolerance_of_zero_or_less_is_refused(self):
        for tol in ("0", "-3", "nan"):
            res = subprocess.run([sys.executable, REPRO, os.path.join(FIXTURES, "supported"),
                                  os.path.join(FIXTURES, "supported"), "--tolerance", tol],
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 2, tol)
            self.assertIn("--tolerance", res.stderr)


class TestStrangersFolders(Fixture):
    """Issue 36: results folders handed over by someone else."""

    def test_a_link_at_the_part_file_is_replaced_not_followed(self):
        d = self.copy("supported")
        victim = os.path.join(os.path.dirname(d), "victim")
        with open(victim, "w") as f:
            f.write("outside")
        os.symlink(victim, os.path.join(d, "report.md.part"))
        os.symlink(victim, os.path.join(d, "claims.json"))
        res = run_report(d)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "outside")
        self.assertFalse(os.path.islink(os.path.join(d, "claims.json")))
        self.assertFalse(os.path.lexists(os.path.join(d, "report.md.part")))

    def test_a_fifo_is_refused_unread(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "benchmarks.json"))
        os.mkfifo(os.path.join(d, "benchmarks.json"))
        res = subprocess.run([sys.executable, REPORT, d, "--no-plots"], capture_output=True,
                             text=True, timeout=30)
        self.assertEqual(res.returncode, 2)
        self.assertIn("not a regular file", res.stderr)

    def test_a_string_or_boolean_time_is_refused(self):
        for value in ("17.5", True):
            d = self.edited_copy(lambda bs: bs[0].update(real_time=value))
            res = run_report(d)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("expected a number", res.stderr)
            self.assertNotIn("Traceback", res.stderr)

    def test_an_unknown_baseline_is_refused(self):
        d = self.copy("supported")
        with open(os.path.join(d, "registry.json"), "w") as f:
            json.dump({"strategies": [{"name": "nosuch", "baseline": True, "custom_baseline": False},
                                      {"name": "null_tested", "baseline": False, "custom_baseline": True}],
                       "scenarios": [], "pmu_events": []}, f)
        res = run_report(d)
        self.assertEqual(res.returncode, 2)
        self.assertIn("baseline 'nosuch' is not a strategy this run measured", res.stderr)

    def test_newest_run_is_by_the_date_in_meta_not_the_name(self):
        from lib import runfolder
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        for name, date in (("host-x86_64-20991231-235959", "2026-01-01T10:00:00+00:00"),
                           ("host-x86_64-20000101-000000", "2026-01-01T09:30:00-02:00"),
                           ("host-x86_64-20500101-000000", "2027-01-01T00:00:00+00:00")):
            shutil.copytree(os.path.join(FIXTURES, "supported"), os.path.join(root, name))
            path = os.path.join(root, name, "meta.json")
            with open(path) as f:
                meta = json.load(f)
            meta["date"] = date
            with open(path, "w") as f:
                json.dump(meta, f)
        with open(os.path.join(root, "host-x86_64-20500101-000000", "INCOMPLETE"), "w") as f:
            f.write("stopped\n")
        # 09:30 at UTC-2 is 11:30 UTC: later than 10:00 UTC, whatever the names say.
        self.assertEqual(os.path.basename(runfolder.newest_run(root)), "host-x86_64-20000101-000000")


class TestHostileJson(Fixture):
    """The hostile-input pass: keys twice, NaN, dates, pack_run's writes."""

    def edit_meta(self, d, text_edit):
        path = os.path.join(d, "meta.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text_edit(text))

    def refused(self, res, *words):
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        self.assertEqual(len(res.stderr.strip().splitlines()), 1, res.stderr)
        for w in words:
            self.assertIn(w, res.stderr)

    def test_a_key_twice_is_refused(self):
        d = self.copy("supported")
        self.edit_meta(d, lambda t: t.replace('"arch"', '"arch": "sparc", "arch"', 1))
        self.refused(run_report(d), "meta.json", "'arch' appears twice")
        d = self.copy("supported")
        path = os.path.join(d, "benchmarks.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('"benchmarks"', '"benchmarks": [], "benchmarks"', 1))
        self.refused(run_report(d), "benchmarks.json", "'benchmarks' appears twice")

    def test_nan_in_meta_is_refused(self):
        for const in ("NaN", "Infinity", "-Infinity"):
            d = self.copy("supported")
            self.edit_meta(d, lambda t: t.replace("{", '{"elapsed_s": %s, ' % const, 1))
            self.refused(run_report(d), "meta.json", "not a finite number")

    def test_a_bad_date_is_refused(self):
        for date in ("yesterday", "2026-12-01T10:00:00", 42):
            d = self.copy("supported")
            self.edit_meta(d, lambda t: t.replace("{", '{"date": %s, ' % json.dumps(date), 1)
                           if '"date"' not in t else t)
            path = os.path.join(d, "meta.json")
            with open(path) as f:
                meta = json.load(f)
            meta["date"] = date
            with open(path, "w") as f:
                json.dump(meta, f)
            self.refused(run_report(d), "meta.json", "date=")

    def test_newest_run_skips_a_date_in_the_future_with_a_line(self):
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        for name, date in (("future", "2999-01-01T00:00:00+00:00"), ("bad", "soon"),
                           ("past", "2026-01-01T00:00:00+00:00")):
            shutil.copytree(os.path.join(FIXTURES, "supported"), os.path.join(root, name))
            path = os.path.join(root, name, "meta.json")
            with open(path) as f:
                meta = json.load(f)
            meta["date"] = date
            with open(path, "w") as f:
                json.dump(meta, f)
        res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "runs.py"), "newest", root],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(os.path.basename(res.stdout.strip()), "past")
        self.assertIn("more than a day in the future", res.stderr)
        self.assertIn("date='soon'", res.stderr)

    def pack_run(self, *args):
        return subprocess.run([sys.executable, PACK_RUN, *args], capture_output=True, text=True)

    def test_pack_run_replaces_a_link_at_its_part_file(self):
        d = self.copy("supported")
        victim = os.path.join(os.path.dirname(d), "victim")
        with open(victim, "w") as f:
            f.write("outside")
        os.symlink(victim, os.path.join(d, "benchmarks.json.gz.part"))
        res = self.pack_run(d)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "outside")
        self.assertEqual(sorted(n for n in os.listdir(d) if n.startswith("benchmarks")),
                         ["benchmarks.json.gz"])

    def test_pack_run_refuses_an_existing_packed_file_and_bad_usage(self):
        d = self.copy("supported")
        with open(os.path.join(d, "benchmarks.json.gz"), "wb") as f:
            f.write(b"older")
        self.refused(self.pack_run(d), "benchmarks.json.gz: already there")
        with open(os.path.join(d, "benchmarks.json.gz"), "rb") as f:
            self.assertEqual(f.read(), b"older")
        self.assertEqual(self.pack_run().returncode, 2)
        self.assertEqual(self.pack_run(d, d).returncode, 2)
        res = self.pack_run("--help")
        self.assertEqual(res.returncode, 0)
        self.assertIn("usage: pack_run.py", res.stdout)

    def test_pack_run_refuses_a_fifo(self):
        d = self.copy("supported")
        os.unlink(os.path.join(d, "benchmarks.json"))
        os.mkfifo(os.path.join(d, "benchmarks.json"))
        res = subprocess.run([sys.executable, PACK_RUN, d], capture_output=True, text=True, timeout=30)
        self.refused(res, "not a regular file")


class TestStatisticsScale(unittest.TestCase):
    def test_median_ci_rank_above_the_exact_range_is_the_exact_rank(self):
        import math

        def exact(n):
            cdf, k = 0.0, 0
            while True:
                p = math.comb(n, k) / 2 ** n
                if cdf + p > 0.025:
                    return max(k, 1)
                cdf += p
                k += 1
        for n in (1001, 1500, 2047, 4096, 9999):
            self.assertEqual(stats.median_ci_rank(n), exact(n), n)

    def test_median_ci_of_a_million_samples(self):
        xs = list(range(10 ** 6, 0, -1))
        lo, hi = stats.median_ci(xs)
        k = stats.median_ci_rank(10 ** 6)
        self.assertEqual((lo, hi), (k, 10 ** 6 - k + 1))
        self.assertTrue(499000 < k < 499100, k)

    def test_stdev_is_the_statistics_modules(self):
        rng = random.Random(5)
        for n in (2, 3, 10, 1000):
            xs = [rng.uniform(0, 5) for _ in range(n)]
            self.assertAlmostEqual(stats.stdev(xs), statistics.stdev(xs), places=12)


class TestLayers(unittest.TestCase):
    """scripts/lib/ imports in one direction: no module imports one that
    imports it back, at the top or inside a function."""

    def test_no_import_loop(self):
        lib = os.path.join(ROOT, "scripts", "lib")
        mods = {f[:-3] for f in os.listdir(lib) if f.endswith(".py") and f != "__init__.py"}
        graph = {}
        for m in mods:
            with open(os.path.join(lib, m + ".py")) as f:
                src = f.read()
            names = set(re.findall(r"from \.(\w+) import", src))
            for group in re.findall(r"from \. import ([\w, ]+)", src):
                names |= {x.strip() for x in group.split(",")}
            graph[m] = names & mods

        def reaches(a, b, seen):
            return any(d == b or (d not in seen and not seen.add(d) and reaches(d, b, seen)) for d in graph[a])
        loops = sorted(f"{a} -> {b} -> ... -> {a}" for a in mods for b in graph[a] if reaches(b, a, set()))
        self.assertEqual(loops, [])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"report tests: {result.testsRun - failed} passed, {failed} failed")
    sys.exit(min(failed, 255))
