#!/usr/bin/env bash
# test_kernel_walk.sh - the running kernel's path walk (bench/kernel.c): it
# measures every depth of both working sets, leaves no directory behind (at
# exit and on SIGTERM), and a host that refuses it is named, the run going on.
#
#   OPSBENCH_SUITE=build/x86_64-gcc/bin/opsbench-suite tests/test_kernel_walk.sh
set -u
cd "$(dirname "$0")/.."
suite=${OPSBENCH_SUITE:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
export OPSBENCH_WALK_DIR=$tmp/walk
mkdir "$tmp/walk"
fast=(--benchmark_repetitions=2 --benchmark_min_time=0.001)

measured() {
	timeout 120 "$suite" --group kernel "${fast[@]}" --benchmark_out="$tmp/k.json" >/dev/null 2>&1 || return 1
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
runs = [b for b in d["benchmarks"] if b.get("run_type") == "iteration"]
names = {b["name"].split("/repeats")[0] for b in runs}
assert len(names) == 14, names
assert all(b["failed_calls"] == 0 and b["label"] for b in runs)
assert {b["trees"] * b["depth"] for b in runs if "set:cold" in b["name"]} <= {b["directories_walked"] for b in runs}' "$tmp/k.json" &&
		[[ -z $(ls -A "$tmp/walk") ]]
}
check "kernel: 14 benchmarks (2 working sets, 7 depths), no failed call, the trees removed at exit" measured

stopped() {
	timeout 120 "$suite" --group kernel >/dev/null 2>&1 &
	local pid=$! n=0
	while [[ -z $(ls -A "$tmp/walk") ]] && ((n++ < 100)); do sleep 0.05; done
	sleep 0.3
	kill -TERM "$pid"
	wait "$pid"
	[[ -z $(ls -A "$tmp/walk") ]]
}
check "kernel: SIGTERM while it measures removes the trees" stopped

piped() { # make bench ... | head: SIGPIPE, not a signal anyone sends by hand
	timeout 120 "$suite" --group kernel | head -n 1 >/dev/null
	[[ -z $(ls -A "$tmp/walk") ]]
}
check "kernel: a closed output (SIGPIPE) removes the trees" piped

long_dir() { # a walk directory far longer than a short buffer would take
	local d=$tmp/walk/$(printf 'd%.0s' $(seq 200))
	mkdir "$d" && OPSBENCH_WALK_DIR=$d timeout 120 "$suite" --group kernel "${fast[@]}" \
		--benchmark_out="$tmp/long.json" >/dev/null 2>&1 &&
		grep -q '"failed_calls": 0' "$tmp/long.json" && rmdir "$d"
}
check "kernel: a 200-byte walk directory is measured and left empty" long_dir

refused() {
	local out
	out=$(OPSBENCH_WALK_DIR=$tmp/nonexistent "$suite" --group kernel "${fast[@]}" 2>&1 >/dev/null) || return 1
	grep -q "the running kernel's path walk is left out: .*no directory for its trees in $tmp/nonexistent" <<<"$out"
}
check "kernel: no directory for the trees: one line naming it, exit 0 (make bench goes on)" refused

finish "kernel walk"
