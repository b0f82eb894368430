#!/usr/bin/env bash
# repro.sh - run the same lookup scenarios in two separate make-bench runs
# (each with its own processes, one run after the other) and print, per scenario
# and strategy, the paired ratio to the baseline in each run and their
# difference (scripts/repro.py), also written to the second run's repro.md.
#
#   SUITE=path/to/opsbench-suite [FILTER=regex] [PROFILE=quick] scripts/repro.sh
#
# FILTER defaults to the L1- and L2-sized lookup scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
py=/usr/bin/python3
[[ -x $py ]] || py=python3
export FILTER=${FILTER:-lookup/.*/size:(L1|L2)/}
runs=()
for i in 1 2; do
	file=$(mktemp)
	echo "repro: run $i of 2" >&2
	RUN_DIR_FILE=$file scripts/bench.sh >/dev/null || { rm -f "$file"; exit 1; }
	runs+=("$(cat "$file")")
	rm -f "$file"
done
"$py" scripts/repro.py "${runs[0]}" "${runs[1]}" --match '.' --out "${runs[1]}/repro.md"
