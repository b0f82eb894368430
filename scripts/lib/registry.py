"""registry.py - what `opsbench-run --list --json` says: the strategies, the
named scenarios (every parameter resolved) and the PMU events.  The only
source scripts take them from: never the human --list table, never C files.
scripts/registry.py prints them for the shell scripts.
"""
import json
import subprocess


class RegistryError(Exception):
    """The driver is missing, fails, or prints something else than the registry."""


def load(driver, caches=None):
    """The registry as a dict; @caches "L1D,L2,LLC" sizes the scenarios."""
    cmd = [driver, "--list", "--json"] + (["--caches", caches] if caches else [])
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise RegistryError(f"{driver}: {e.strerror}") from None
    if out.returncode:
        raise RegistryError(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    try:
        reg = json.loads(out.stdout)
    except ValueError as e:
        raise RegistryError(f"{' '.join(cmd)}: not JSON ({e})") from None
    if not isinstance(reg, dict) or not all(isinstance(reg.get(k), list) for k in
                                            ("strategies", "scenarios", "pmu_events")):
        raise RegistryError(f"{' '.join(cmd)}: no strategies, scenarios and pmu_events lists")
    return reg


def scenario(reg, name):
    """The named scenario's parameters, or RegistryError naming the choices."""
    for sc in reg["scenarios"]:
        if sc["name"] == name:
            return sc
    raise RegistryError(f"no scenario '{name}' (there are: {', '.join(s['name'] for s in reg['scenarios'])})")


def runnable(reg, sc=None):
    """The strategies that can run scenario @sc (all without one), in order."""
    custom = sc is not None and sc["custom_share"] > 0
    return [s for s in reg["strategies"] if s["custom_ops"] or not custom]
