#!/usr/bin/env bash
# hyperfine.sh - every strategy as a whole process, timed by hyperfine, with
# a zero-lookup run of the same scenario so the setup can be subtracted.
#
#   DRIVER=... OUT=dir [RUNS=10] [LOOKUPS=2000000] [SCENARIO=L1-0pct-warm] scripts/hyperfine.sh
#
# SCENARIO is one of the driver's named scenarios; the strategies that can
# run it come from `opsbench-run --list --json` (scripts/registry.py).
#
# Writes OUT/hyperfine.json and OUT/hyperfine.md (hyperfine's own exports).
set -euo pipefail
driver=${DRIVER:?}
out=${OUT:?}
runs=${RUNS:-10}
lookups=${LOOKUPS:-2000000}
scenario_name=${SCENARIO:-L1-0pct-warm}
scenario="--scenario $scenario_name"

if ! command -v hyperfine >/dev/null; then
	echo "hyperfine: not installed (\`make hyperfine\` installs it with apt-get; install hyperfine by hand if that failed)" >&2
	exit 1
fi
. "$(dirname "$0")/run-folder.sh"
stop_on_signals hyperfine
cmds=(-n "setup only (0 lookups)" "$driver --no-pmu --strategy default_ops --lookups 0 $scenario")
strategies=$(python3 "$(dirname "$0")/registry.py" "$driver" strategies --scenario "$scenario_name") || exit 2
for s in $strategies; do
	cmds+=(-n "$s" "$driver --no-pmu --strategy $s --lookups $lookups $scenario")
done
run_child hyperfine -N --warmup 2 --runs "$runs" --export-json "$out/hyperfine.json.part" \
	--export-markdown "$out/hyperfine.md.part" "${cmds[@]}"
mv "$out/hyperfine.json.part" "$out/hyperfine.json"
mv "$out/hyperfine.md.part" "$out/hyperfine.md"
python3 "$(dirname "$0")/provenance.py" "$out" --driver "$driver" --tool "make hyperfine" \
	hyperfine.json hyperfine.md
finish_run_folder "$out"
