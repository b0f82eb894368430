"""plots.py - the report's plots: data shaped here, drawn by gnuplot.

Each plot is written as PNG and SVG into RESULTS/plots/, with its data file
and gnuplot script beside it (so it can be redrawn and restyled by hand).
Strategy names are drawn literally (gnuplot's "enhanced" text is off).
A plot whose data hold no finite value, or that gnuplot cannot draw, is
skipped with a line saying why: a plot never fails a report.
"""
import math
import os
import shutil
import subprocess
import tempfile

from . import benchmarks, kernelwalk, regulator_report, stats
from .plumbing import write_atomic

# Report order of the strategies, for stable colours: the registry's order,
# in which the suite registers its benchmarks and the simulation runs them
# (set by make_all() from the results; no list of names here).
ORDER = []


class PlotError(Exception):
    pass


def strat_key(s):
    return ORDER.index(s) if s in ORDER else len(ORDER)


def lookups(results):
    """{scenario-args-tuple (mode included): {strategy: location}} for every
    lookup benchmark (stats.location: min, p10, median)."""
    out = {}
    for name, entry in results.items():
        words, args = benchmarks.parse_name(name)
        if len(words) < 2 or words[0] != "lookup" or words[1] == "pollute_only":
            continue
        key = tuple(sorted(args.items()))
        out.setdefault(key, {})[words[1]] = stats.location(entry["samples"])
    return out


def finite(*xs):
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in xs)


def slug(args):
    return "-".join(f"{k}{v}" for k, v in args if k != "dentries").replace(":", "")


def cache_sizes(meta):
    sizes = []
    for c in (meta or {}).get("caches") or []:
        if c.get("type") in ("Data", "Unified") and c.get("size_bytes"):
            sizes.append((f"L{c['level']}", c["size_bytes"]))
    return sorted(sizes, key=lambda x: x[1])


def cache_from(meta):
    """Where cache_sizes() came from: "sysfs", or "CPUID" where sysfs listed none."""
    return "CPUID" if any(c.get("source") == "cpuid" for c in (meta or {}).get("caches") or []) else "sysfs"


class Plotter:
    def __init__(self, run_dir):
        self.run = run_dir
        self.dir = os.path.join(run_dir, "plots")
        self.made = []          # (file stem, title)
        if not shutil.which("gnuplot"):
            raise PlotError("gnuplot not found: `make report` installs gnuplot-nox with apt-get; "
                            "install it by hand if that failed")
        if os.path.islink(self.dir):
            raise PlotError(f"{self.dir}: a symbolic link; refusing to write plots through it")
        os.makedirs(self.dir, exist_ok=True)

    def draw(self, stem, title, body, data):
        """Write @data to STEM.dat, @body (gnuplot commands) to STEM.gp, draw PNG and SVG
        (gnuplot writes them into a private temporary folder; they are then
        moved in by plumbing.write_atomic(), as everything written into a run).
        Returns None, or why the plot could not be drawn."""
        write_atomic(os.path.join(self.dir, stem + ".dat"), data, self.run)
        write_atomic(os.path.join(self.dir, stem + ".gp"),
                     f"# {title}\n# data: {stem}.dat; drawn by scripts/lib/plots.py\n"
                     f"datafile = '{stem}.dat'\n" + body, self.run)
        with tempfile.TemporaryDirectory() as tmp:
            driver = (f"set terminal pngcairo size 1100,620 noenhanced font 'DejaVu Sans,11'\n"
                      f"set output '{tmp}/{stem}.png'\nload '{stem}.gp'\nunset output\n"
                      f"set terminal svg size 1100,620 noenhanced font 'DejaVu Sans,11'\n"
                      f"set output '{tmp}/{stem}.svg'\nload '{stem}.gp'\nunset output\n")
            res = subprocess.run(["gnuplot"], input=driver, text=True, capture_output=True, cwd=self.dir)
            if res.returncode:
                err = " ".join(res.stderr.strip().splitlines()[-2:])[-300:]
                return f"gnuplot could not draw it ({err})"
            for ext in ("png", "svg"):
                with open(os.path.join(tmp, f"{stem}.{ext}"), "rb") as f:
                    write_atomic(os.path.join(self.dir, f"{stem}.{ext}"), f.read(), self.run)
        self.made.append((stem, title))
        return None


