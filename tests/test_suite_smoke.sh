#!/usr/bin/env bash
# test_suite_smoke.sh - opsbench-suite runs a tiny profile end to end: its
# Google Benchmark JSON parses, names every strategy of the registration
# table, has every repetition, and has no errors; bad flags exit with 2.
#
#   OPSBENCH_SUITE=... OPSBENCH_RUN=... tests/test_suite_smoke.sh
set -u
suite=${OPSBENCH_SUITE:?}
run=${OPSBENCH_RUN:?}
py=/usr/bin/python3
[[ -x $py ]] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

exit_is() { # expected status, command...
	local want=$1
	shift
	"$@"
	[[ $? == "$want" ]]
}

smoke() {
	"$suite" --profile smoke --group all --benchmark_out="$tmp/smoke.json" \
		--benchmark_out_format=json >/dev/null
}

json_names_every_strategy() {
	"$run" --list --json >"$tmp/registry.json" || return 1
	"$py" - "$tmp/smoke.json" "$tmp/registry.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
registry = json.load(open(sys.argv[2]))["strategies"]
want = {s["name"] for s in registry}
size = {s["name"]: s["object_bytes"] for s in registry}
runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
errors = [b["name"] for b in data["benchmarks"] if b.get("error_occurred")]
seen = {b["name"].split("/")[1] for b in runs if b["name"].startswith("lookup/")}
assert not errors, f"errors: {errors}"
assert seen == want, f"strategies in JSON {sorted(seen)} != registration table {sorted(want)}"
reps, rounds = {}, {}
for b in runs:
    if b["name"].startswith("lookup/"):
        # One sample per round: the rounds of a benchmark are 0, 1, 2 (smoke).
        name = "/".join(p for p in b["run_name"].split("/")
                        if not p.startswith(("iterations:", "repeats:", "manual_time")))
        rounds.setdefault(name, []).append(b["round"])
    else:
        reps[b["run_name"]] = reps.get(b["run_name"], 0) + 1
assert all(n == 2 for n in reps.values()), f"repetitions: {reps}"
assert rounds and all(sorted(r) == [0, 1, 2] for r in rounds.values()), f"rounds: {rounds}"
assert {n.split("/")[2] for n in rounds} == {"mode:throughput", "mode:latency"}, sorted(rounds)
for b in runs:
    if b["name"].startswith("lookup/"):
        for counter in ("round", "dentry_bytes", "total_bytes", "ns_per_cycle", "huge_page_share"):
            assert counter in b, f"{b['name']}: no {counter}"
        assert b["dentry_bytes"] == size[b["label"]], f"{b['name']}: dentry_bytes {b['dentry_bytes']}"
assert any(b["name"].startswith("dispatch/") for b in runs), "no dispatch benchmarks"
reg = json.load(open(sys.argv[2]))["regulator_strategies"]
reg_seen = {b["name"].split("/")[1] for b in runs if b["name"].startswith("regulator/")}
assert reg_seen == {s["name"] for s in reg}, f"regulator strategies in JSON {sorted(reg_seen)}"
for s in reg:  # both cores and buses; every path and driver it can run; the 10 ms enable counted and waited
    mine = {"/".join(b["name"].split("/")[2:7]) for b in runs if b["name"].startswith(f"regulator/{s['name']}/")}
    paths = {f"path:{p}/driver:plain/delay:none" for p in ("set_voltage", "enable")}
    if s["timing_ops"]:
        paths |= {f"path:set_voltage/driver:{d}/delay:none" for d in ("ab8500", "ab8500_sel")}
        paths |= {f"path:enable/driver:ab8500_tvout/delay:{d}" for d in ("count", "wait")}
    want = {f"core:{c}/bus:{b}/{p}" for c in ("2011", "6.x") for b in ("mmio", "i2c") for p in paths}
    assert mine == want, f"{s['name']}: {sorted(mine ^ want)}"
assert any(b["name"].startswith("calib/chase/") for b in runs), "no pointer chase"
print(f"{len(runs)} runs, strategies {sorted(seen)}")
PY
}

# --pass K/N: N processes whose rounds, numbered as in one process, cover
# every round once, each sample with the pass that took it; a cold scenario says what share of its lookups it left out.
blocks_cover_the_rounds() {
	local g
	g=$("$suite" --profile smoke --list-groups | grep '^lookup/' | head -1)
	"$suite" --profile smoke --group "$g" --rounds 5 --pass 1/2 --benchmark_out="$tmp/p1.json" \
		--benchmark_out_format=json >/dev/null &&
		"$suite" --profile smoke --group "$g" --rounds 5 --pass 2/2 --benchmark_out="$tmp/p2.json" \
			--benchmark_out_format=json >/dev/null &&
		"$suite" --scenario L1-0pct-coldops --group all --filter 'lookup/(direct|default_ops)/' \
			--rounds 2 --sample-ms 0.2 --benchmark_out="$tmp/cold.json" \
			--benchmark_out_format=json >/dev/null || return 1
	"$py" - "$tmp/p1.json" "$tmp/p2.json" "$tmp/cold.json" <<'PY'
import json, sys
def rounds(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") == "iteration" and not b.get("error_occurred"):
            # Each process sizes its samples: iterations:N may differ between them.
            name = "/".join(p for p in b["name"].split("/")
                            if not p.startswith(("iterations:", "repeats:", "manual_time")))
            out.setdefault(name, []).append(b["round"])
            # Each sample names the process (--pass K) that took it.
            assert b["pass"] == float(path[-6]), (path, b["name"], b["pass"])
    return out
one, two = rounds(sys.argv[1]), rounds(sys.argv[2])
assert one and one.keys() == two.keys(), (sorted(one), sorted(two))
for n in one:
    assert sorted(one[n]) == [0, 1] and sorted(two[n]) == [2, 3, 4], (n, one[n], two[n])
cold = [b for b in json.load(open(sys.argv[3]))["benchmarks"] if b.get("run_type") == "iteration"]
assert len(cold) == 4 and all("/mode:cold/" in b["name"] for b in cold), [b["name"] for b in cold]
for b in cold:
    assert 0 <= b["interrupted_share"] < 0.5 and b["real_time"] < 1e5, b
PY
}

check "suite runs the smoke profile" smoke
check "suite --pass blocks cover the rounds once, samples name their block; cold samples count what they leave out" blocks_cover_the_rounds
check "suite refuses --pass 3/2, 0/1 and more blocks than rounds with exit 2" \
	bash -c "'$suite' --pass 3/2 --list-groups; [[ \$? == 2 ]] && { '$suite' --pass 0/1 --list-groups; [[ \$? == 2 ]]; } &&
		{ '$suite' --profile smoke --pass 4/4 --list-groups; [[ \$? == 2 ]]; }"
check "suite JSON parses and names every strategy" json_names_every_strategy
check "suite refuses an unknown flag with exit 2" exit_is 2 "$suite" --group calib --no-such-flag
check "suite refuses an unknown Google Benchmark flag with exit 2" \
	exit_is 2 "$suite" --group calib --benchmark_repetitons=3
check "suite refuses an unknown profile with exit 2" exit_is 2 "$suite" --profile fast --list-groups
check "suite refuses an unknown group with exit 2" exit_is 2 "$suite" --group nosuch
check "suite refuses a bad filter regex with exit 2" exit_is 2 "$suite" --list --filter '('
check "suite lists the quick profile's groups" \
	bash -c "[[ \$('$suite' --list-groups | wc -l) -ge 10 ]]"

finish "suite smoke"
