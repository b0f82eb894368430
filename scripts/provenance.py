#!/usr/bin/env python3
"""provenance.py - which build made each file of a results folder.

    provenance.py DIR (--driver BIN | --tree) --tool NAME FILE...

records, in DIR/provenance.json, for each FILE: the commit (with "-dirty"
when the tree had changes) and the variant of the build that made it, the
tool and the time.  --driver takes them from the binary itself
(`opsbench-run --list --json`: what it was built from, not what is checked
out now); --tree from the working tree (for what is made from the sources
now, as make report's disassembly).  The report compares them (builds()).
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import obstats  # noqa: E402
import registry  # noqa: E402

FILE = "provenance.json"


def tree_commit():
    """git describe of the working tree, as the Makefile's OB_COMMIT."""
    res = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                         capture_output=True, text=True,
                         cwd=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    return res.stdout.strip() or "unknown"


def load(folder):
    """{file: {commit, variant, tool, date}} of @folder ({} when it records none)."""
    path = os.path.join(folder, FILE)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("commit"), str) for v in files.values()):
        raise ValueError(f"{path}: expected {{\"files\": {{name: {{\"commit\": ...}}}}}}")
    return files


def record(folder, files, commit, variant, tool):
    """Add @files (names in @folder) as made by @tool from @commit/@variant."""
    entries = load(folder)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    for name in files:
        entries[name] = {"commit": commit, "variant": variant, "tool": tool, "date": now}
    obstats.write_json(os.path.join(folder, FILE), {"files": dict(sorted(entries.items()))})


def builds(folder, meta=None):
    """{commit: [files]} of the data files of @folder (the report's own outputs and
    its disassembly, made from the tree now, left out), with meta.json's commit."""
    out = {}
    for name, e in load(folder).items():
        if e.get("tool") == "make report":
            continue
        out.setdefault(e["commit"], []).append(name)
    git = (meta or {}).get("git") or {}
    if isinstance(git.get("commit"), str) and git["commit"] not in ("", "unknown"):
        c = git["commit"][:12] + ("-dirty" if git.get("dirty") else "")
        if not any(k.split("-")[0] == c.split("-")[0] and k.endswith("-dirty") == c.endswith("-dirty")
                   for k in out):
            out.setdefault(c, []).append("meta.json (the tree when the run started)")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--driver")
    src.add_argument("--tree", action="store_true")
    ap.add_argument("--tool", required=True)
    ap.add_argument("--variant", help="with --tree: the variant (default plain)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.driver:
        try:
            reg = registry.load(args.driver)
        except registry.RegistryError as e:
            sys.exit(f"provenance: {e}")
        commit, variant = reg.get("commit", "unknown"), args.variant or reg.get("variant", "plain")
    else:
        commit, variant = tree_commit(), args.variant or "plain"
    missing = [f for f in args.files if not os.path.exists(os.path.join(args.dir, f))]
    if missing:
        sys.exit(f"provenance: {args.dir}: no {', '.join(missing)}")
    record(args.dir, args.files, commit, variant, args.tool)


if __name__ == "__main__":
    obstats.run_main(main)
