#!/usr/bin/env bash
# hyperfine.sh - every strategy as a whole process, timed by hyperfine, with
# a zero-lookup run of the same scenario so the setup can be subtracted.
#
#   DRIVER=... OUT=dir [RUNS=10] [LOOKUPS=2000000] [SCENARIO=L1-0pct-warm] scripts/hyperfine.sh [--check]
#
# --check: check RUNS, LOOKUPS, DRIVER and SCENARIO and exit (make hyperfine, before it picks a folder).
#
# SCENARIO is one of the driver's named scenarios; the strategies that can
# run it come from `opsbench-run --list --json` (scripts/registry.py).
#
# OUT is checked first (a complete run, or the folder results-dir.sh made for
# it); RUNS and LOOKUPS are whole numbers.  Writes OUT/hyperfine.json and
# OUT/hyperfine.md (hyperfine's own exports, made in a temporary folder and
# moved in by write_into: a failed run leaves no part file in OUT).
set -euo pipefail
driver=${DRIVER:?}
out=${OUT:-}
runs=${RUNS:-10}
lookups=${LOOKUPS:-2000000}
scenario_name=${SCENARIO:-L1-0pct-warm}
scenario="--scenario $scenario_name"

. "$(dirname "$0")/run-folder.sh"
whole_number RUNS "$runs" 1 1000
whole_number LOOKUPS "$lookups" 1 100000000000
check_driver_scenario hyperfine "$driver" "$scenario_name"
[[ ${1:-} == --check ]] && exit 0
[[ -n $out ]] || { echo "hyperfine: OUT=folder is required" >&2; exit 2; }
if ! command -v hyperfine >/dev/null; then
	echo "hyperfine: not installed (\`make hyperfine\` installs it with apt-get; install hyperfine by hand if that failed)" >&2
	exit 1
fi
check_out_folder hyperfine "$out"
stop_on_signals hyperfine
tmp=$(mktemp -d)
trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null; rm -f "$_stop_reason"; rm -rf "$tmp"' EXIT
cmds=(-n "setup only (0 lookups)" "$driver --no-pmu --strategy default_ops --lookups 0 $scenario")
strategies=$(python3 "$(dirname "$0")/registry.py" "$driver" strategies --scenario "$scenario_name") || exit 2
for s in $strategies; do
	cmds+=(-n "$s" "$driver --no-pmu --strategy $s --lookups $lookups $scenario")
done
# hyperfine exports into a private folder; write_into moves them into OUT.
run_child hyperfine -N --warmup 2 --runs "$runs" --export-json "$tmp/hyperfine.json" \
	--export-markdown "$tmp/hyperfine.md" "${cmds[@]}"
write_into "$out" hyperfine.json <"$tmp/hyperfine.json"
write_into "$out" hyperfine.md <"$tmp/hyperfine.md"
python3 "$(dirname "$0")/provenance.py" --driver="$driver" --tool "make hyperfine" -- "$out" \
	hyperfine.json hyperfine.md
finish_run_folder "$out"
