"""provenance.py - which build made each file of a results folder, as
provenance.json records it (docs/results.md): for each file the commit (with
"-dirty" when the tree had changes), the variant, the tool and the time.
scripts/provenance.py records; the report compares them (builds()).
"""
import datetime
import os
import subprocess

from .benchmarks import BENCHMARKS_JSON, PACKED
from .plumbing import ReadError, read_json_file, write_json

# The repository: tree_commit() describes its working tree.
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

FILE = "provenance.json"


def recorded_name(name):
    """The name @name is recorded under: benchmarks.json for benchmarks.json.gz
    too, which is the same bytes compressed (scripts/pack_run.py)."""
    return BENCHMARKS_JSON if name == PACKED else name


def present(folder, name):
    """Whether @folder holds the file recorded as @name (benchmarks.json:
    either form)."""
    return any(os.path.exists(os.path.join(folder, n)) for n in
               ((name, PACKED) if name == BENCHMARKS_JSON else (name,)))


def tree_commit():
    """git describe of the working tree, as the Makefile's OB_COMMIT."""
    res = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                         capture_output=True, text=True, cwd=ROOT)
    return res.stdout.strip() or "unknown"


def load(folder):
    """{file: {commit, variant, tool, date}} of @folder ({} when it records none)."""
    path = os.path.join(folder, FILE)
    try:
        data = read_json_file(path)
    except FileNotFoundError:
        return {}
    except ReadError as e:
        raise ValueError(str(e)) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("commit"), str) for v in files.values()):
        raise ValueError(f"{path}: expected {{\"files\": {{name: {{\"commit\": ...}}}}}}")
    return files


def record(folder, files, commit, variant, tool):
    """Add @files (names in @folder) as made by @tool from @commit/@variant.
    Two tools finishing together (make perf and make cachesim on one run)
    each read, update and write the file: an exclusive lock on @folder
    itself (flock on the directory: nothing is left behind) makes the three
    steps one, so that neither loses the other's entry nor both write one
    part file at once."""
    import fcntl
    lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        entries = load(folder)
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        for name in files:
            entries[recorded_name(name)] = {"commit": commit, "variant": variant, "tool": tool, "date": now}
        write_json(os.path.join(folder, FILE), {"files": dict(sorted(entries.items()))}, folder)
    finally:
        os.close(lock)


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
