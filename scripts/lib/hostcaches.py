"""hostcaches.py - the host's caches, as meta.json records them and make cachesim
sizes its host geometry: sysfs, or where sysfs lists none (some VMs) the
driver's CPUID reading.
"""
import json
import subprocess


def read_text(path):
    """The stripped contents of a small text file (sysfs, procfs), or None."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def parse_size(s):
    """sysfs's "48K", "1024K", "32M" in bytes, or None."""
    if not s:
        return None
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1], 1)
    try:
        return int(s.rstrip("KMG")) * mult
    except ValueError:
        return None


def sysfs_caches(root="/sys/devices/system/cpu/cpu0/cache"):
    """Every cache of the first CPU from sysfs: [{level, type, size, size_bytes,
    ways, line_bytes, shared_cpu_list}], the one reading of cache sizes that
    meta.json and make cachesim's host geometry share."""
    out = []
    for i in range(16):
        d = f"{root}/index{i}"
        level = read_text(f"{d}/level")
        if level is None:
            continue
        size = read_text(f"{d}/size")
        out.append({
            "level": int(level),
            "type": read_text(f"{d}/type"),
            "size": size,
            "size_bytes": parse_size(size),
            "ways": int(read_text(f"{d}/ways_of_associativity") or 0) or None,
            "line_bytes": int(read_text(f"{d}/coherency_line_size") or 0) or None,
            "shared_cpu_list": read_text(f"{d}/shared_cpu_list"),
        })
    return out


def machine_caches(driver=None):
    """sysfs_caches(); where sysfs lists none (some VMs), the caches the
    driver (opsbench-run) found by CPUID, in the same form, with "source":
    "cpuid".  An L3 that CPUID does not describe is left out.  [] when
    neither says anything."""
    found = sysfs_caches()
    if found or not driver:
        return found
    try:
        res = subprocess.run([driver, "--list", "--json"], capture_output=True, text=True, timeout=60)
        c = json.loads(res.stdout)["caches"] if res.returncode == 0 else None
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        c = None
    if not c or not str(c.get("source", "")).startswith("cpuid"):
        return []

    def entry(level, kind, size, ways):
        return {"level": level, "type": kind, "size": f"{size >> 10}K", "size_bytes": size,
                "ways": ways or None, "line_bytes": c.get("line") or None,
                "shared_cpu_list": None, "source": "cpuid"}
    out = [entry(1, "Data", c["l1d"], c.get("l1d_ways"))]
    if c.get("l1i"):
        out.append(entry(1, "Instruction", c["l1i"], c.get("l1i_ways")))
    out.append(entry(2, "Unified", c["l2"], c.get("l2_ways")))
    if c["source"] == "cpuid" and c["llc"] != c["l2"]:
        out.append(entry(3, "Unified", c["llc"], c.get("llc_ways")))
    return out
