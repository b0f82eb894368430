#!/usr/bin/env python3
"""kcounts.py - the model's path component function by function beside the
kernel's (src/model/kernel-counts.csv), from callgrind.

    kcounts.py DRIVER [--kernel 6.12|6.1] [--strategy flag_hoisted] [--check]

DRIVER is an x86-64 opsbench-run of a gcc kernel build: `make tools
VARIANT=ibt` for 6.12 (Debian's 6.12 has IBT), VARIANT=kernel for 6.1.
Prints one table per generation: each function's model count / kernel
count.  With --check, also one OK or FAILED line per function and column
held to the tolerances (TOLERANCE below), and exits with the number of
failures.  How it counts: scripts/lib/kcounts.py; what is held:
docs/model.md#function-by-function.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import kcounts, valgrind  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("driver")
    ap.add_argument("--kernel", choices=sorted(kcounts.GENERATIONS), action="append")
    ap.add_argument("--strategy", default=kcounts.KERNEL_STRATEGY)
    ap.add_argument("--check", action="store_true", help="hold the counts to the tolerances; exit status: failures")
    a = ap.parse_args()
    failed = 0
    try:
        table = kcounts.kernel_table()
        for gen in a.kernel or ("6.12", "6.1"):
            model = kcounts.component(a.driver, gen, a.strategy)
            print(render(gen, a.strategy, model, table[gen]))
            if a.check:
                for ok, line in kcounts.check(model, table[gen], a.strategy):
                    print(f"[{'       OK' if ok else '  FAILED '} ] {gen} {a.strategy}: {line}")
                    failed += not ok
    except (kcounts.KcountError, valgrind.ValgrindError) as e:
        sys.exit(f"kcounts.py: {e}")
    sys.exit(min(failed, 125))


def render(gen, strategy, model, kernel):
    cols = kcounts.COLUMNS
    lines = [f"Linux {gen}, `{strategy}` per intermediate component: model / kernel", "",
             "| function | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    names = list(kernel) + sorted(set(model) - set(kernel))
    total_m, total_k = dict.fromkeys(cols, 0.0), dict.fromkeys(cols, 0)
    for name in names:
        m, k = model.get(name), kernel.get(name)
        cells = []
        for c in cols:
            mv = m[c] if m else 0.0
            kv = k[c] if k else 0
            total_m[c] += mv
            total_k[c] += kv
            cells.append(f"{mv:.1f} / {kv}" if k else f"{mv:.1f} / -")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| **total** | " + " | ".join(f"{total_m[c]:.1f} / {total_k[c]}" for c in cols) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
