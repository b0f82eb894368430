"""kcounts.py - the component context's path component function by
function, as callgrind counts it, beside the kernel's own counts
(src/model/kernel-counts.csv; docs/model.md#function-by-function).

One intermediate component is isolated by differencing four runs of the
driver: depth 4 against depth 1, and 2N lookups against N, so that
everything but the walk's work per component cancels (the tree, the
warm-up, the harness, the last component).  Per function it counts what
the kernel's table counts, from callgrind's per-instruction costs and the
driver's disassembly:

  instructions  executed instructions (Ir)
  calls         executed call instructions; indirect: through a register
                or a retpoline thunk
  returns       executed ret, or jumps to the return thunk
  loads         data reads not relative to %rsp (callgrind's Dr)
  stack reads   data reads relative to %rsp: pops and the return's (the
                kernel's table counts its thunk's)
  stores        data writes (Dw), pushes included, calls' return addresses not
  nops          executed NOPs: ftrace's entry NOP, endbr64, static-key slots

A function of the model is named <strategy>_k612_<f>, <strategy>_k61_<f>
or <strategy>_<f> (shared by both generations); link_path_walk's loop is
inlined into <strategy>_<gen>_run_throughput, as the kernel's
link_path_walk is one function around its loop.
"""
import csv
import os
import re
import subprocess
import tempfile

from . import valgrind

ROOT = valgrind.ROOT
TABLE = os.path.join(ROOT, "src", "model", "kernel-counts.csv")
COLUMNS = ("instructions", "calls", "indirect", "returns", "loads", "stack_reads", "stores", "nops")
GENERATIONS = {"6.12": "k612", "6.1": "k61"}
# The driver's options: the kernel table's case (a cached directory, a 5-7
# byte name, every lookup found), a list of PATHS names walked whole
# LOOKUPS/PATHS times.
PATHS = 1000
LOOKUPS = 2000
DEPTHS = (1, 4)


# The strategy that finds the optional ops as Linux 6.x does (DCACHE_OP_*
# flags, the compare test hoisted out of the chain walk, IOP_FASTPERM): the
# kernel's own code, held to the kernel's counts in every function.
KERNEL_STRATEGY = "flag_hoisted"
# `direct` has no dispatch at all: the kernel's code less those flag tests,
# which sit in these functions (a test and a branch, one load each).
SEAM_FUNCTIONS = ("link_path_walk", "lookup_fast", "__d_lookup_rcu")
# How close the model holds: relative, per function and in total
# (None: exactly).  Stores and NOPs are shown, not held.
TOLERANCE = {"instructions": 0.05, "calls": None, "indirect": None, "returns": None,
             "loads": 0.10, "stack_reads": 0.10}


class KcountError(Exception):
    pass


def check(model, kernel, strategy):
    """[(ok, text)] for each function of @kernel's table and the total, each
    held column; @model from component().  A function the model runs that
    the kernel does not is a failure; `direct`'s seam functions are held
    only in their calls and returns."""
    out = []
    rows = dict(kernel)
    rows["total"] = {c: sum(k[c] for k in kernel.values()) for c in COLUMNS}
    mtotal = {c: sum(m[c] for m in model.values()) for c in COLUMNS}
    for name in sorted(set(model) - set(kernel)):
        out.append((False, f"{name}: the model runs it ({model[name]['instructions']:.1f} instructions), "
                           "the kernel does not"))
    for name, k in rows.items():
        m = mtotal if name == "total" else model.get(name, dict.fromkeys(COLUMNS, 0.0))
        seam = strategy != KERNEL_STRATEGY and (name in SEAM_FUNCTIONS or name == "total")
        for col, tol in TOLERANCE.items():
            if seam and tol is not None:
                continue
            limit = 0.01 if tol is None else max(tol * k[col], 0.01)
            ok = abs(m[col] - k[col]) <= limit
            bound = "exactly" if tol is None else f"within {tol:.0%}"
            out.append((ok, f"{name} {col}: {m[col]:.1f} against the kernel's {k[col]} ({bound})"))
    return out


def kernel_table(path=TABLE):
    """{generation: {function: {column: int}}} of the kernel's counts."""
    out = {}
    try:
        with open(path) as f:
            rows = [line for line in f if line.strip() and not line.startswith("#")]
    except OSError as e:
        raise KcountError(f"{path}: {e.strerror}") from None
    for row in csv.DictReader(rows):
        try:
            out.setdefault(row["kernel"], {})[row["function"]] = {c: int(row[c]) for c in COLUMNS}
        except (KeyError, ValueError, TypeError) as e:
            raise KcountError(f"{path}: bad row {row}: {e}") from None
    return out


_MEM = re.compile(r"\(([^)]*)\)")


def instructions(path):
    """{address: (mnemonic, operands)} of the x86-64 ELF file @path."""
    return {a: (m, o) for a, m, o, _ in valgrind.disassembly(path, "x86_64")}


