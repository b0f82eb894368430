#!/usr/bin/env python3
"""summary.py - the console summary of a results folder.

    summary.py RESULTS_DIR

Reads RESULTS_DIR/benchmarks.json (and meta.json for cache sizes), prints per
lookup scenario each strategy's median ns/lookup, 95% CI, CV and ratio to the
baseline (direct, or default_ops where direct cannot run), then the dispatch
and calibration figures; writes the same as RESULTS_DIR/summary.md.  A ratio
whose CI overlaps the baseline's is marked '~' (no measurable difference).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import obstats  # noqa: E402


def natural(name):
    """Sort key: numbers in names compare as numbers (targets:4 before targets:16)."""
    import re
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def fmt_ns(x):
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def lookup_sections(results):
    scenarios = {}
    for name, entry in results.items():
        words, args = obstats.parse_name(name)
        if words[0] != "lookup" or len(words) < 2:
            continue
        scen = "/".join(name.split("/")[2:])
        scenarios.setdefault(scen, {})[words[1]] = obstats.summarize(entry["samples"]) | {
            "bytes": entry["counters"].get("dentry_bytes", [0])[0],
        }
    out = []
    for scen, strat in scenarios.items():
        pollute = strat.pop("pollute_only", None)
        base_name = "direct" if "direct" in strat else "default_ops"
        base = strat.get(base_name)
        rows = []
        for s, st in sorted(strat.items(), key=lambda kv: kv[1]["median"]):
            if base:
                ratio = st["median"] / base["median"]
                mark = "" if s == base_name or obstats.differs(st, base) else " ~"
                rel = f"{ratio:.2f}x{mark}"
            else:
                rel = "n/a"
            row = [s, fmt_ns(st["median"]), f"[{fmt_ns(st['ci'][0])}, {fmt_ns(st['ci'][1])}]",
                   f"{st['cv'] * 100:.1f}%", rel, int(st["bytes"])]
            if pollute:
                row.insert(2, fmt_ns(st["median"] - pollute["median"]))
            rows.append(row)
        header = ["strategy", "median ns/lookup", "95% CI ns", "CV", "vs baseline", "B/dentry"]
        note = ""
        if pollute:
            header.insert(2, "minus pollution ns")
            note = (f"; the pollution alone costs {fmt_ns(pollute['median'])} ns "
                    f"[{fmt_ns(pollute['ci'][0])}, {fmt_ns(pollute['ci'][1])}] per lookup")
        out.append(f"### lookup {scen.replace('/', ' ')}\n\nbaseline: {base_name}; "
                   f"n = {next(iter(strat.values()))['n']} repetitions each; '~': CI overlaps the baseline's"
                   f"{note}\n\n" + table(header, rows))
    return out


def dispatch_section(results):
    rows, base = [], None
    items = [(n, obstats.summarize(e["samples"])) for n, e in results.items() if n.startswith("dispatch/")]
    for n, st in items:
        if n == "dispatch/direct_call":
            base = st
    for n, st in sorted(items, key=lambda it: natural(it[0])):
        rel = f"{st['median'] / base['median']:.2f}x" if base else "n/a"
        rows.append([n[len("dispatch/"):], fmt_ns(st["median"]),
                     f"[{fmt_ns(st['ci'][0])}, {fmt_ns(st['ci'][1])}]", f"{st['cv'] * 100:.1f}%", rel])
    if not rows:
        return []
    return ["### dispatch alone (x = f(x) chain; ns per call)\n\n"
            + table(["mechanism", "median ns/call", "95% CI ns", "CV", "vs direct_call"], rows)]


def level_of(nbytes, levels):
    for name, size in levels:
        if size and nbytes <= size:
            return name
    return "DRAM"


def calib_section(results, meta):
    out = []
    levels = []
    for c in (meta or {}).get("caches", []):
        if c.get("type") in ("Data", "Unified") and c.get("size_bytes"):
            levels.append((f"L{c['level']}", c["size_bytes"]))
    levels.sort(key=lambda x: x[1])
    empty = results.get("calib/empty_loop")
    if empty:
        st = obstats.summarize(empty["samples"])
        out.append(f"empty loop: {fmt_ns(st['median'])} ns per iteration (CV {st['cv'] * 100:.1f}%)")
    br, bp = results.get("calib/branch/random"), results.get("calib/branch/predictable")
    if br and bp:
        r, p = obstats.summarize(br["samples"]), obstats.summarize(bp["samples"])
        out.append(f"branch mispredict penalty: {fmt_ns(2 * (r['median'] - p['median']))} ns "
                   f"(2 x ({fmt_ns(r['median'])} random - {fmt_ns(p['median'])} predictable))")
    chase = []
    for n, e in results.items():
        words, args = obstats.parse_name(n)
        if n.startswith("calib/chase/") and "bytes" in args:
            chase.append((int(args["bytes"]), obstats.summarize(e["samples"])))
    rows = []
    for nbytes, st in sorted(chase):
        size = f"{nbytes >> 20} MiB" if nbytes >= 1 << 20 else f"{nbytes >> 10} KiB"
        rows.append([size, level_of(nbytes, levels), fmt_ns(st["median"]), f"{st['cv'] * 100:.1f}%"])
    if rows:
        out.append("pointer chase (one dependent load per iteration; level by the sysfs sizes):\n\n"
                   + table(["working set", "fits in (sysfs)", "median ns/load", "CV"], rows))
    return ["### calibration\n\n" + "\n\n".join(out)] if out else []


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: summary.py RESULTS_DIR")
    d = argv[1]
    try:
        results, skipped = obstats.load_gb(os.path.join(d, "benchmarks.json"))
    except obstats.ResultsError as e:
        sys.exit(f"summary.py: {e}")
    meta = None
    try:
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        pass
    sections = lookup_sections(results) + dispatch_section(results) + calib_section(results, meta)
    if skipped:
        sections.append("### skipped\n\n" + "\n".join(f"- {n}: {m}" for n, m in sorted(skipped.items())))
    text = "## opsbench summary\n\nTimes are Google Benchmark real time, medians over repetitions.\n\n" \
        + "\n\n".join(sections) + "\n"
    tmp = os.path.join(d, "summary.md.part")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(d, "summary.md"))
    print(text)


if __name__ == "__main__":
    main(sys.argv)
