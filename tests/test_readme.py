#!/usr/bin/env python3
"""test_readme.py - the README and the docs against what they describe.

- Every figure of the README's answer comes from the committed runs it
  links: each decimal number of "## The answer" appears in the report.md,
  repro.md or layout.md of a run it links (the first is the reference run), and each line
  of the example output in the reference's summary.md (the "done in" line:
  its meta.json's elapsed time and folder name).
- Every relative link of README.md, HACKING.md and docs/*.md resolves: the
  file exists and an anchor names a heading of it (GitHub's slugs).
- The README's strategy table is the registry's (scripts/registry.py
  DRIVER strategies --markdown).
- No README, doc, source file or comment names a commit of this repository
  (history lives in git; kernel commit ids are fine)."""
import json
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOCS = ["README.md", "HACKING.md", "results/README.md"] + sorted(
    os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
SOURCE_DIRS = ["include", "src", "bench", "scripts", "tests", ".ci"]
SOURCE_FILES = ["Makefile"]

NUMBER = re.compile(r"(?<![\w.])[-+]?\d+\.\d+(?![\w.]*\d)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def section(text, heading):
    """The body of the '## heading' section of Markdown @text."""
    m = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1) if m else None


def slugs(text):
    """GitHub's anchors of every heading of Markdown @text: lower case, no
    punctuation but '-' and '_', spaces to '-', repeats numbered -1, -2..."""
    out, seen = set(), {}
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6} (.*)", line)
        if not m:
            continue
        s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def reference_run(readme):
    """The results folder the README's answer links to."""
    m = re.search(r"\((results/[^/)]+)/report\.md[)#]", section(readme, "The answer") or "")
    return m.group(1) if m else None


class ReadmeFigures(unittest.TestCase):
    def setUp(self):
        self.readme = read("README.md")
        self.run = reference_run(self.readme)
        self.assertIsNotNone(self.run, "README: '## The answer' links no results/<run>/report.md")

    def test_readme_is_a_short_guide(self):
        lines = self.readme.count("\n")
        self.assertLessEqual(lines, 220, f"README.md has {lines} lines; docs/ holds the rest")
        first = "\n".join(self.readme.splitlines()[:40])
        for want in ("make bench", "make test", "minutes", "vs direct (paired)"):
            self.assertIn(want, first, f"README's first 40 lines lack {want!r}")

    def test_every_answer_figure_is_in_a_linked_runs_report(self):
        answer = section(self.readme, "The answer")
        runs = sorted(set(re.findall(r"\((results/[^/)]+)/(?:report|repro|layout)\.md[)#]", answer)))
        have = set()
        for run in runs:
            for name in ("report.md", "repro.md", "layout.md"):
                if os.path.exists(os.path.join(ROOT, run, name)):
                    have |= set(NUMBER.findall(read(os.path.join(run, name))))
        missing = [x for x in NUMBER.findall(answer) if x not in have]
        self.assertEqual(missing, [], f"figures of the README's answer not in the reports of {runs}")

    def test_example_output_is_the_reference_runs(self):
        summary = read(os.path.join(self.run, "summary.md")).splitlines()
        meta = json.loads(read(os.path.join(self.run, "meta.json")))
        block = re.search(r"```\n(bench: done in .*?)```", self.readme, re.S)
        self.assertIsNotNone(block, "README: no example output starting with 'bench: done in'")
        lines = block.group(1).splitlines()
        done = re.fullmatch(r"bench: done in (\d+) s: (\S+)", lines[0])
        self.assertIsNotNone(done, lines[0])
        self.assertEqual(int(done.group(1)), meta["elapsed_s"], "the 'done in' time is not meta.json's")
        self.assertEqual(done.group(2), self.run, "the 'done in' folder is not the reference run")
        for line in lines[1:]:
            self.assertIn(line, summary, f"not a line of {self.run}/summary.md")
        # The table is whole: its header and every strategy of the registry.
        registry = json.loads(read(os.path.join(self.run, "registry.json")))
        rows = {ln.split("|")[1].strip() for ln in lines if ln.startswith("| ") and "strategy" not in ln}
        self.assertEqual(rows, {s["name"] for s in registry["strategies"]})


class StrategyTable(unittest.TestCase):
    def test_the_readmes_strategy_table_is_the_registrys(self):
        # The registry (opsbench-run --list --json) is the one statement of
        # the strategies; the README's table is its print (registry.py
        # strategies --markdown), so that the two cannot drift.
        driver = os.environ.get("OPSBENCH_RUN") or os.path.join(ROOT, "build", "x86_64-gcc", "bin", "opsbench-run")
        if not os.access(driver, os.X_OK):
            self.skipTest(f"{driver}: not built (make tools)")
        want = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "registry.py"), driver,
                               "strategies", "--markdown"], capture_output=True, text=True, check=True).stdout
        self.assertIn(want.strip(), section(read("README.md"), "The strategies"),
                      "README's strategy table is not scripts/registry.py DRIVER strategies --markdown")


class Links(unittest.TestCase):
    def test_every_relative_link_resolves(self):
        bad = []
        for doc in DOCS:
            text = read(doc)
            for target in LINK.findall(text):
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), path)) if path \
                    else os.path.join(ROOT, doc)
                if not os.path.exists(full):
                    bad.append(f"{doc}: {target}: no such file")
                elif anchor and full.endswith(".md"):
                    with open(full, encoding="utf-8") as f:
                        if anchor not in slugs(f.read()):
                            bad.append(f"{doc}: {target}: no such heading")
        self.assertEqual(bad, [])


def project_commits():
    try:
        out = subprocess.run(["git", "-C", ROOT, "log", "--format=%H"], capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    return out or None


class History(unittest.TestCase):
    def test_no_doc_or_source_names_a_commit_of_this_repository(self):
        commits = project_commits()
        if commits is None:
            self.skipTest("not a git checkout: no commits to look for")
        files = list(DOCS) + SOURCE_FILES
        for d in SOURCE_DIRS:
            for base, dirs, names in os.walk(os.path.join(ROOT, d)):
                dirs[:] = [x for x in dirs if x not in ("fixtures", "__pycache__", "regressions")]
                files += [os.path.relpath(os.path.join(base, n), ROOT) for n in names]
        found = []
        for rel in files:
            try:
                text = read(rel)
            except (UnicodeDecodeError, FileNotFoundError):
                continue
            for tok in set(HEX.findall(text)):
                if any(c.startswith(tok) for c in commits):
                    found.append(f"{rel}: {tok}")
        self.assertEqual(found, [], "history lives in git, not in the docs or the code")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print(f"readme tests: {result.testsRun - failed} passed, {failed} failed", file=sys.stderr)
    sys.exit(failed)