def is_nop(mnem):
    return mnem.startswith("nop") or mnem in ("endbr64", "xchg") or mnem.startswith("data16")


def on_stack(mnem, operands):
    """Whether an instruction's data read is the stack's."""
    if mnem in ("pop", "popq", "leave", "leaveq", "ret", "retq"):
        return True
    return any("%rsp" in m for m in _MEM.findall(operands))


def profile(vg, driver, argv, fn_filter):
    """{function: {column: count}} of one callgrind run of @driver @argv,
    for the functions fn_filter(name) accepts."""
    with tempfile.TemporaryDirectory(prefix="opsbench-kcounts-") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = vg.prefix + ["--cache-sim=yes", "--dump-instr=yes", "--compress-strings=no",
                           "--compress-pos=no", f"--callgrind-out-file={out}",
                           vg.program(driver)] + argv
        res = subprocess.run(cmd, capture_output=True, text=True, env=vg.env)
        if res.returncode:
            raise KcountError(f"callgrind {' '.join(argv)}: exit {res.returncode}: "
                              f"{res.stderr.strip().splitlines()[-1:]}")
        return _read(out, driver, fn_filter)


def _read(path, driver, fn_filter):
    code = instructions(driver)
    sites = valgrind.control_sites(driver, "x86_64")
    events, fn, skip, out = None, None, False, {}
    with open(path) as f:
        for line in f:
            if skip:            # the inclusive cost of a call: not an instruction's own
                skip = False
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("calls="):
                skip = True
            elif line[:2] == "0x" and fn and fn_filter(fn):
                _add(out.setdefault(fn, dict.fromkeys(COLUMNS, 0)), line.split(), events, code, sites)
    return out


def _add(row, p, events, code, sites):
    cost = dict(zip(events, (int(x) for x in p[2:])))
    addr, ir = int(p[0], 16), cost.get("Ir", 0)
    mnem, operands = code.get(addr, ("?", ""))
    row["instructions"] += ir
    row["stores"] += cost.get("Dw", 0)
    kind = sites.get(addr)
    if kind in ("call", "icall", "thunk_call"):
        row["calls"] += ir
        row["stores"] -= ir
        row["indirect"] += ir if kind != "call" else 0
    elif kind in ("ret", "rethunk"):
        row["returns"] += ir
    elif kind == "thunk_jmp":
        row["indirect"] += ir
    if is_nop(mnem):
        row["nops"] += ir
    reads = cost.get("Dr", 0)
    if on_stack(mnem, operands):
        row["stack_reads"] += reads
    else:
        row["loads"] += reads


def component(driver, generation, strategy="direct"):
    """{kernel function: {column: float}} per intermediate component of
    @strategy's @generation ("6.12" or "6.1") in @driver."""
    gen = GENERATIONS[generation]
    prefix = f"{strategy}_"

    def wanted(fn):
        return fn.startswith(prefix) or fn in SHARED

    vg = valgrind.Valgrind("x86_64")
    runs = {}
    for depth in DEPTHS:
        for n in (LOOKUPS, 2 * LOOKUPS):
            argv = ["--strategy", strategy, "--context", "component", "--kernel", generation,
                    "--negative", "0", "--name-min", "5", "--name-max", "7", "--paths", str(PATHS),
                    "--depth", str(depth), "--lookups", str(n), "--no-pmu"]
            runs[depth, n] = profile(vg, driver, argv, wanted)
    scale = (DEPTHS[1] - DEPTHS[0]) * LOOKUPS
    out = {}
    for fn in set().union(*runs.values()):
        name = kernel_name(fn, prefix, gen)
        if name is None:
            continue
        row = out.setdefault(name, dict.fromkeys(COLUMNS, 0.0))
        for c in COLUMNS:
            d = [runs[k].get(fn, {}).get(c, 0) for k in
                 ((DEPTHS[1], 2 * LOOKUPS), (DEPTHS[1], LOOKUPS), (DEPTHS[0], 2 * LOOKUPS), (DEPTHS[0], LOOKUPS))]
            row[c] += ((d[0] - d[1]) - (d[2] - d[3])) / scale
    return {k: v for k, v in out.items() if v["instructions"] > 0.05}


# The kernel's functions that no strategy has a copy of (src/component.c).
SHARED = {"ob_bpf_lsm_inode_permission": "bpf_lsm_inode_permission"}
# The model's functions under the kernel's names.
RENAMES = {"run_throughput": "link_path_walk", "d_lookup_rcu": "__d_lookup_rcu"}


def kernel_name(fn, prefix, gen):
    """The kernel's name of the model's function @fn, or None when it is
    the other generation's."""
    if fn in SHARED:
        return SHARED[fn]
    rest = fn[len(prefix):]
    if rest.startswith(("k612_", "k61_")):
        g, rest = rest.split("_", 1)
        if g != gen:
            return None
    return RENAMES.get(rest, rest)
