#!/usr/bin/env python3
"""compare_runs.py - compare two results folders (two machines, two compilers...).

    compare_runs.py [--out FILE] [--] A B

Writes a Markdown comparison (default: B/compare-vs-<name of A>.md): the two
machines and builds side by side, then per benchmark present in both the
median of each, the ratio B/A, whether the 95% CIs of the medians overlap,
and the p-value of Google Benchmark's compare.py (two-sided Mann-Whitney U
test over the repetitions) where that tool is installed (a packed
benchmarks.json.gz is decompressed for it to a temporary file).  Lookup
benchmarks are grouped by scenario.  Both folders must be complete runs
(lib/runfolder.py), and B, written into, not a committed one.  Exit status
2 for a missing or malformed folder.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, plumbing, stats  # noqa: E402
from lib.markdown import fmt, table  # noqa: E402
from lib.runfolder import InputError, check_out, load_run  # noqa: E402

COMPARE_PY = "/usr/share/benchmark/compare.py"


def readable(folder, tmp, name):
    """@folder's samples as a file compare.py can read, under a plain name
    in @tmp (removed with it): compare.py prints the paths it is given, and
    a folder name that is not UTF-8 stops it under a UTF-8 locale.  A link
    to benchmarks.json, or benchmarks.json.gz decompressed."""
    path = benchmarks.benchmarks_file(folder)
    out = os.path.join(tmp, name)
    if not path.endswith(".gz"):
        os.symlink(os.path.abspath(path), out)
        return out
    data = plumbing.read_gzip(path)
    with open(out, "wb") as dst:
        dst.write(data)
    return out


def utest(a, b):
    """{name: p-value} from Google Benchmark's compare.py, or None if it is not installed."""
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    if not os.path.exists(COMPARE_PY):
        return None, f"Google Benchmark's compare.py is not installed ({COMPARE_PY}; Debian: libbenchmark-tools): no U test"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cmp.json")
        res = subprocess.run([py, COMPARE_PY, "-a", "--no-color", "-d", out, "benchmarks",
                              readable(a, tmp, "a.json"), readable(b, tmp, "b.json")],
                             capture_output=True, encoding="utf-8", errors="backslashreplace")
        if res.returncode or not os.path.exists(out):
            tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
            return None, f"compare.py failed ({tail}): no U test"
        with open(out) as f:
            rows = json.load(f)
    p = {}
    for r in rows:
        u = r.get("utest") or {}
        if "time_pvalue" in u:
            p[r["name"]] = (u["time_pvalue"], u.get("have_optimal_repetitions", False))
    return p, "p: two-sided Mann-Whitney U test of Google Benchmark's compare.py on the repetitions' real time"


def describe(meta):
    cc = (meta.get("cc") or {}).get("version")
    return [meta.get("host"), meta.get("arch"), meta.get("cpu_model"), meta.get("kernel"), cc,
            ((meta.get("git") or {}).get("commit") or "")[:12], meta.get("profile"), meta.get("date")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--out")
    args = ap.parse_args()
    if os.path.isdir(args.a) and os.path.isdir(args.b) and os.path.samefile(args.a, args.b):
        plumbing.die(f"compare: A={args.a} and B={args.b} are the same folder: give two different runs")
    try:
        # A is only read; B receives the comparison unless --out names a file.
        if args.out is not None:
            check_out(args.out, (args.a, args.b))
        A, B = load_run(args.a, writes=False), load_run(args.b, writes=args.out is None)
    except InputError as e:
        plumbing.die(f"compare: {e}")
    p, how = utest(args.a, args.b)
    out_path = args.out
    if out_path is None:
        out_path = os.path.join(args.b, f"compare-vs-{os.path.basename(os.path.normpath(args.a))}.md")

    lines = [f"# opsbench comparison: B = `{args.b}` against A = `{args.a}`\n",
             table(["", "A", "B"], [[k, *v] for k, v in zip(
                 ["host", "arch", "CPU", "kernel", "C compiler", "commit", "profile", "date"],
                 zip(describe(A["meta"]), describe(B["meta"])))]) + "\n",
             "Ratio B/A of the medians; `~` marks overlapping 95% CIs (no measurable difference). "
             f"{how}.\n"]
    common = [n for n in A["results"] if n in B["results"]]
    if not common:
        plumbing.die(f"compare: {args.a} and {args.b} have no benchmark in common "
                     "(other groups, builds or FILTERs): nothing to compare")
    groups = {}
    for n in common:
        words, _ = benchmarks.parse_name(n)
        key = "/".join(n.split("/")[2:]) if words[0] == "lookup" else words[0]
        groups.setdefault(key, []).append(n)
    for key in sorted(groups):
        rows = []
        for n in sorted(groups[key]):
            sa, sb = stats.summarize(A["results"][n]["samples"]), stats.summarize(B["results"][n]["samples"])
            ratio = sb["median"] / sa["median"] if sa["median"] else float("nan")
            row = [n.split("/")[1] if n.startswith("lookup/") else n, fmt(sa["median"]),
                   fmt(sb["median"]), f"{ratio:.3f}{'' if stats.differs(sa, sb) else ' ~'}"]
            if p is not None:
                pv = p.get(n)
                row.append(f"{pv[0]:.4f}{'' if pv[1] else ' (few repetitions)'}" if pv else "n/a")
            rows.append(row)
        header = ["benchmark", "A median ns", "B median ns", "B/A"] + (["p"] if p is not None else [])
        title = f"lookup {key.replace('/', ', ').replace(':', ' ')}" if "/" in key or key.startswith("size") else key
        lines.append(f"## {title}\n\n" + table(header, rows) + "\n")
    only_a = sorted(set(A["results"]) - set(B["results"]))
    only_b = sorted(set(B["results"]) - set(A["results"]))
    if only_a or only_b:
        lines.append(f"Benchmarks in only one run: {len(only_a)} in A, {len(only_b)} in B (not compared).\n")
    plumbing.write_atomic(out_path, "\n".join(lines), None if args.out is not None else args.b)
    print(f"compare: wrote {out_path} ({len(common)} benchmarks in both; {how})")


if __name__ == "__main__":
    plumbing.run_main(main)
