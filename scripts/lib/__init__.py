"""The modules the commands in scripts/ import; none of them is run by itself.

    hostcaches.py        the host's caches (sysfs, or the driver's CPUID reading)
    benchmarks.py        Google Benchmark JSON: loading it, benchmark names, scenarios
    stats.py             the statistics the report quotes (docs/method.md#statistics)
    blocks.py            make bench's stopping rule: which lookup groups still need blocks
    runstate.py          what a run says about itself: time, builds, host state, pinned ratios
    plumbing.py          atomic writes, run folders, stopping with make, main() wrapper
    runfolder.py         a results folder read and checked: what a report needs
    sections.py          the report's tables of measured data (lookups, variants, ...)
    markdown.py          Markdown tables and number formatting
    claims.py            the article's claims, each tested against the data
    costmodel.py         the cost model of the lookup differences, validated held out
    regulator_report.py  the regulator case study and both case studies side by side
    plots.py             the report's plots, drawn by gnuplot
    provenance.py        which build made each file of a results folder
    registry.py          what `opsbench-run --list --json` says
    simrows.py           the rows of cachesim.csv by instruction set and build
    valgrind.py          which valgrind runs a driver, and how (arm64 under qemu too)
    kernelwalk.py        the running kernel's path walk, fitted, beside the model's component
    pattern.py           a user's regex, refused when it could backtrack for minutes
    kcounts.py           the component function by function, counted as the kernel's table

A command puts scripts/ on sys.path and imports `from lib import ...`.
"""
