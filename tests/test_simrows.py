#!/usr/bin/python3
"""test_simrows.py - cachesim.csv's rows of several ISAs and builds: a
cachesim replaces only its own (arch, variant) rows, files from before the
arch and variant columns read as the folder's own arch, and the report's
ISA table and arm64 verdicts come from the arm64 rows."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from lib import claims, sections, simrows  # noqa: E402


def row(arch, variant, strategy, ins, scenario="L1-0pct-warm", **kw):
    r = {"scenario": scenario, "strategy": strategy, "instructions_per_lookup": str(ins),
         "data_reads_per_lookup": "20", "D1_misses_per_lookup": "0.1", "D1_read_misses_per_lookup": "0.1",
         "LL_misses_per_lookup": "0", "cond_branches_per_lookup": "17", "indirect_branches_per_lookup": "0",
         "calls_per_lookup": "0", "geometry": "neoverse-n1: ...", "build": f"c ({arch} {variant})",
         "arch": arch, "variant": variant}
    r.update(kw)
    return r


class SimRows(unittest.TestCase):
    def test_an_old_file_reads_as_the_folders_own_arch_and_its_builds_variant(self):
        old = {"scenario": "s", "strategy": "direct", "build": "abc (plain)"}
        self.assertEqual(simrows.select([old], "x86_64", "plain", "x86_64"), [old])
        self.assertEqual(simrows.select([old], "arm64", "plain", "x86_64"), [])

    def test_arm64_rows_replace_only_arm64_rows_of_their_variant(self):
        x86 = {"scenario": "s", "strategy": "direct", "build": "abc (plain)"}
        arm_old = row("arm64", "plain", "direct", 1)
        bti = row("arm64", "bti-pac", "direct", 2)
        arm_new = row("arm64", "plain", "direct", 3)
        merged = simrows.merge([x86, arm_old, bti], [arm_new], "x86_64")
        self.assertEqual([(r["arch"], r["variant"], r.get("instructions_per_lookup")) for r in merged],
                         [("x86_64", "plain", None), ("arm64", "bti-pac", "2"), ("arm64", "plain", "3")])

    def test_the_report_sets_the_isas_side_by_side_and_judges_claim_2_on_arm64(self):
        rows = [row("x86_64", "plain", "default_ops", 160), row("x86_64", "plain", "null_tested", 130),
                row("arm64", "plain", "default_ops", 150), row("arm64", "plain", "null_tested", 133),
                row("arm64", "bti-pac", "default_ops", 153), row("arm64", "bti-pac", "null_tested", 133)]
        d = {"meta": {"arch": "x86_64"}, "cachesim_all": rows, "cachesim": rows[:2], "disasm": {},
             "results": {}}
        text = sections.isa_section(d)
        self.assertIn("| default_ops | 160.0 / 150.0 |", text)
        self.assertIn("+3.0", text)
        view = claims.isa_view(d, "arm64")
        self.assertEqual(claims.default_ops(view)["verdict"][:13], "not supported")
        self.assertIsNone(claims.isa_view({**d, "cachesim_all": rows[:2]}, "arm64"))


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=0).result
    print(f"simrows tests: {r.testsRun - len(r.failures) - len(r.errors)} passed, "
          f"{len(r.failures) + len(r.errors)} failed")
    sys.exit(len(r.failures) + len(r.errors))
