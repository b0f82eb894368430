# run-folder.sh - the one way a results folder is made (sourced by bench.sh
# and results-dir.sh; bash).
#
#   . scripts/run-folder.sh
#   claim_run_folder RESULTS   # sets $tmp (hidden, ours alone) and $final
#   ... write into $tmp ...
#   publish                    # rename $tmp to $final (or $final-rN)
#
# A name is claimed with one mkdir of a hidden folder, which fails if another
# run holds it: two runs started in the same second get two folders, and no
# folder is ever created with mkdir -p after a check.  publish renames with
# mv -T, which never enters or replaces a non-empty folder that a concurrent
# run published meanwhile: it takes the next free name instead.

# claim_run_folder RESULTS: exit 2 with a message naming RESULTS when no
# folder can be made there.
claim_run_folder() {
	local results=$1 host name n suffix=
	# A name that starts with '-' would read as an option to every tool
	# that later gets a path under it (mkdir, mv, rm, cat).
	[[ $results == -* ]] && results=./$results
	if ! mkdir -p -- "$results" 2>/dev/null || [[ ! -d $results || ! -w $results ]]; then
		echo "opsbench: RESULTS=$results: cannot create a run folder there (not a writable directory)" >&2
		exit 2
	fi
	host=$(hostname -s 2>/dev/null || hostname)
	name="$host-$(uname -m)-$(date +%Y%m%d-%H%M%S)"
	for ((n = 1; n < 1000; n++)); do
		((n > 1)) && suffix=-$n
		final="$results/$name$suffix"
		tmp="$results/.$(basename -- "$final").tmp"
		[[ -e $final ]] && continue
		mkdir -- "$tmp" 2>/dev/null && return 0
		[[ -e $tmp ]] && continue
		break
	done
	echo "opsbench: RESULTS=$results: cannot create a run folder there" >&2
	exit 2
}

# publish: rename $tmp to its final name; 1 if it cannot.
publish() {
	local n=2 base=$final
	until mv -T -- "$tmp" "$final" 2>/dev/null; do
		[[ -e $tmp ]] || return 1
		final="$base-r$n"
		n=$((n + 1))
		((n < 100)) || return 1
	done
}

