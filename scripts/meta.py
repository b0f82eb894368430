#!/usr/bin/env python3
"""meta.py - describe the machine, build and run behind a results folder.

    meta.py --profile P --filter F --command CMD > meta.json
    meta.py --update meta.json --elapsed SECONDS [--schedule PARTS_DIR --budget S]

--update requires --elapsed (a whole number of seconds, at least 0); bad
usage or an unreadable meta.json: exit status 2.  It also records the
host's load at the end (host_load.end; describe() records its start), and
with --schedule what make bench's scheduler did (PARTS_DIR/schedule.tsv,
one line per process, and PARTS_DIR/groups.tsv, one per lookup group).

Everything is read from the system (procfs, sysfs, git, the compiler); what
cannot be read is recorded as null, never guessed.  The compiler and flags
come from OB_CC, OB_CXX and OB_CFLAGS, which `make bench` sets.
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import benchmarks, hostcaches, plumbing, runfolder, stats  # noqa: E402
from lib.hostcaches import read_text  # noqa: E402


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def cpu_model():
    info = read_text("/proc/cpuinfo") or ""
    for key in ("model name", "Model", "Hardware", "CPU part"):
        for line in info.splitlines():
            if line.startswith(key) and ":" in line:
                return line.split(":", 1)[1].strip()
    return None


def caches():
    # sysfs, else what the driver found by CPUID (DRIVER: make bench's opsbench-run).
    return [{k: v for k, v in c.items() if k != "ways"}
            for c in hostcaches.machine_caches(os.environ.get("DRIVER"))]


def hypervisor():
    """The hypervisor under this machine, or None on bare metal: /sys/hypervisor
    (Xen), systemd-detect-virt --vm (it names a container first without --vm),
    the DMI vendor and product, and last CPUID's hypervisor bit."""
    xen = read_text("/sys/hypervisor/type")
    if xen:
        return xen
    virt = run(["systemd-detect-virt", "--vm"])
    if virt and virt != "none":
        return virt
    dmi = " ".join(filter(None, (read_text(f"/sys/class/dmi/id/{f}") for f in ("sys_vendor", "product_name"))))
    for word in ("KVM", "QEMU", "VMware", "VirtualBox", "Hyper-V", "Microsoft", "Xen", "Firecracker", "Amazon EC2"):
        if word.lower() in dmi.lower():
            return f"{word} (DMI: {dmi})"
    flags = read_text("/proc/cpuinfo") or ""
    return "unknown hypervisor (CPUID hypervisor bit)" if " hypervisor" in flags else None


def container():
    """The container this runs in, or None (systemd-detect-virt --container, /.dockerenv)."""
    c = run(["systemd-detect-virt", "--container"])
    if c and c != "none":
        return c
    return "docker" if os.path.exists("/.dockerenv") else None


def git():
    commit = run(["git", "rev-parse", "HEAD"])
    status = run(["git", "status", "--porcelain", "--untracked-files=no"])
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def compiler(env_name, default):
    cc = os.environ.get(env_name, default)
    version = run(cc.split() + ["--version"])
    return {"command": cc, "version": version.splitlines()[0] if version else None}


def cpu_identity():
    """The first CPU's family, model, stepping, microcode and MHz from
    /proc/cpuinfo (x86-64; arm64 gives implementer, part and revision)."""
    keys = {"vendor_id": "vendor", "cpu family": "family", "model": "model", "stepping": "stepping",
            "microcode": "microcode", "cpu MHz": "mhz", "CPU implementer": "implementer",
            "CPU architecture": "architecture", "CPU variant": "variant", "CPU part": "part",
            "CPU revision": "revision"}
    out = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    if out:
                        break
                    continue
                k, _, v = line.partition(":")
                if k.strip() in keys:
                    out[keys[k.strip()]] = v.strip()
    except OSError:
        pass
    # Nominal: cpufreq's base (or maximum) frequency; else the model name's "@ 2.60GHz".
    for f in ("base_frequency", "cpuinfo_max_freq"):
        khz = read_text(f"/sys/devices/system/cpu/cpu0/cpufreq/{f}")
        if khz and khz.isdigit():
            out["mhz_nominal"] = int(khz) / 1000
            break
    else:
        m = re.search(r"@ *([0-9.]+) *GHz", cpu_model() or "")
        out["mhz_nominal"] = float(m.group(1)) * 1000 if m else None
    return out


def measured_mhz(folder):
    """The core clock the run measured: calib/cycle is eight dependent adds,
    eight cycles, per iteration (its median); None without it."""
    try:
        results, _ = benchmarks.load_gb(folder)
    except benchmarks.ResultsError:
        return None
    e = results.get("calib/cycle")
    if not e:
        return None
    ns = stats.summarize(e["samples"])["median"]
    return round(8 / ns * 1000, 1) if ns > 0 else None


def host_load():
    """The host's load now: /proc/loadavg and the CPU time counters of
    /proc/stat's "cpu" line (in ticks), from which two snapshots give the
    share of time stolen by the hypervisor and spent busy."""
    stat = (read_text("/proc/stat") or "").split("\n", 1)[0].split()
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    ticks = dict(zip(names, (int(x) for x in stat[1:9]))) if stat[:1] == ["cpu"] else None
    return {"loadavg": read_text("/proc/loadavg"), "ticks": ticks}


