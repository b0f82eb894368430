#!/usr/bin/env python3
"""disasm.py - each strategy's dispatch sites as machine code, side by side.

    disasm.py --dir build/disasm --out build/disasm/disasm.md --columns x86_64-plain ... arm64-bti-pac

Reads the objects `make disasm` builds with OB_DISASM_SITES, one folder per
column (<arch>-<variant>: x86_64-plain, x86_64-retpoline, ..., arm64-bti-pac,
each built with that variant's flags), where the two dispatch sites of the
walk are out-of-line functions: site_d_hash (the parent's hash op, once per
component) and site_d_compare (one hash-chain entry's match test, with the
compare op).  Disassembles them with objdump (relocations shown, so call
targets have names) and writes one Markdown file: tables of instruction
counts, then per strategy and site each architecture's variants in columns.
A column whose folder is missing is left out (and said).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import plumbing, registry  # noqa: E402

ARCHES = {"x86_64": ("objdump", "x86-64"), "arm64": ("aarch64-linux-gnu-objdump", "arm64")}
SITES = [("site_d_hash", "hash-op call site (per component)"),
         ("site_d_compare", "compare-op site (per hash-chain entry)")]
WIDTH = 44


def strategies_in(folder, driver):
    """The registry's strategies (opsbench-run --list --json) that @folder has objects of."""
    try:
        order = [s["name"] for s in registry.load(driver)["strategies"]]
    except registry.RegistryError as e:
        sys.exit(f"disasm.py: {e}")
    present = {n[:-2] for n in os.listdir(folder) if n.endswith(".o")}
    return [s for s in order if s in present]


def disassemble(objdump, path):
    res = subprocess.run([objdump, "-dr", "--no-show-raw-insn", path], capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"disasm.py: {objdump} {path}: {res.stderr.strip()}")
    funcs, cur = {}, None
    for line in res.stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if cur is None or not line.strip():
            cur = None if not line.strip() else cur
            continue
        reloc = re.match(r"^\s+[0-9a-f]+: (R_\S+)\s+(\S+)", line)
        if reloc and cur:
            # The relocation names the real target: "call 1f <site+0x5>" is
            # "call <__x86_indirect_thunk_rax>" once linked.
            addr, text = cur[-1]
            sym = re.sub(r"-0x4$", "", reloc.group(2))
            m = re.match(r"^(\S+)\s+[0-9a-f]+ <[^>]+>$", text)
            cur[-1] = (addr, f"{m.group(1)} <{sym}>" if m else f"{text}  <{sym}>")
            continue
        ins = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if ins:
            text = re.sub(r"\s+", " ", ins.group(2)).strip()
            # Drop objdump's comments: x86 "# addr <sym>", arm64 "// #imm";
            # arm64 immediates ("#0x1") stay.
            text = re.sub(r"\s(#\s|//).*$", "", text)
            cur.append((ins.group(1), text))
    return funcs