# watch_make REASON_FILE: start a watcher (in the background; its pid in
# $watcher) that stops this script with SIGTERM, after writing why to
# REASON_FILE, when a make above it ends or takes a fatal signal.  Needed
# because make forwards only SIGTERM, and only to its own child (a recipe's
# shell, which then dies and leaves this script orphaned), and on SIGINT,
# SIGHUP or SIGQUIT sent to it alone it waits for its children to finish.
# make catches the four signals and its handler first resets the one it took
# to the default action: the watcher sees that in /proc/PID/status (SigCgt).
# It looks once a second; scripts not run from make watch nothing.
watch_make() {
	local reason_file=$1 pid=$PPID name ppid cgt pids=() cgts=()
	while [[ -r /proc/$pid/status ]]; do
		name=$(awk '$1 == "Name:" { print $2 }' "/proc/$pid/status")
		case "$name" in
		make | gmake)
			pids+=("$pid")
			cgts+=("$(awk '$1 == "SigCgt:" { print $2 }' "/proc/$pid/status")") ;;
		sh | dash | bash) ;;
		*) break ;;
		esac
		ppid=$(awk '$1 == "PPid:" { print $2 }' "/proc/$pid/status")
		((ppid > 1)) || break
		pid=$ppid
	done
	watcher=
	((${#pids[@]})) || return 0
	(
		trap - INT TERM HUP QUIT
		local i s bit why sigs=(HUP:1 INT:2 QUIT:3 TERM:15)
		while kill -0 $$ 2>/dev/null; do
			sleep 1
			for i in "${!pids[@]}"; do
				why=
				cgt=$(awk '$1 == "SigCgt:" { print $2 }' "/proc/${pids[$i]}/status" 2>/dev/null)
				if [[ -z $cgt ]]; then
					why="make (pid ${pids[$i]}) ended"
				elif [[ $cgt != "${cgts[$i]}" ]]; then
					for s in "${sigs[@]}"; do
						bit=$((1 << (${s#*:} - 1)))
						if (((0x${cgts[$i]} & bit) && !(0x$cgt & bit))); then
							why="SIG${s%:*} to make (pid ${pids[$i]})"
						fi
					done
					[[ -n $why ]] || { cgts[$i]=$cgt; continue; }
				else
					continue
				fi
				echo "$why" >"$reason_file"
				kill -TERM $$ 2>/dev/null
				exit 0
			done
		done
	) &
	watcher=$!
}

# The Python the helpers below run (the system's, not a version manager's).
_rf_py=/usr/bin/python3
[[ -x $_rf_py ]] || _rf_py=python3
_rf_runs="$(dirname "${BASH_SOURCE[0]}")/runs.py"

# check_out_folder NAME DIR: exit 2 with one line unless DIR is a complete run
# a tool may write into, or the folder results-dir.sh made for this tool
# (scripts/runs.py check: the test every tool applies).
check_out_folder() {
	local err
	err=$("$_rf_py" "$_rf_runs" check --writes --tool -- "$2" 2>&1) || {
		[[ $err == "$2: "* ]] || err="$2: ${err:-not a results folder to write into}"
		echo "$1: OUT=$err" >&2
		exit 2
	}
}

# write_into DIR NAME < DATA: DATA into DIR/NAME the one safe way
# (lib/plumbing.write_atomic(): a part file made O_EXCL|O_NOFOLLOW, never
# through a symbolic link or outside DIR, every write and the size checked).
write_into() {
	"$_rf_py" "$_rf_runs" write -- "$1" "$2"
}

# whole_number NAME VALUE MIN MAX: exit 2 with one line unless VALUE is a
# whole number in MIN..MAX (a make variable checked before it is used).
whole_number() {
	if [[ ! $2 =~ ^[0-9]{1,12}$ ]] || ((10#$2 < $3 || 10#$2 > $4)); then
		echo "${0##*/}: $1='$2': expected a whole number, $3..$4" >&2
		exit 2
	fi
}

# finish_run_folder DIR: a tool that results-dir.sh made DIR for has
# succeeded: remove the "unfinished:" marker (and only that one).
finish_run_folder() {
	if [[ -f $1/INCOMPLETE ]] && head -n 1 "$1/INCOMPLETE" | grep -q '^unfinished:'; then
		rm -f -- "$1/INCOMPLETE"
	fi
}

# stop_on_signals NAME: INT, TERM, HUP and QUIT (and a stopped make, through
# watch_make) end this script: its running child (run_child) is stopped and
# waited for, then NAME says why and the script exits 130.  A folder made
# for it keeps its "unfinished:" marker.
stop_on_signals() {
	local s
	_stop_name=$1
	_child=
	for s in INT TERM HUP QUIT; do
		trap "_stop SIG$s" "$s"
	done
	_stop_reason=$(mktemp)
	watch_make "$_stop_reason"
	trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null; rm -f "$_stop_reason"' EXIT
}
_stop() {
	local by=$1
	# Ignore further signals until the end: a stopped make sends two (make
	# forwards one, watch_make sends another), and the default action of
	# the second could kill the script before its child was stopped.
	trap '' INT TERM HUP QUIT
	[[ -s $_stop_reason ]] && by=$(<"$_stop_reason")
	if [[ -n $_child ]]; then
		kill -TERM "$_child" 2>/dev/null
		wait "$_child" 2>/dev/null
	fi
	echo "$_stop_name: interrupted by $by" >&2
	exit 130
}
# run_child CMD...: run CMD in the background and wait for it (bash runs a
# trap only between commands, or during wait), with the caller's stdin.
run_child() {
	local rc
	"$@" <&0 &
	_child=$!
	wait "$_child"
	rc=$?
	_child=
	return $rc
}

# check_driver_scenario TOOL DRIVER SCENARIO: the driver is an executable
# file and names SCENARIO in its own registry (opsbench-run --list --json),
# checked before make picks (or makes) a results folder; exits 2 if not.
check_driver_scenario() {
	local tool=$1 driver=$2 scenario=$3 err
	if [[ ! -f $driver || ! -x $driver ]]; then
		echo "$tool: DRIVER=$driver: not an executable file (make builds it: make tools)" >&2
		exit 2
	fi
	if ! err=$(python3 "$(dirname "${BASH_SOURCE[0]}")/registry.py" "$driver" scenario "$scenario" 2>&1 >/dev/null); then
		echo "$tool: SCENARIO=$scenario: ${err#registry: }" >&2
		exit 2
	fi
}