def read_schedule(parts, budget):
    """What make bench's scheduler did, from its two files under @parts."""
    def rows(name):
        with open(os.path.join(parts, name), encoding="utf-8") as f:
            return [line.rstrip("\n").split("\t") for line in f if line.strip()]
    walls = {}
    for i, _k, _n, wall, _label in rows("schedule.tsv"):
        walls.setdefault(i, []).append(float(wall))
    groups = [{"group": label, "blocks": int(n), "state": state, "wall_s": round(sum(walls.get(i, [])), 3)}
              for i, n, state, label in rows("groups.tsv")]
    lookup = {g_i for g_i, *_ in rows("groups.tsv")}
    return {"budget_s": budget, "lookup_groups": groups,
            "lookup_wall_s": round(sum(sum(v) for i, v in walls.items() if i in lookup), 3),
            "other_wall_s": round(sum(sum(v) for i, v in walls.items() if i not in lookup), 3)}


def describe(args):
    gov = read_text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    variants = (os.environ.get("OB_VARIANTS") or "plain").split()
    return {
        "opsbench_meta_version": runfolder.META_VERSION,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "arch": platform.machine(),
        "kernel": platform.release(),
        "os": (read_text("/etc/os-release") or "").partition('PRETTY_NAME="')[2].partition('"')[0] or None,
        "cpu_model": cpu_model(),
        "cpus_online": os.cpu_count(),
        "caches": caches(),
        "hypervisor": hypervisor(),
        "container": container(),
        "governor": gov,
        "boost": read_text("/sys/devices/system/cpu/cpufreq/boost"),
        "transparent_hugepage": read_text("/sys/kernel/mm/transparent_hugepage/enabled"),
        "perf_event_paranoid": read_text("/proc/sys/kernel/perf_event_paranoid"),
        "load_average": read_text("/proc/loadavg"),
        "host_load": {"start": host_load(), "end": None},
        # The build make bench chose besides plain, and why (scripts/host-build.sh).
        "host_build": {"variant": os.environ.get("OB_HOST_BUILD") or None,
                       "why": os.environ.get("OB_HOST_BUILD_WHY") or None},
        "cc": compiler("OB_CC", "gcc"),
        "cxx": compiler("OB_CXX", "g++"),
        "cflags": os.environ.get("OB_CFLAGS"),
        # make bench LINK_ORDER=reverse: the library's objects linked in the other order
        "link_order": os.environ.get("OB_LINK_ORDER") or "usual",
        # make bench's layouts (docs/method.md#the-layout): the code layouts
        # its blocks were drawn from, and the bytes each moves the code by
        "layouts": [int(x) for x in os.environ.get("OB_LAYOUTS", "0").split()],
        "layout_pad_bytes": int(os.environ.get("OB_LAYOUT_PAD") or 0),
        # Code-generation variants measured, and what each adds to cflags.
        "variants": variants,
        "variant_flags": {v: os.environ.get("OB_FLAGS_" + v.replace("-", "_"), "") for v in variants},
        "variant_compilers": {v: compiler("OB_CC_" + v.replace("-", "_"), os.environ.get("OB_CC", "gcc"))
                              for v in variants},
        "cpu": cpu_identity(),
        "vulnerabilities": {n: read_text(os.path.join("/sys/devices/system/cpu/vulnerabilities", n))
                            for n in sorted(os.listdir("/sys/devices/system/cpu/vulnerabilities"))}
        if os.path.isdir("/sys/devices/system/cpu/vulnerabilities") else {},
        # the active Linux security modules, whose hooks a path walk calls (None: not readable)
        "lsm": read_text("/sys/kernel/security/lsm"),
        "git": git(),
        "profile": args.profile,
        # a ratio is pinned within +-this many percent: every script reads it from here
        "pin_target_pct": args.pin_target,
        "filter": args.filter or None,
        "command": args.command,
        "elapsed_s": None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile")
    ap.add_argument("--filter", default="")
    ap.add_argument("--command")
    ap.add_argument("--update", metavar="META_JSON")
    ap.add_argument("--elapsed", type=int)
    ap.add_argument("--schedule", metavar="PARTS_DIR")
    ap.add_argument("--budget", type=int, default=0)
    ap.add_argument("--pin-target", type=float, help="make bench's pinning target, percent (the profile's)")
    args = ap.parse_args()
    if args.update is not None and args.elapsed is None:
        ap.error("--update needs --elapsed SECONDS (the run's elapsed time; it is never nulled)")
    if args.elapsed is not None and args.elapsed < 0:
        ap.error(f"--elapsed {args.elapsed}: expected a whole number of seconds, at least 0")
    if args.update is not None:
        def refuse(why):
            plumbing.die(f"meta.py: {why}")
        try:
            meta = plumbing.read_json_file(args.update)
        except plumbing.ReadError as e:
            refuse(e)
        except OSError as e:
            refuse(f"{args.update}: {e.strerror or e}")
        if not isinstance(meta, dict):
            refuse(f"{args.update}: not a JSON object")
        meta["elapsed_s"] = args.elapsed
        if isinstance(meta.get("host_load"), dict) and meta["host_load"].get("end") is None:
            meta["host_load"]["end"] = host_load()
        if args.schedule:
            try:
                meta["schedule"] = read_schedule(args.schedule, args.budget)
            except (OSError, ValueError) as e:
                refuse(f"{args.schedule}: not make bench's schedule ({e})")
        folder = os.path.dirname(args.update) or "."
        if isinstance(meta.get("cpu"), dict) and os.path.exists(benchmarks.benchmarks_file(folder)):
            meta["cpu"]["mhz_measured"] = measured_mhz(folder)
        plumbing.write_json(args.update, meta, folder)
        return
    json.dump(describe(args), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    plumbing.run_main(main)
