"""simrows.py - the rows of cachesim.csv by instruction set and build.

One cachesim.csv holds the rows of every (arch, variant) simulated into a
results folder: `make cachesim` on x86-64 writes x86_64 rows, `make cachesim
ARCH=arm64` arm64 rows of the plain and bti-pac builds, and each replaces
only the rows of its own (arch, variant).  Files written before the arch and
variant columns existed hold the folder's own architecture and the variant
the build column names ("<commit> (<variant>)", or "<commit>
(<arch> <variant>)" as cachesim.py writes it now).  docs/results.md.
"""
import re

from .valgrind import norm_arch


def arch_of(row, default):
    return norm_arch(row.get("arch") or default)


def variant_of(row):
    if row.get("variant"):
        return row["variant"]
    m = re.search(r"\((?:[a-z0-9_]+ )?([a-z0-9_-]+)\)\s*$", row.get("build") or "")
    return m.group(1) if m else "plain"


def select(rows, arch, variant="plain", default_arch="x86_64"):
    """The rows of one (arch, variant)."""
    return [r for r in rows if arch_of(r, default_arch) == norm_arch(arch) and variant_of(r) == variant]


def builds(rows, default_arch="x86_64"):
    """The (arch, variant) pairs @rows hold, in order of appearance."""
    return list(dict.fromkeys((arch_of(r, default_arch), variant_of(r)) for r in rows))


def merge(old, new, default_arch):
    """@old without the (arch, variant) builds of @new, then @new; every
    row with its arch and variant columns filled in."""
    mine = set(builds(new, default_arch))
    kept = [{**r, "arch": arch_of(r, default_arch), "variant": variant_of(r)} for r in old
            if (arch_of(r, default_arch), variant_of(r)) not in mine]
    return kept + new
