#!/usr/bin/env bash
# bench.sh - run every group of a profile, one opsbench-suite process each,
# into a new folder results/<host>-<arch>-<yyyymmdd-hhmmss>/.
#
#   SUITE=path/to/opsbench-suite PROFILE=quick|full FILTER=regex [RESULTS=results]
#       [PASSES=N] [VARIANT_SUITES="retpoline=path/to/its/suite kcfi=..."]
#       [RUN_DIR_FILE=file: where to write the finished folder's path]
#       [DRIVER=path/to/opsbench-run: its --list --json goes to registry.json] scripts/bench.sh
#
# What a profile runs is the suite's table (opsbench-suite --list-profiles):
# its groups, and with VARIANT_SUITES (make bench's other builds: the
# Makefile's BENCH_VARIANTS) the groups those builds run
# (opsbench-suite --variant-build).  Each group of each build is its own
# processes: strategies are compared only with strategies of the same build.
#
# A lookup group's rounds are split into PASSES slices (default: the
# profile's, opsbench-suite --print-passes), each its own process
# (opsbench-suite --pass K/N): the run does slice 1 of every lookup group,
# then slice 2, and so on, so that each scenario's samples come from several
# processes spread over the whole run.  Why: docs/method.md#processes.
#
# The folder is built under a hidden temporary name and renamed when the run
# is complete, so an earlier run is never overwritten and a half-written one
# never looks finished.  On SIGINT/SIGTERM the partial folder is kept, renamed
# with an INCOMPLETE file that says why, and the script exits non-zero.
set -uo pipefail
cd "$(dirname "$0")/.."

suite=${SUITE:?SUITE must name the opsbench-suite binary}
results=${RESULTS:-results}
profile=${PROFILE:-quick}
filter=${FILTER:-}
py=/usr/bin/python3
[[ -x $py ]] || py=python3

# The profile's processes per lookup group, from the suite's table; exit 2: no such profile.
default_passes=$("$suite" --profile "$profile" --print-passes 2>/dev/null)
case $? in
0) ;;
2) echo "bench: PROFILE='$profile': expected quick or full (or smoke, for tests)" >&2; exit 2 ;;
*) echo "bench: $suite --print-passes failed: is SUITE an opsbench-suite?" >&2; exit 2 ;;
esac
passes=${PASSES:-$default_passes}
if [[ ! $passes =~ ^[1-9][0-9]?$ ]] || ((passes > 64)); then
	echo "bench: PASSES='$passes': expected a whole number, 1..64" >&2
	exit 2
fi
if ! "$suite" --profile "$profile" --pass "$passes/$passes" --list-groups >/dev/null; then
	exit 2
fi
if [[ -n $filter ]] && ! "$suite" --filter="$filter" --list-groups >/dev/null; then
	exit 2
fi

. scripts/run-folder.sh
claim_run_folder "$results"
mkdir "$tmp/parts" || exit 2

fail_after() { # what failed: mark the folder, publish it, exit 1
	echo "$1" >"$tmp/INCOMPLETE"
	publish
	echo "bench: $1; the run is in $final, marked INCOMPLETE" >&2
	exit 1
}

finish_incomplete() {
	# Ignore further signals until the end: a stopped make sends two (make
	# forwards one, watch_make sends another), and the default action of
	# the second killed the script half-way through, its run unpublished.
	trap '' INT TERM HUP QUIT
	if [[ -n $child ]]; then # the group's process: stop it and wait until it is gone
		kill -TERM "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	local by=$1
	[[ -s $tmp/.stopped-by ]] && by=$(<"$tmp/.stopped-by") && rm -f "$tmp/.stopped-by"
	printf 'interrupted by %s after %d of %d processes at %s\n' "$by" "$done" "${#jobs[@]}" \
		"$(date -Is)" >"$tmp/INCOMPLETE"
	publish
	echo "bench: interrupted by $by; the partial run is in $final, marked INCOMPLETE" >&2
	exit 130
}
done=0
groups=()
jobs=()
child=
trap 'finish_incomplete SIGINT' INT
trap 'finish_incomplete SIGTERM' TERM
trap 'finish_incomplete SIGHUP' HUP
trap 'finish_incomplete SIGQUIT' QUIT
watch_make "$tmp/.stopped-by"
trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null' EXIT