STYLE = """set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
"""


def plot_scenarios(p, scen):
    """One bar chart per scenario: the 10th percentile of ns/lookup, with the
    span from the minimum to the median as error bars.  Returns {name: why}
    for the charts it could not draw."""
    skipped = {}
    for args, strat in sorted(scen.items()):
        a = dict(args)
        rows = [(s, st) for s, st in sorted(strat.items(), key=lambda kv: strat_key(kv[0]))
                if finite(st["p10"], st["min"], st["median"])]
        stem = "lookup-" + slug(args)
        if not rows:
            skipped[stem] = "no finite time in this scenario"
            continue
        data = "".join(f"{i} {s} {st['p10']:.4f} {st['min']:.4f} {st['median']:.4f}\n"
                       for i, (s, st) in enumerate(rows))
        title = (f"lookup, {a.get('mode')} mode, {a.get('size')} ({a.get('dentries')} dentries), "
                 f"{a.get('custom')}% custom, {a.get('order')} order, pollution {a.get('pollute')} B, "
                 f"depth {a.get('depth')}")
        body = STYLE + f"""set title "{title}"
set ylabel "ns per lookup: 10th percentile (bars), minimum to median (lines)"
set xlabel "strategy"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -30
unset key
plot datafile using 1:3:xtic(2) with boxes lc rgb '#4477aa', \\
     datafile using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0
"""
        why = p.draw(stem, title, body, data)
        if why:
            skipped[stem] = why
    return skipped


def plot_working_set(p, scen, meta):
    """ns/lookup against the tree's bytes, one line per strategy, caches marked."""
    series = {}
    for args, strat in scen.items():
        a = dict(args)
        if (a.get("mode"), a.get("custom"), a.get("order"), a.get("pollute"), a.get("depth")) != \
                ("throughput", "0", "uniform", "0", "1"):
            continue
        nbytes = int(a.get("dentries", 0)) * 256
        for s, st in strat.items():
            if finite(st["p10"]):
                series.setdefault(s, []).append((nbytes, st["p10"]))
    if len({b for v in series.values() for b, _ in v}) < 2:
        return "needs lookups at two or more sizes (throughput, 0% custom, uniform, no pollution, depth 1)"
    names = sorted(series, key=strat_key)
    data = ""
    for s in names:
        data += f"# {s}\n" + "".join(f"{b} {ns:.4f}\n" for b, ns in sorted(series[s])) + "\n\n"
    marks = "".join(f"set arrow from {size},graph 0 to {size},graph 1 nohead dt 2 lc rgb '#888888'\n"
                    f"set label '{lvl} {size >> 10} KiB' at {size},graph 0.97 right rotate by 90 tc rgb '#555555'\n"
                    for lvl, size in cache_sizes(meta))
    plots = ", ".join(f"datafile index {i} using 1:2 with linespoints lw 2 title '{s}'"
                      for i, s in enumerate(names))
    body = STYLE + marks + f"""set title "ns per lookup against working set (0% custom, uniform, no pollution)"
set logscale x 2
set format x "%.0b %BB"
set offsets graph 0.02, graph 0.1, 0, 0
set xlabel "dentries x (object + 64 bucket) bytes (log scale); dashed lines: cache sizes from {cache_from(meta)}"
set ylabel "ns per lookup (10th percentile)"
plot {plots}
"""
    return p.draw("working-set", "ns/lookup against working-set size", body, data)


