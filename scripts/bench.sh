#!/usr/bin/env bash
# bench.sh - run every group of a profile, one opsbench-suite process per
# group or block, into a new folder results/<host>-<arch>-<yyyymmdd-hhmmss>/.
#
#   SUITE=path/to/opsbench-suite PROFILE=quick|standard|full FILTER=regex [RESULTS=results]
#       [PASSES=N] [BUDGET=seconds] [VARIANT_SUITES="retpoline=path/to/its/suite kcfi=..."]
#       [RUN_DIR_FILE=file: where to write the finished folder's path]
#       [DRIVER=path/to/opsbench-run: its --list --json goes to registry.json] scripts/bench.sh
#
# What a profile runs is the suite's table (opsbench-suite --list-profiles):
# its groups, and with VARIANT_SUITES (make bench's other builds) the groups
# those builds run (opsbench-suite --variant-build).  Each group of each
# build is its own processes: strategies are compared only with strategies
# of the same build.
#
# A lookup group runs in blocks (opsbench-suite --pass K/N: a few rounds,
# one process each), in sweeps: one block of every open group, then the
# next, so that each group's blocks are spread over the whole run.  After
# the profile's minimum of blocks, a group stops when every ratio of it is
# pinned (scripts/blocks.py), when it has had PASSES blocks (the profile's
# cap by default), or when the lookup groups have taken BUDGET seconds (the
# profile's; 0: none); each sweep runs the open groups widest interval
# first.  Each block runs under a layout of its own (OB_LAYOUTS, below).
# Why: docs/method.md#blocks.
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
if [[ $filter == *[[:cntrl:]]* ]]; then
	echo "bench: FILTER holds a control character (a newline?): benchmark names have none" >&2
	exit 2
fi
py=/usr/bin/python3
[[ -x $py ]] || py=python3