def is_padding(text):
    return text in ("nop", "xchg %ax,%ax") or text.startswith(("nopw", "nopl", "cs nopw", "data16"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--driver", required=True, help="opsbench-run, whose --list --json names the strategies")
    ap.add_argument("--out", required=True)
    ap.add_argument("--columns", nargs="+", required=True, metavar="ARCH-VARIANT")
    args = ap.parse_args()
    variants = []
    for col in args.columns:
        arch, _, variant = col.partition("-")
        if arch not in ARCHES or not variant:
            plumbing.die(f"disasm.py: --columns {col}: expected <x86_64|arm64>-<variant>")
        tool, arch_title = ARCHES[arch]
        if not os.path.isdir(os.path.join(args.dir, col)):
            print(f"disasm.py: no {col} objects: that column is left out", file=sys.stderr)
        elif not shutil.which(tool):
            sys.exit(f"disasm.py: {tool} not found (`make disasm` installs binutils-aarch64-linux-gnu)")
        else:
            variants.append((col, tool, f"{arch_title} {variant}", arch))
    if not variants:
        plumbing.die(f"disasm.py: {args.dir}: no objects; run `make disasm`")
    strategies = strategies_in(os.path.join(args.dir, variants[0][0]), args.driver)
    code = {}
    for variant, tool, _, _ in variants:
        for s in strategies:
            path = os.path.join(args.dir, variant, s + ".o")
            if not os.path.exists(path):
                plumbing.die(f"disasm.py: {path} is missing; run `make disasm`")
            funcs = disassemble(tool, path)
            for site, _ in SITES:
                if site not in funcs:
                    plumbing.die(f"disasm.py: {path}: no function {site}: was it built with OB_DISASM_SITES?")
                code[(variant, s, site)] = [t for _, t in funcs[site] if not is_padding(t)]

    out = ["# Dispatch sites in machine code\n",
           "Made by `make disasm` from the real strategy sources, built with `-DOB_DISASM_SITES` so that "
           "the two dispatch sites of the walk are out-of-line functions objdump can find. Each site is "
           "shown whole: the op test, the load of the op, the call (or the inline default), and the "
           "function's own entry and return (which inlined code does not pay; as a separate function "
           "the compiler also turns the op call into a tail jump, where inline it is a call). "
           "site_d_compare includes the inline default compare (hash+len, parent, word-at-a-time bytes). Counts exclude alignment "
           "padding. `flag_hoisted` tests the compare flag once per lookup, outside this site, and calls "
           "an out-of-line chain walk when it is set; its per-entry site is the plain compare.\n",
           "What to look for: retpoline/rethunk, `call __x86_indirect_thunk_<reg>` where plain has "
           "`call *%reg`, and `jmp __x86_return_thunk` for `ret`; ibt, `endbr64` at the top of a "
           "function reached through a pointer; kcfi, the type check before every indirect call "
           "(`mov $-hash,%r10d; add -0x4(%reg),%r10d; je; ud2`); arm64 bti-pac, `bti c` or "
           "`paciasp` (itself a landing pad) on entry and `autiasp` before `ret`. static_call's op "
           "call is a direct `call`/`bl` to its trampoline in every variant; on x86-64 the running "
           "program patches it to call the op itself (static_call_tramp's stays on the trampoline).\n"]
    for site, what in SITES:
        out += [f"## Instructions per site: {site} ({what})\n",
                "| strategy | " + " | ".join(title for _, _, title, _ in variants) + " |",
                "|---|" + "---:|" * len(variants)]
        for s in strategies:
            out.append(f"| {s} | " + " | ".join(str(len(code[(v, s, site)])) for v, _, _, _ in variants) + " |")
        out.append("")
    summary_end = len(out)
    for s in strategies:
        out.append(f"## {s}\n")
        for site, what in SITES:
            out.append(f"### {site}: {what}\n")
            for arch in ARCHES:
                group = [v for v in variants if v[3] == arch]
                if not group:
                    continue
                cols = [code[(v, s, site)] for v, _, _, _ in group]
                out.append("```")
                out.append("".join(f"{title[:WIDTH - 2]:<{WIDTH}}" for _, _, title, _ in group).rstrip())
                out.append("".join("-" * (WIDTH - 2) + "  " for _ in group).rstrip())
                for i in range(max(len(c) for c in cols)):
                    row = ""
                    for c in cols:
                        cell = c[i] if i < len(c) else ""
                        row += f"{cell[:WIDTH - 2]:<{WIDTH}}"
                    out.append(row.rstrip())
                out.append("```\n")
    plumbing.write_atomic(args.out, "\n".join(out) + "\n")
    counts = {s: {site: {v: len(code[(v, s, site)]) for v, _, _, _ in variants} for site, _ in SITES}
              for s in strategies}
    json_out = os.path.splitext(args.out)[0] + ".json"
    plumbing.write_json(json_out, {"instructions_per_site": counts})
    print(f"disasm: wrote {args.out}", file=sys.stderr)
    print("\n".join(out[3:summary_end]))


if __name__ == "__main__":
    plumbing.run_main(main)