def plot_custom_share(p, scen, cachesim):
    """ns/lookup (measured) and D1 misses/lookup (simulated) against the custom-ops share."""
    times = {}
    for args, strat in scen.items():
        a = dict(args)
        if (a.get("mode"), a.get("order"), a.get("pollute"), a.get("depth")) != ("throughput", "uniform", "0", "1"):
            continue
        if a.get("size") not in ("L1", "tiny"):
            continue
        for s, st in strat.items():
            if finite(st["p10"]):
                times.setdefault(s, []).append((int(a["custom"]), st["p10"]))
    misses = {}
    for r in cachesim:
        sc = r["scenario"]
        if sc.startswith("L1-") and sc.endswith("pct-coldops"):
            share = int(sc[3:sc.index("pct")])
            v = float(r["D1_misses_per_lookup"])
            if finite(v):
                misses.setdefault(r["strategy"], []).append((share, v))
    if len({c for v in times.values() for c, _ in v}) < 2 and len({c for v in misses.values() for c, _ in v}) < 2:
        return "needs two or more custom shares (lookups at L1 size, or make cachesim)"
    names = sorted(set(times) | set(misses), key=strat_key)
    data = ""
    for s in names:
        data += f"# {s} time\n" + "".join(f"{c} {v:.4f}\n" for c, v in sorted(times.get(s, []))) + "\n\n"
    for s in names:
        data += f"# {s} misses\n" + "".join(f"{c} {v:.4f}\n" for c, v in sorted(misses.get(s, []))) + "\n\n"
    n = len(names)
    tplot = ", ".join(f"datafile index {i} using 1:2 with linespoints lw 2 title '{s}'"
                      for i, s in enumerate(names) if times.get(s))
    mplot = ", ".join(f"datafile index {n + i} using 1:2 with linespoints lw 2 title '{s}'"
                      for i, s in enumerate(names) if misses.get(s))
    body = STYLE + "set multiplot layout 1,2\nset key below horizontal\n"
    body += ("set title 'measured: L1-sized tree, uniform order'\nset xlabel 'directories with custom ops (%)'\n"
             f"set ylabel 'ns per lookup (10th percentile)'\nplot {tplot}\n" if tplot else "")
    body += ("set title 'simulated (callgrind): cold ops tables'\nset xlabel 'directories with custom ops (%)'\n"
             f"set ylabel 'D1 misses per lookup'\nplot {mplot}\n" if mplot else "")
    body += "unset multiplot\n"
    return p.draw("custom-share", "ns/lookup and misses/lookup against the custom-ops share", body, data)


def plot_order_modes(p, scen):
    """Sorted versus uniform order in each timing mode (throughput, latency, cold)."""
    cells = {}
    for args, strat in scen.items():
        a = dict(args)
        if (a.get("custom"), a.get("depth")) != ("0", "1") or a.get("size") not in ("L1", "tiny"):
            continue
        label = f"{a.get('order')}, {a.get('mode')}"
        for s, st in strat.items():
            if finite(st["p10"]):
                cells.setdefault(label, {})[s] = st["p10"]
    if len(cells) < 2:
        return "needs at least two of sorted/uniform x throughput/latency/cold at L1 size"
    labels = sorted(cells)
    names = sorted({s for c in cells.values() for s in c}, key=strat_key)
    data = "strategy " + " ".join(f'"{lbl}"' for lbl in labels) + "\n"
    for s in names:
        data += s + " " + " ".join(f"{cells[lbl].get(s, float('nan')):.4f}" for lbl in labels) + "\n"
    cols = ", ".join(f"datafile using {i + 2}:xtic(1) title columnheader" if i == 0 else
                     f"'' using {i + 2} title columnheader" for i in range(len(labels)))
    body = STYLE + f"""set title "lookup order and timing mode (L1-sized tree, 0% custom)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set xtics rotate by -30
set ylabel "ns per lookup (10th percentile)"
set xlabel "strategy"
set yrange [0:*]
plot {cols}
"""
    return p.draw("order-modes", "sorted versus uniform order in each timing mode", body, data)