# The profile's schedule, from the suite's table; exit 2: no such profile.
schedule=$("$suite" --profile "$profile" --print-schedule 2>/dev/null)
case $? in
0) ;;
2) echo "bench: PROFILE='$profile': expected quick, standard or full (or smoke, for tests)" >&2; exit 2 ;;
*) echo "bench: $suite --print-schedule failed: is SUITE an opsbench-suite?" >&2; exit 2 ;;
esac
read -r default_passes min_blocks target_pct default_budget <<<"$schedule"
passes=${PASSES:-$default_passes}
if [[ ! $passes =~ ^[0-9]{1,6}$ ]] || ((10#$passes < 1 || 10#$passes > 64)); then
	echo "bench: PASSES='$passes': expected a whole number, 1..64" >&2
	exit 2
fi
passes=$((10#$passes)) # decimal, as BUDGET: 08 is 8
budget=${BUDGET:-$default_budget}
if [[ ! $budget =~ ^[0-9]{1,6}$ ]]; then
	echo "bench: BUDGET='$budget': expected a whole number of seconds (0: no limit)" >&2
	exit 2
fi
budget=$((10#$budget)) # decimal, as meta.json records it: 08 is 8, not an octal error
((min_blocks > passes)) && min_blocks=$passes
# Each block opens a handful of files and pipes; a limit below this fails
# half-way through, with messages that do not name it.
nofile=$(ulimit -n)
if [[ $nofile != unlimited ]] && ((nofile < 64)); then
	echo "bench: ulimit -n $nofile: too few open files for make bench (it needs at least 64)" >&2
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
. scripts/progress.sh

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
	trap '' INT TERM HUP QUIT PIPE
	if [[ -n $child ]]; then # the group's process: stop it and wait until it is gone
		kill -TERM "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	local by=$1
	[[ -s $tmp/.stopped-by ]] && by=$(<"$tmp/.stopped-by") && rm -f "$tmp/.stopped-by"
	printf 'interrupted by %s after %d processes at %s\n' "$by" "$done" \
		"$(date -Is)" >"$tmp/INCOMPLETE"
	publish
	echo "bench: interrupted by $by; the partial run is in $final, marked INCOMPLETE" >&2
	exit 130
}
done=0
groups=()
child=
trap 'finish_incomplete SIGINT' INT
trap 'finish_incomplete SIGTERM' TERM
trap 'finish_incomplete SIGHUP' HUP
trap 'finish_incomplete SIGQUIT' QUIT
# A closed output (make bench | head): marked and published like a signal.
trap 'finish_incomplete SIGPIPE' PIPE
watch_make "$tmp/.stopped-by"
trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null' EXIT

# The runs: a group and the suite (build) that runs it.  A listing that
# fails (no memory, no file descriptor left) stops the run with its reason,
# not as a filter that matched nothing.
list_groups() { # SUITE [FLAG]: its groups, one a line
	local out rc=0
	out=$("$1" --profile "$profile" ${2:+"$2"} --list-groups ${filter:+--filter="$filter"}) || rc=$?
	if ((rc)) && ((rc != 2)); then
		echo "bench: $1 --list-groups failed (exit status $rc)" >&2
		rm -rf "$tmp"
		exit 1
	fi
	[[ -z $out ]] || printf '%s\n' "$out"
}
groups_out=$(list_groups "$suite") || exit
[[ -z $groups_out ]] || mapfile -t groups <<<"$groups_out"
suites=()
labels=()
for g in "${groups[@]}"; do suites+=("$suite"); labels+=("$g"); done
for vs in ${VARIANT_SUITES:-}; do
	v=${vs%%=*}
	vsuite=${vs#*=}
	[[ -x $vsuite ]] || { echo "bench: the $v build's suite $vsuite is missing" >&2; rm -rf "$tmp"; exit 2; }
	groups_out=$(list_groups "$vsuite" --variant-build) || exit
	[[ -n $groups_out ]] || continue
	while IFS= read -r g; do
		groups+=("$g")
		suites+=("$vsuite")
		labels+=("$g ($v build)")
	done <<<"$groups_out"
done
if ((${#groups[@]} == 0)); then
	echo "bench: no benchmark matches FILTER='$filter'" >&2
	rm -rf "$tmp"
	exit 2
fi
started=$(date +%s)
lookups=()
for i in "${!groups[@]}"; do [[ ${groups[$i]} == lookup/* ]] && lookups+=("$i"); done
limit=
((budget)) && limit=", the lookup groups within $budget s"
echo "bench: profile $profile, ${#groups[@]} groups; ${#lookups[@]} lookup groups in blocks (at least $min_blocks," \
	"at most $passes each, until each ratio is within +-$target_pct%$limit), writing $final" >&2
"$py" scripts/meta.py --profile="$profile" --filter="$filter" --pin-target="$target_pct" --command="make bench PROFILE=$profile${filter:+ FILTER=$filter}${OB_LINK_ORDER:+ LINK_ORDER=$OB_LINK_ORDER}" \
	>"$tmp/meta.json.part" && mv "$tmp/meta.json.part" "$tmp/meta.json" || fail_after "writing meta.json failed"
# The strategies and scenarios this build has (the report takes its baselines from it).
if [[ -n ${DRIVER:-} ]]; then
	"$DRIVER" --list --json >"$tmp/registry.json" || fail_after "writing registry.json failed"
fi

# The layouts a lookup block runs under (docs/method.md#the-layout): block
# K takes code layout (K-1) mod L (layout N > 0 is the binary
# opsbench-suite-layoutN) and stack layout ((K-1) + (K-1)/L) mod L, so that
# L*L blocks see every pair once.  Each stack layout starts the measured
# code's stack 7 cache lines and 16 bytes lower than the last.
read -r -a layouts <<<"${OB_LAYOUTS:-0}"
STACK_STEP=464
code_layout() { echo "${layouts[$((($1 - 1) % ${#layouts[@]}))]}"; }
stack_offset() { echo $(((($1 - 1 + ($1 - 1) / ${#layouts[@]}) % ${#layouts[@]}) * STACK_STEP)); }

# run_block I K N: group I's block K of N (1/1: a group that is not a
# lookup group, run in the usual layout), into parts/I/K.json; one line of
# parts/schedule.tsv.
run_block() {
	local i=$1 k=$2 n=$3 g=${groups[$1]} dir="$tmp/parts/$1" t0 t1 rc bin=${suites[$1]} offset=0 c=0
	mkdir -p "$dir" || fail_after "cannot create $dir"
	if ((n > 1)); then
		c=$(code_layout "$k")
		offset=$(stack_offset "$k")
	fi
	((c)) && bin+=-layout$c
	[[ -x $bin ]] || fail_after "the layout suite $bin is missing (make suite builds it)"
	t0=$(date +%s.%N)
	"$bin" --profile "$profile" --group "$g" --pass "$k/$n" --stack-offset "$offset" ${filter:+--filter="$filter"} \
		--benchmark_out="$dir/$k.json.part" --benchmark_out_format=json >>"$tmp/console.txt" 2>"$dir/$k.err" &
	child=$!
	wait "$child" || {
		# A signal to this script has run its trap by now (bash runs it as
		# the wait returns), which exits; here the suite itself failed or
		# was killed (a crash, the OOM killer, a CPU limit).  No bare
		# `wait`: it would wait for the progress watcher, forever.
		rc=$?
		local how="exit status $rc"
		((rc > 128)) && how="signal $((rc - 128)) (SIG$(kill -l $((rc - 128)) 2>/dev/null || echo '?'))"
		child=
		progress_done
		grep -v '^\[[0-9]*/[0-9]*\] ' "$dir/$k.err" | tail -5 >&2
		echo "group '$g' (block $k/$n) failed: the suite ended with $how" >"$tmp/INCOMPLETE"
		publish
		echo "bench: group '$g' (block $k/$n) failed: $how; the run is in $final, marked INCOMPLETE" \
			"(see its console.txt)" >&2
		exit 1
	}
	child=
	# The suite's own lines (its progress per benchmark) go to the console file;
	# what else it said (a note on the PMU, a skipped benchmark) to stderr too.
	grep -v '^\[[0-9]*/[0-9]*\] ' "$dir/$k.err" >&2
	cat "$dir/$k.err" >>"$tmp/console.txt" && rm -f "$dir/$k.err"
	t1=$(date +%s.%N)
	mv "$dir/$k.json.part" "$dir/$k.json"
	printf '%s\t%s\t%s\t%s\t%s\n' "$i" "$k" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
		"${labels[$i]}" >>"$tmp/parts/schedule.tsv"
	done=$((done + 1))
	export OPSBENCH_PMU_QUIET=1 # the first group said what the PMU cannot count
}

# The groups that are not lookup groups, whole; the running kernel's walk in
# KERNEL_BLOCKS processes, its interval taken over them (one process's
# repetitions do not see what moves between processes: docs/method.md).
KERNEL_BLOCKS=3
for i in "${!groups[@]}"; do
	[[ ${groups[$i]} == lookup/* ]] && continue
	n=1
	[[ ${groups[$i]} == kernel ]] && n=$KERNEL_BLOCKS
	for ((k = 1; k <= n; k++)); do
		progress "${labels[$i]}$( ((n == 1)) || echo ", block $k/$n")" "$(($(date +%s) - started))" ""
		run_block "$i" "$k" "$n"
	done
done

# The lookup groups in sweeps: block k of every open group, until each is
# pinned, capped or the budget spent.
open=("${lookups[@]}")
declare -A blocks=() status=()
lookup_start=$(date +%s)
for ((k = 1; k <= passes && ${#open[@]}; k++)); do
	for i in "${open[@]}"; do
		spent=$(($(date +%s) - lookup_start))
		if ((budget && spent >= budget && k > min_blocks)); then
			status[$i]=budget
			continue
		fi
		progress "${labels[$i]}, block $k" "$(($(date +%s) - started))" \
			"$(eta "$spent" "$k" "${#open[@]}")"
		run_block "$i" "$k" "$passes"
		blocks[$i]=$k
	done
	((k < min_blocks)) && continue
	# Widest first: when the budget runs out within a sweep, the groups
	# furthest from pinned have had their block.
	judged=$("$py" scripts/blocks.py "$tmp/parts" --target "$target_pct" --min "$min_blocks" "${open[@]}" |
		sort -s -k3,3gr; exit "${PIPESTATUS[0]}") || fail_after "judging the blocks failed"
	next=()
	while read -r i kept widest state; do
		[[ ${status[$i]:-} == budget ]] && continue
		status[$i]=$state
		[[ $state == open ]] && ((k < passes)) && next+=("$i")
	done <<<"$judged"
	open=("${next[@]}")
	spent=$(($(date +%s) - lookup_start))
	if ((budget && spent >= budget)); then # the time is up: what is still open ends here
		for i in "${open[@]}"; do status[$i]=budget; done
		open=()
	fi
done
progress_done
echo "bench: lookup groups done in $(($(date +%s) - lookup_start)) s" >&2

for i in "${lookups[@]}"; do
	printf '%s\t%s\t%s\t%s\n' "$i" "${blocks[$i]:-0}" "${status[$i]:-open}" "${labels[$i]}"
done >"$tmp/parts/groups.tsv"
"$py" scripts/merge.py "$tmp/parts" "$tmp/benchmarks.json" || fail_after "merging the groups failed"
"$py" scripts/meta.py --update="$tmp/meta.json" --elapsed="$(($(date +%s) - started))" \
	--schedule="$tmp/parts" --budget="$budget" || fail_after "updating meta.json failed"
rm -rf "$tmp/parts"
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
