#!/usr/bin/env python3
"""cachesim.py - deterministic cache misses per lookup, under valgrind.

    cachesim.py --driver BIN --out DIR [--geometry host|zen4|neoverse-n1|neoverse-v2]
                [--lookups N] [--scenarios all|tiny|NAME,...] [--strategies a,b]

Runs opsbench-run once per (named scenario, strategy) under callgrind's
cache simulator with an explicit geometry, counting only the timed lookups
(collection toggled on in ob_measured_lookups(), off in ob_pollute(), whose
accesses still go through the simulated caches), with ASLR off so that
every count repeats.  The scenarios are the driver's (`opsbench-run --list
--json`), sized by the simulated caches: the suite's own definitions.
What is counted and why: docs/method.md#counters.  An arm64 driver on an
x86-64 host runs under Debian's valgrind:arm64 in qemu-aarch64
(lib/valgrind.py); its rows join the folder's others in cachesim.csv
(lib/simrows.py).

Writes DIR/cachesim.csv and DIR/cachesim.md (temporary names, then renamed).
"""
import argparse
import csv
import io
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import hostcaches, plumbing, provenance, registry, runfolder, simrows, valgrind  # noqa: E402
from lib.plumbing import write_atomic, finish_run  # noqa: E402

# Named geometries: (size, associativity, line) for I1, D1 and LL.  The LL of
# valgrind's model is the last level; for Neoverse N1 that is taken as the
# core's private 1 MiB L2, since its system-level cache depends on the SoC.
# Neoverse V2 (Arm's Neoverse V2 Core Technical Reference Manual, document
# 102375: 64 KiB 4-way L1I and L1D, a private 8-way L2 of 1 or 2 MiB): the
# 1 MiB L2 of NVIDIA Grace, its first implementation (Hot Chips 2023).
GEOMETRIES = {
    "zen4": {"I1": (32768, 8, 64), "D1": (32768, 8, 64), "LL": (33554432, 16, 64)},
    "neoverse-n1": {"I1": (65536, 4, 64), "D1": (65536, 4, 64), "LL": (1048576, 8, 64)},
    "neoverse-v2": {"I1": (65536, 4, 64), "D1": (65536, 4, 64), "LL": (1048576, 8, 64)},
}
# The L2 each geometry sizes "L2" scenarios by (valgrind simulates no L2).
GEOMETRY_L2 = {"zen4": 1048576, "neoverse-n1": 1048576, "neoverse-v2": 1048576}
# The lookup orders of opsbench-run --order (--orders simulates more than a scenario's own).
ORDERS = ("sorted", "uniform", "zipf")

class CachesimError(Exception):
    """code 2: bad input (folder, strategy, missing tool); 1: a run that failed."""

    def __init__(self, msg, code=2):
        super().__init__(msg)
        self.code = code


# The machine's caches: sysfs', or where it lists none the driver's CPUID
# reading (hostcaches.machine_caches(); main() reads them once).
CACHES = []


def sysfs_cache(level, kind):
    """(bytes, ways, line) of the first CPU's level-@level cache of a type in @kind, or None
    (sysfs; where it lists none, the driver's CPUID reading: hostcaches.machine_caches())."""
    for c in CACHES:
        if c["level"] == level and c["type"] in kind:
            if not (c["size_bytes"] and c["ways"] and c["line_bytes"]):
                return None
            return c["size_bytes"], c["ways"], c["line_bytes"]
    return None