def plot_calibration(p, results, meta):
    chase = []
    for name, e in results.items():
        words, args = benchmarks.parse_name(name)
        if name.startswith("calib/chase/") and "bytes" in args:
            chase.append((int(args["bytes"]), stats.summarize(e["samples"])))
    if len(chase) < 2:
        return "needs the calibration group"
    chase = [(b, st) for b, st in chase if finite(st["median"], *st["ci"]) and st["ci"][0] > 0]
    if len(chase) < 2:
        return "needs two or more positive, finite pointer-chase times"
    data = "".join(f"{b} {st['median']:.4f} {st['ci'][0]:.4f} {st['ci'][1]:.4f}\n" for b, st in sorted(chase))
    marks = "".join(f"set arrow from {size},graph 0 to {size},graph 1 nohead dt 2 lc rgb '#888888'\n"
                    f"set label '{lvl} {size >> 10} KiB' at {size},graph 0.97 right rotate by 90 tc rgb '#555555'\n"
                    for lvl, size in cache_sizes(meta))
    body = STYLE + marks + """set title "pointer chase: one dependent load per step, random cycle, one pointer per line"
set logscale xy 2
set format x "%.0b %BB"
set offsets graph 0.02, graph 0.1, 0, 0
set xlabel "working set (log scale); dashed lines: cache sizes from CACHE_FROM"
set ylabel "ns per load (median, 95% CI; log scale)"
unset key
plot datafile using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#aa3377'
""".replace("CACHE_FROM", cache_from(meta))
    return p.draw("calibration", "pointer-chase latency against working set", body, data)


def plot_dispatch_share(p, results):
    rows = [r for r in regulator_report.stop_mattering(results) if finite(r[3]) and r[3] > 0]
    if not rows:
        return "needs the lookup (L1/L2, warm) or regulator benchmarks"
    data = "".join(f"{i} {100 * share:.6g} \"{label}\" {path:.4g}\n"
                   for i, (label, path, _, share, _m) in enumerate(rows))
    body = STYLE + """set title "dispatch: the spread between strategies as a share of the path's time"
set logscale y 10
set format y "%g%%"
set style fill solid 0.8 border -1
set boxwidth 0.6
set xtics rotate by 25 right
set ylabel "spread between strategies / path time (log scale)"
set bmargin 9
unset key
plot datafile using 1:2:xtic(3) with boxes lc rgb '#4477aa'
"""
    return p.draw("dispatch-share", "dispatch cost as a share of path cost: both case studies", body, data)


def plot_kernel(p, results, meta):
    live = kernelwalk.live_kernel(results)
    if not live:
        return "needs the kernel group"
    _, model = kernelwalk.host_model(results, meta)
    data, plots = "", []
    for k, (name, f) in enumerate(sorted(live.items())):
        data += "".join(f"{d} {m:.4f}\n" for d, m in sorted(f["medians"].items())) + "\n\n"
        plots.append(f"datafile index {k} using 1:2 with points pt 7 ps 1.2 lc {k + 1} title '{name}: live kernel'")
        plots.append(f"{f['intercept']:.4f} + {f['slope']:.4f} * x with lines lc {k + 1} "
                     f"title '{name}: fit, {f['slope']:.1f} ns per component'")
    hot = live.get("hot")
    for gen, (ns, _) in sorted(model.items()) if hot else ():
        plots.append(f"{hot['intercept']:.4f} + {ns:.4f} * x with lines dt 2 lw 2 "
                     f"title 'model direct, Linux {gen}: {ns:.1f} ns per component'")
    body = STYLE + f"""set title "the running kernel: fstatat() against path depth ({meta.get('kernel')})"
set xlabel "path depth (components)"
set ylabel "ns per fstatat() (median over repetitions)"
set key inside left top
plot {", ".join(plots)}
"""
    return p.draw("kernel-walk", "the running kernel's path walk against depth, beside the model", body, data)


def make_all(run_dir, results, meta, cachesim):
    """Draw every plot the data allows; returns (made [(stem, title)], skipped {name: why})."""
    p = Plotter(run_dir)
    ORDER[:] = list(dict.fromkeys(
        [w[1] for w in (benchmarks.parse_name(n)[0] for n in results) if w[0] == "lookup" and len(w) > 1] +
        [r["strategy"] for r in cachesim or []]))
    scen = lookups(results)
    skipped = plot_scenarios(p, scen)
    for name, fn in (("working-set", lambda: plot_working_set(p, scen, meta)),
                     ("custom-share", lambda: plot_custom_share(p, scen, cachesim)),
                     ("order-modes", lambda: plot_order_modes(p, scen)),
                     ("calibration", lambda: plot_calibration(p, results, meta)),
                     ("dispatch-share", lambda: plot_dispatch_share(p, results)),
                     ("kernel-walk", lambda: plot_kernel(p, results, meta))):
        why = fn()
        if why:
            skipped[name] = why
    return p.made, skipped