# The runs: a group and the suite (build) that runs it.
mapfile -t groups < <("$suite" --profile "$profile" --list-groups ${filter:+--filter="$filter"})
suites=()
labels=()
for g in "${groups[@]}"; do suites+=("$suite"); labels+=("$g"); done
for vs in ${VARIANT_SUITES:-}; do
	v=${vs%%=*}
	vsuite=${vs#*=}
	[[ -x $vsuite ]] || { echo "bench: the $v build's suite $vsuite is missing" >&2; rm -rf "$tmp"; exit 2; }
	while IFS= read -r g; do
		groups+=("$g")
		suites+=("$vsuite")
		labels+=("$g ($v build)")
	done < <("$vsuite" --profile "$profile" --variant-build --list-groups ${filter:+--filter="$filter"})
done
if ((${#groups[@]} == 0)); then
	echo "bench: no benchmark matches FILTER='$filter'" >&2
	rm -rf "$tmp"
	exit 2
fi
# The processes, in order: each group that is not a lookup group whole, then
# slice 1 of every lookup group, slice 2, ...  A job is "index-into-groups pass".
for i in "${!groups[@]}"; do
	[[ ${groups[$i]} == lookup/* ]] || jobs+=("$i 1/1")
done
for ((p = 1; p <= passes; p++)); do
	for i in "${!groups[@]}"; do
		[[ ${groups[$i]} == lookup/* ]] && jobs+=("$i $p/$passes")
	done
done

started=$(date +%s)
echo "bench: profile $profile, ${#groups[@]} groups (lookup groups in $passes slices each: ${#jobs[@]} processes), writing $final" >&2
"$py" scripts/meta.py --profile="$profile" --filter="$filter" --command="make bench PROFILE=$profile${filter:+ FILTER=$filter}" \
	>"$tmp/meta.json.part" && mv "$tmp/meta.json.part" "$tmp/meta.json" || fail_after "writing meta.json failed"
# The strategies and scenarios this build has (the report takes its baselines from it).
if [[ -n ${DRIVER:-} ]]; then
	"$DRIVER" --list --json >"$tmp/registry.json" || fail_after "writing registry.json failed"
fi

for j in "${!jobs[@]}"; do
	read -r i pass <<<"${jobs[$j]}"
	g=${groups[$i]}
	part=$(printf '%s/parts/%04d.json' "$tmp" "$j")
	label=${labels[$i]}
	[[ $pass == 1/1 ]] || label="$label, slice $pass"
	echo "bench: [$((j + 1))/${#jobs[@]}] $label ($(($(date +%s) - started)) s so far)" >&2
	"${suites[$i]}" --profile "$profile" --group "$g" --pass "$pass" ${filter:+--filter="$filter"} \
		--benchmark_out="$part.part" --benchmark_out_format=json >>"$tmp/console.txt" &
	child=$!
	wait "$child" || {
		rc=$?
		((rc > 128)) && wait # a signal: let the trap run
		echo "bench: group '$g' (slice $pass) failed (exit $rc); see $tmp/console.txt" >&2
		echo "group '$g' (slice $pass) failed with exit status $rc" >"$tmp/INCOMPLETE"
		publish
		exit 1
	}
	child=
	mv "$part.part" "$part"
	done=$((j + 1))
	export OPSBENCH_PMU_QUIET=1 # the first group said what the PMU cannot count
done

"$py" scripts/merge.py "$tmp/parts" "$tmp/benchmarks.json" || fail_after "merging the groups failed"
"$py" scripts/summary.py "$tmp" || fail_after "writing the summary failed"
elapsed=$(($(date +%s) - started))
"$py" scripts/meta.py --update="$tmp/meta.json" --elapsed="$elapsed" || fail_after "updating meta.json failed"
if [[ -n ${DRIVER:-} ]]; then # the builds' commit (the suites are built from the same tree as the driver)
	"$py" scripts/provenance.py --driver="$DRIVER" --tool="make bench" \
		--variant="$(echo ${OB_VARIANTS:-plain} | tr ' ' '+')" \
		-- "$tmp" benchmarks.json summary.md registry.json console.txt || fail_after "writing provenance.json failed"
fi
publish || { echo "bench: cannot rename $tmp to $final" >&2; exit 1; }
echo "bench: done in $elapsed s: $final" >&2
[[ -z ${RUN_DIR_FILE:-} ]] || echo "$final" >"$RUN_DIR_FILE"