def valgrind_shape(size, ways, line):
    """Round a cache down to what valgrind accepts: a power-of-two set count."""
    ways = max(1, ways)
    sets = max(1, size // (ways * line))
    p2 = 1 << (sets.bit_length() - 1)
    return p2 * ways * line, ways, line


def host_geometry():
    d1 = sysfs_cache(1, ("Data", "Unified"))
    i1 = sysfs_cache(1, ("Instruction", "Unified"))
    ll = None
    for level in (4, 3, 2):
        ll = sysfs_cache(level, ("Unified", "Data"))
        if ll:
            break
    if not (d1 and ll):
        raise CachesimError("neither sysfs nor CPUID gives the cache geometry here: "
                            "use --geometry zen4 or neoverse-n1")
    return {"I1": valgrind_shape(*(i1 or d1)), "D1": valgrind_shape(*d1), "LL": valgrind_shape(*ll)}


def run_geometry(folder):
    """The geometry and the L2 of the machine that ran the bench of @folder,
    as its driver read them (registry.json's caches): the counts of another
    build then pair with the folder's timings and with the rows already
    simulated there, wherever this runs.  A level without its ways is left
    out as host_geometry() leaves it (the LL falls back to the L2)."""
    path = os.path.join(folder, "registry.json")
    try:
        c = plumbing.read_json_file(path).get("caches") or {}
    except FileNotFoundError:
        raise CachesimError(f"--geometry run: {path}: missing (make bench writes it)") from None
    except (plumbing.ReadError, AttributeError) as e:
        raise CachesimError(f"--geometry run: {path}: {e}") from None

    def level(size, ways):
        n, w, line = c.get(size), c.get(ways), c.get("line")
        return valgrind_shape(n, w, line) if n and w and line else None
    d1 = level("l1d", "l1d_ways")
    i1 = level("l1i", "l1i_ways") or d1
    ll = level("llc", "llc_ways") or level("l2", "l2_ways")
    if not (d1 and ll and c.get("l2")):
        raise CachesimError(f"--geometry run: {path}: its caches lack sizes or ways: use --geometry host")
    return {"I1": i1, "D1": d1, "LL": ll}, c["l2"]


def parse_callgrind(path):
    events, totals = None, None
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:") or (totals is None and line.startswith("summary:")):
                totals = [int(x) for x in line.split()[1:]]
    if not events or not totals:
        raise CachesimError(f"{path}: no events/totals line: not a callgrind profile")
    return dict(zip(events, totals + [0] * (len(events) - len(totals))))


# Which loads are on a lookup's dependent chain (docs/method.md#the-cost-model).
# The chain runs from the path through its hash to the bucket, the chain's
# entries, the name compare and the op a compare calls; the out-of-order core
# waits for its misses.  The loads that find and test an op (the source lines
# of the walk that spell OP_PRESENT or OP_CALL: d_op, the ops table, the
# superblock, the flags) feed only predicted branches and predicted call
# targets, and the d_seq reads only a predicted check: their misses overlap
# with the chain.  Lines are matched in the source the driver's debug
# information names.
OFF_CHAIN = ("OP_PRESENT", "OP_CALL", "d_seq")


def chain_split(misses_by_line):
    """(misses on the chain, misses beside it) of valgrind.read_misses_by_line()."""
    on = off = 0
    texts = {}
    for (path, line), n in misses_by_line.items():
        if path not in texts:
            try:
                texts[path] = plumbing.read_text_file(path).splitlines()
            except (OSError, plumbing.ReadError):
                texts[path] = []
        src = texts[path][line - 1] if 0 < line <= len(texts[path]) else ""
        if any(w in src for w in OFF_CHAIN):
            off += n
        else:
            on += n
    return on, off


def run_one(vg, driver, geometry, flags, lookups, workdir):
    out_file = os.path.join(workdir, "callgrind.out")
    # An empty environment: its size moves the stack, and with it which cache
    # sets the stack's lines fall in; the caller's environment must not.
    # (vg.env is valgrind's own, for the emulated one.)  Every instruction's
    # own costs (--dump-instr) for counting the calls among them.
    cmd = ["env", "-i"] + [f"{k}={v}" for k, v in vg.env.items()] + [
           shutil.which("setarch"), platform.machine(), "-R"] + vg.prefix + ["--cache-sim=yes",
           "--branch-sim=yes", "--collect-atstart=no", "--toggle-collect=ob_measured_lookups",
           "--toggle-collect=ob_pollute", "--dump-instr=yes", "--compress-strings=no",
           "--compress-pos=no", f"--callgrind-out-file={out_file}"]
    for level in ("I1", "D1", "LL"):
        cmd.append(f"--{level}=" + ",".join(str(x) for x in geometry[level]))
    cmd += [vg.program(driver), "--no-pmu", "--lookups", str(lookups)] + flags
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode:
        raise CachesimError("valgrind failed (%d): %s\n%s" % (res.returncode, " ".join(cmd),
                                                            res.stderr.strip()[-2000:]), code=1)
    counts = parse_callgrind(out_file)
    try:
        counts.update(valgrind.control_counts(out_file, vg.arch))
        counts["D1mr_chain"], counts["D1mr_off_chain"] = chain_split(valgrind.read_misses_by_line(out_file))
    except valgrind.ValgrindError as e:
        raise CachesimError(str(e)) from None
    os.unlink(out_file)
    return counts


def arm64_wrapper(driver, folder):
    """A script in @folder that runs @driver under qemu-aarch64 (no
    binfmt_misc here), for what asks the driver itself: its registry."""
    path = os.path.join(folder, "opsbench-run")
    with open(path, "w") as f:
        f.write('#!/bin/sh\nexec qemu-aarch64 "$OB_DRIVER" "$@"\n')
    os.chmod(path, 0o755)
    os.environ["OB_DRIVER"] = os.path.abspath(driver)
    return path


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", required=True)
    ap.add_argument("--out", help="results folder to write into (required but with --check)")
    ap.add_argument("--geometry", default="host",
                    help="host (sysfs, else CPUID through the driver), run (the caches the bench of "
                    "--out ran on, from its registry.json), " + ", ".join(sorted(GEOMETRIES)))
    ap.add_argument("--check", action="store_true",
                    help="check every input (geometry, tools, driver, strategies) and exit: writes nothing")
    ap.add_argument("--lookups", type=int, default=20000, help="lookups per run, at least 1")
    ap.add_argument("--scenarios", default="all",
                    help="all (every named scenario but the tiny one), tiny, or names, comma-separated")
    ap.add_argument("--strategies", default=None, help="comma-separated; default: all")
    ap.add_argument("--orders", default="",
                    help="lookup orders to simulate besides each scenario's own (sorted, uniform, zipf), "
                    "comma-separated: rows named <scenario>+<order> (the cost model pairs them with the "
                    "bench's lookups in that order)")
    ap.add_argument("--keep-open", action="store_true",
                    help="leave a new folder marked incomplete: another build's cachesim follows")
    return ap.parse_args()


def check_args(args):
    """The arguments that need no tool: CachesimError for a bad one; the orders asked for."""
    if not args.out and not args.check:
        raise CachesimError("--out DIR is required")
    if args.lookups < 1:
        raise CachesimError(f"--lookups {args.lookups}: must be at least 1")
    if args.geometry not in ["host", "run"] + sorted(GEOMETRIES):
        raise CachesimError(f"GEOMETRY={args.geometry} (--geometry): expected host, run, "
                            + ", ".join(sorted(GEOMETRIES)))
    if args.geometry == "run" and not args.out and not args.check:
        raise CachesimError("--geometry run needs --out (the run whose machine it takes)")
    orders = list(dict.fromkeys(o.strip() for o in args.orders.split(",") if o.strip()))
    if any(o not in ORDERS for o in orders):
        raise CachesimError(f"ORDERS={args.orders} (--orders): expected some of {', '.join(ORDERS)}, "
                            "comma-separated")
    if args.check:
        return orders
    if not os.path.isdir(args.out):
        raise CachesimError(f"--out {args.out}: no such folder")
    if not os.access(args.out, os.W_OK):
        raise CachesimError(f"--out {args.out}: not writable")
    try:    # a complete run, or the folder scripts/results-dir.sh made for this tool
        runfolder.check_run(args.out, writes=True, tool_folder=True)
    except runfolder.InputError as e:
        raise CachesimError(f"--out {e}") from None
    return orders


def tools(args, arch):
    """The valgrind that runs the driver, after checking setarch and the driver's linking."""
    if not shutil.which("setarch"):
        raise CachesimError("setarch not found: `make cachesim` installs util-linux with apt-get; "
                            "install it by hand if that failed")
    try:
        vg = valgrind.Valgrind(arch)
    except valgrind.ValgrindError as e:
        raise CachesimError(str(e)) from None
    if vg.emulated and not valgrind.elf_static(args.driver):
        raise CachesimError(f"--driver {args.driver}: emulated runs need a static driver "
                            "(valgrind:arm64 under qemu stops on a dynamic one): opsbench-run-static")
    return vg


def cache_geometry(args):
    """(the simulated geometry, the L2 size the scenarios are sized by)."""
    if args.geometry == "run" and args.check and not args.out:
        return GEOMETRIES["zen4"], GEOMETRY_L2["zen4"]      # checked for real with --out
    if args.geometry == "run":
        return run_geometry(args.out)
    if args.geometry == "host":
        geometry = host_geometry()
        return geometry, (sysfs_cache(2, ("Unified", "Data")) or geometry["LL"])[0]
    return GEOMETRIES[args.geometry], GEOMETRY_L2[args.geometry]


def selection(args, reg):
    """(the strategies asked for, an empty set for all; the scenarios to simulate)."""
    wanted = {s.strip() for s in (args.strategies or "").split(",") if s.strip()}
    if args.strategies is not None and not wanted:
        raise CachesimError(f"--strategies {args.strategies!r}: no strategy named; "
                            "give names (see opsbench-run --list), or leave it out for all")
    unknown = wanted - {s["name"] for s in reg["strategies"]}
    if unknown:
        raise CachesimError(f"--strategies: no such strategy: {', '.join(sorted(unknown))}")
    if args.scenarios in ("all", "tiny"):
        return wanted, [sc for sc in reg["scenarios"] if (sc["size_class"] == "tiny") == (args.scenarios == "tiny")]
    try:
        # each scenario once, however often it is named
        return wanted, [registry.scenario(reg, n) for n in dict.fromkeys(args.scenarios.split(","))]
    except registry.RegistryError as e:
        raise CachesimError(f"--scenarios: {e}") from None


def row(name, strat, sc, n, c):
    """One row of cachesim.csv: @c, callgrind's counts of @n lookups, per lookup."""
    return {
        "scenario": name,
        "strategy": strat,
        "lookups": n,
        "dentries": sc["dentries"],
        "pollute_bytes": sc["pollute_bytes"],
        "instructions_per_lookup": c.get("Ir", 0) / n,
        "data_reads_per_lookup": c.get("Dr", 0) / n,
        "D1_misses_per_lookup": (c.get("D1mr", 0) + c.get("D1mw", 0)) / n,
        "D1_read_misses_per_lookup": c.get("D1mr", 0) / n,
        # of those, on the lookup's dependent chain and beside it (chain_split())
        "D1_read_misses_chain_per_lookup": c.get("D1mr_chain", 0) / n,
        "D1_read_misses_off_chain_per_lookup": c.get("D1mr_off_chain", 0) / n,
        "LL_misses_per_lookup": (c.get("DLmr", 0) + c.get("DLmw", 0)) / n,
        "I1_misses_per_lookup": c.get("I1mr", 0) / n,
        # callgrind's branch simulation (its own predictor, not the CPU's)
        "cond_branches_per_lookup": c.get("Bc", 0) / n,
        "cond_mispredicts_per_lookup": c.get("Bcm", 0) / n,
        "indirect_branches_per_lookup": c.get("Bi", 0) / n,
        "indirect_mispredicts_per_lookup": c.get("Bim", 0) / n,
        # call instructions executed (call; bl, blr, blraa...)
        "calls_per_lookup": c.get("calls", 0) / n,
        # the control transfers the cost model prices (lib/valgrind.py
        # control_sites()): returns executed, indirect calls left as
        # indirect calls, and the indirect calls and jumps a retpoline
        # build makes through its thunks
        "returns_per_lookup": c.get("ret", 0) / n,
        "indirect_calls_per_lookup": c.get("icall", 0) / n,
        "thunk_calls_per_lookup": (c.get("thunk_call", 0) + c.get("thunk_jmp", 0)) / n,
    }


def simulate(args, vg, geometry, caches, runs):
    """The rows of @runs ((scenario, strategy, order or None)), with progress and the time left."""
    rows = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        for k, (sc, strat, order) in enumerate(runs, 1):
            name = sc["name"] + (f"+{order}" if order else "")
            spent = time.monotonic() - started
            left = f" (about {spent / (k - 1) * (len(runs) - k + 1):.0f} s left)" if k > 1 else ""
            print(f"cachesim: [{k}/{len(runs)}] {name} {strat}{left}", file=sys.stderr)
            c = run_one(vg, args.driver, geometry, ["--scenario", sc["name"], "--caches", caches,
                                                "--strategy", strat] +
                        (["--order", order] if order else []), args.lookups, work)
            rows.append(row(name, strat, sc, args.lookups, c))
    return rows


def write_csv(args, rows, geometry, reg, arch):
    """cachesim.csv in --out: these rows, and the folder's rows of other builds (lib/simrows.py)."""
    geo = "; ".join(f"{lvl} {s} B, {w}-way, {l} B lines" for lvl, (s, w, l) in geometry.items())
    commit = reg.get("commit", "unknown")
    variant = reg.get("variant") or "plain"
    new = [{**{k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.items()},
            "geometry": f"{args.geometry}: {geo}", "build": f"{commit} ({arch} {variant})",
            "arch": arch, "variant": variant} for r in rows]
    csv_path = os.path.join(args.out, "cachesim.csv")
    try:
        old = list(csv.DictReader(io.StringIO(plumbing.read_text_file(csv_path), newline="")))
    except FileNotFoundError:
        old = []
    except (plumbing.ReadError, csv.Error) as e:
        plumbing.die(f"cachesim: {csv_path}: unreadable ({e}); cannot keep its other rows")
    try:
        folder_arch = valgrind.norm_arch(plumbing.read_json_file(os.path.join(args.out, "meta.json"))
                                         .get("arch") or valgrind.HOST_ARCH)
    except (OSError, plumbing.ReadError, AttributeError):
        folder_arch = valgrind.HOST_ARCH
    merged = simrows.merge(old, new, folder_arch)
    fields = list(dict.fromkeys(k for r in new + merged for k in r if k is not None))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, restval="", extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(merged)
    write_atomic(csv_path, buf.getvalue(), args.out)
    return geo


def markdown(args, vg, rows, scenarios, geo, reg, arch):
    """cachesim.md (the host's plain build) or cachesim-<arch>-<variant>.md: (its name, its text)."""
    commit = reg.get("commit", "unknown")
    variant = reg.get("variant") or "plain"
    md_name = "cachesim.md" if (arch, variant) == (valgrind.HOST_ARCH, "plain") else f"cachesim-{arch}-{variant}.md"
    md = [f"## Simulated cache behaviour (callgrind, {arch} {variant})\n",
          f"{vg.said[len('cachesim: '):]}. Made by the driver built at commit `{commit}`. "
          f"Geometry `{args.geometry}`: {geo}. {args.lookups} lookups per run; only the lookups are "
          f"counted (the pollution's own accesses are simulated but not counted). Exact and "
          f"repeatable: the same binary gives the same numbers on every run. With pollution the "
          f"misses include the walk's own stack lines (register spills), which the pollution evicts "
          f"too: a strategy whose compiled code spills more, or whose spills straddle a line, pays "
          f"for it here. The driver times on a stack at a fixed address and builds every tree at "
          f"one fixed address, so these counts do not depend on the checkout path, the "
          f"environment or argv (tests/test_cachesim_placement.sh checks it).\n"]
    for sc in scenarios:
        sel = [r for r in rows if r["scenario"] == sc["name"]]
        if not sel:
            continue
        md.append(f"### {sc['name']}: {sc['summary']} ({sc['dentries']} dentries, "
                  f"{sc['pollute_bytes']} bytes polluted per lookup)\n")
        md.append("| strategy | instructions/lookup | D1 misses/lookup | D1 read misses/lookup | LL misses/lookup | "
                  "data reads/lookup | indirect branches/lookup | mispredicts/lookup (simulated) | calls/lookup |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for r in sel:
            md.append(f"| {r['strategy']} | {r['instructions_per_lookup']:.1f} | {r['D1_misses_per_lookup']:.3f} | "
                      f"{r['D1_read_misses_per_lookup']:.3f} | {r['LL_misses_per_lookup']:.3f} | "
                      f"{r['data_reads_per_lookup']:.1f} | {r['indirect_branches_per_lookup']:.2f} | "
                      f"{r['cond_mispredicts_per_lookup'] + r['indirect_mispredicts_per_lookup']:.3f} | "
                      f"{r['calls_per_lookup']:.2f} |")
        md.append("")
    return md_name, "\n".join(md) + "\n"


def main():
    args = parse_args()
    global CACHES
    try:
        arch = valgrind.elf_arch(args.driver) if os.path.isfile(args.driver) else valgrind.HOST_ARCH
    except valgrind.ValgrindError as e:
        plumbing.die(f"cachesim: --driver {e}")
    wrap_dir = tempfile.TemporaryDirectory()
    run = arm64_wrapper(args.driver, wrap_dir.name) if arch != valgrind.HOST_ARCH else args.driver
    CACHES = hostcaches.machine_caches(run if os.access(args.driver, os.X_OK) else None)
    try:
        orders = check_args(args)
        vg = tools(args, arch)
        geometry, l2 = cache_geometry(args)
        caches = f"{geometry['D1'][0]},{l2},{geometry['LL'][0]}"
        try:
            reg = registry.load(run, caches)
        except registry.RegistryError as e:
            raise CachesimError(str(e)) from None
        wanted, scenarios = selection(args, reg)
        if args.check:
            return
        print(vg.said, file=sys.stderr)
        runs = [(sc, s["name"], None) for sc in scenarios for s in registry.runnable(reg, sc)
                if not wanted or s["name"] in wanted]
        runs += [(sc, strat, o) for o in orders for sc, strat, _ in list(runs) if sc["order"] != o]
        rows = simulate(args, vg, geometry, caches, runs)
    except CachesimError as e:
        print(f"cachesim: {e}", file=sys.stderr)
        sys.exit(e.code)
    geo = write_csv(args, rows, geometry, reg, arch)
    md_name, md = markdown(args, vg, rows, scenarios, geo, reg, arch)
    write_atomic(os.path.join(args.out, md_name), md, args.out)
    print(md, end="")
    provenance.record(args.out, ["cachesim.csv", md_name], reg.get("commit", "unknown"),
                      reg.get("variant", "plain"), "make cachesim")
    if not args.keep_open:
        finish_run(args.out)


if __name__ == "__main__":
    plumbing.run_main(main)
