#!/usr/bin/env python3
"""registry.py - what `opsbench-run --list --json` says: the strategies, the
named scenarios (every parameter resolved) and the PMU events.  The only
source scripts take them from: never the human --list table, never C files.

    registry.py DRIVER strategies [--scenario NAME]   names that can run it, one a line
    registry.py DRIVER strategies --markdown          the README's table of them
    registry.py DRIVER scenario NAME                  the scenario's --custom share
    registry.py DRIVER perf-events                    the PMU events as perf stat -e names
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.registry import RegistryError, load, runnable, scenario  # noqa: E402
from lib.plumbing import die, run_main  # noqa: E402


def usage():
    die(__doc__.strip())


def markdown_table(strategies):
    """The strategies as the README shows them: name, how an optional op is
    reached, where the pattern comes from, each as the registry says."""
    def cell(text):
        return (text or "-").replace("|", "\\|").replace("*", "\\*")
    return "\n".join(["| strategy | how an optional op is reached | where it comes from |", "|---|---|---|"] +
                     [f"| `{s['name']}` | {cell(s.get('summary'))} | {cell(s.get('origin'))} |"
                      for s in strategies])


def main(argv):
    if len(argv) < 3:
        usage()
    try:
        reg = load(argv[1])
        what = argv[2]
        if what == "strategies" and argv[3:] == ["--markdown"]:
            print(markdown_table(reg["strategies"]))
        elif what == "strategies":
            if argv[3:] and (argv[3] != "--scenario" or len(argv) != 5):
                usage()
            sc = scenario(reg, argv[4]) if argv[3:] else None
            print("\n".join(s["name"] for s in runnable(reg, sc)))
        elif what == "scenario" and len(argv) > 3:
            print(scenario(reg, argv[3])["custom_share"])
        elif what == "perf-events":
            print(",".join(e["perf"] for e in reg["pmu_events"]))
        else:
            usage()
    except RegistryError as e:
        die(f"registry: {e}")


if __name__ == "__main__":
    run_main(main, sys.argv)
