#!/usr/bin/env bash
# perf.sh - `perf stat` over opsbench-run for every strategy: the same six
# events as the in-process PMU layer, user space only, repeated, minus a
# zero-lookup run of the same scenario (the setup), per lookup.
#
#   DRIVER=... OUT=dir [REPEAT=5] [LOOKUPS=2000000] [SCENARIO=L1-0pct-warm] scripts/perf.sh [--check]
#
# --check: check REPEAT, LOOKUPS, DRIVER and SCENARIO and exit (make perf, before it picks a folder).
#
# SCENARIO is one of the driver's named scenarios, the strategies and the
# events are the driver's (`opsbench-run --list --json`, scripts/registry.py).
#
# OUT is checked first (a complete run, or the folder results-dir.sh made for
# it); REPEAT and LOOKUPS are whole numbers.  Writes OUT/perf.csv and
# OUT/perf.md (write_into: never through a link or outside OUT).  Where the machine cannot count (a VM
# without a PMU, perf_event_paranoid), it says so in one line, writes that
# line to OUT/perf.md, and points at `make cachesim`.
set -uo pipefail
driver=${DRIVER:?}
out=${OUT:-}
repeat=${REPEAT:-5}
lookups=${LOOKUPS:-2000000}
scenario_name=${SCENARIO:-L1-0pct-warm}
scenario=(--scenario "$scenario_name")
. "$(dirname "$0")/run-folder.sh"
whole_number REPEAT "$repeat" 1 1000
whole_number LOOKUPS "$lookups" 1 100000000000
check_driver_scenario perf "$driver" "$scenario_name"
[[ ${1:-} == --check ]] && exit 0
[[ -n $out ]] || { echo "perf: OUT=folder is required" >&2; exit 2; }
check_out_folder perf "$out"
stop_on_signals perf
here=$(dirname "$0")
strategies=$(python3 "$here/registry.py" "$driver" strategies --scenario "$scenario_name") || exit 2
events=$(python3 "$here/registry.py" "$driver" perf-events) || exit 2
events=$(sed 's/,/:u,/g; s/$/:u/' <<<"$events")

if ! command -v perf >/dev/null; then
	echo "perf: the perf tool is not installed (Debian: linux-perf); see make cachesim for simulated counts" >&2
	exit 1
fi
probe=$(perf stat -x, -e instructions:u true 2>&1 >/dev/null)
if ! grep -qE '^[0-9]+,' <<<"$probe"; then
	why=$(grep -m1 -oE '<not supported>|<not counted>|Permission|paranoid|No such|not supported' <<<"$probe" || true)
	msg="perf: hardware counters are not available here (${why:-perf stat failed}: a VM without a PMU, or perf_event_paranoid); make cachesim gives simulated instructions and cache misses"
	echo "$msg" >&2
	printf '## perf stat\n\n%s\n' "$msg" | write_into "$out" perf.md || exit 1
	python3 "$here/provenance.py" --driver="$driver" --tool "make perf" -- "$out" perf.md || exit 1
	finish_run_folder "$out"
	exit 0
fi

tmp=$(mktemp -d)
trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null; rm -f "$_stop_reason"; rm -rf "$tmp"' EXIT
stat() { # strategy lookups -> CSV "event,value" averaged over the repeats
	run_child perf stat -x, -r "$repeat" -e "$events" -o "$tmp/stat" -- \
		"$driver" --no-pmu --strategy "$1" --lookups "$2" "${scenario[@]}" >/dev/null || return 1
	awk -F, '$1 ~ /^[0-9.]+$/ { sub(/:u$/, "", $3); print $3 "," $1 }' "$tmp/stat"
}

echo "strategy,event,per_lookup,lookups,repeats,scenario" >"$tmp/perf.csv"
for s in $strategies; do
	echo "perf: $s" >&2
	stat "$s" "$lookups" >"$tmp/full" && stat "$s" 0 >"$tmp/setup" || {
		echo "perf: perf stat failed for $s" >&2
		exit 1
	}
	join -t, <(sort "$tmp/full") <(sort "$tmp/setup") |
		awk -F, -v s="$s" -v n="$lookups" -v r="$repeat" -v sc="${scenario[*]}" \
			'{ printf "%s,%s,%.4f,%d,%d,%s\n", s, $1, ($2 - $3) / n, n, r, sc }' >>"$tmp/perf.csv"
done
python3 - "$tmp/perf.csv" "${scenario[*]}" "$lookups" "$repeat" >"$tmp/perf.md" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
events = list(dict.fromkeys(r["event"] for r in rows))
strategies = list(dict.fromkeys(r["strategy"] for r in rows))
value = {(r["strategy"], r["event"]): r["per_lookup"] for r in rows}
print("## perf stat (per lookup, setup subtracted)\n")
print(f"Scenario: `{sys.argv[2]}`, {sys.argv[3]} lookups, {sys.argv[4]} repeats.\n")
print("| strategy | " + " | ".join(f"{e}/lookup" for e in events) + " |")
print("|---|" + "---|" * len(events))
for s in strategies:
    print(f"| {s} | " + " | ".join(value.get((s, e), "n/a") for e in events) + " |")
PY
write_into "$out" perf.csv <"$tmp/perf.csv" && write_into "$out" perf.md <"$tmp/perf.md" || exit 1
python3 "$here/provenance.py" --driver="$driver" --tool "make perf" -- "$out" perf.csv perf.md || exit 1
finish_run_folder "$out"
cat "$out/perf.md"
