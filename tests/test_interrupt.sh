#!/usr/bin/env bash
# test_interrupt.sh - SIGINT, SIGTERM, SIGHUP and SIGQUIT during a real
# `make bench` run stop it cleanly: the partial run folder is marked
# INCOMPLETE (and make report refuses it, saying why), and an earlier run is
# left exactly as it was.  Two runs started in the same second get two
# folders, both complete.
#
#   OPSBENCH_SUITE=... tests/test_interrupt.sh
set -u
set -m # background jobs get their own process group, and SIGINT is not ignored
cd "$(dirname "$0")/.."
suite=${OPSBENCH_SUITE:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# An earlier, complete run that must survive untouched.
mkdir -p "$tmp/results/earlier-run"
cp tests/fixtures/report/supported/* "$tmp/results/earlier-run/"
before=$(cd "$tmp/results/earlier-run" && sha256sum ./* | sha256sum)

interrupt() { # signal
	local sig=$1 pid rc partial
	rm -rf "$tmp/results"/vm-* "$tmp/results"/*-*-2* 2>/dev/null
	# The calibration group takes seconds: long enough to be interrupted mid-group.
	SUITE=$suite PROFILE=standard FILTER='calib/chase' RESULTS=$tmp/results scripts/bench.sh \
		>"$tmp/log.$sig" 2>&1 &
	pid=$!
	for _ in $(seq 100); do # wait until the first group is running
		grep -q '] calib' "$tmp/log.$sig" && break
		sleep 0.1
	done
	sleep 1
	kill -"$sig" -- -"$pid"
	wait "$pid"
	rc=$?
	partial=$(ls -d "$tmp/results"/*-*-[0-9]* 2>/dev/null | grep -v earlier-run | head -n 1)
	if ((rc != 0)); then ok "SIG$sig: bench exits non-zero ($rc)"; else bad "SIG$sig: bench exited 0"; fi
	if [[ -n $partial && -f $partial/INCOMPLETE ]] && grep -q "interrupted by SIG$sig" "$partial/INCOMPLETE"; then
		ok "SIG$sig: the partial folder is marked: $(cat "$partial/INCOMPLETE")"
	else
		bad "SIG$sig: no INCOMPLETE folder (found '${partial:-nothing}'); log: $(tail -3 "$tmp/log.$sig")"
		return
	fi
	if ! ls -a "$tmp/results" | grep -q '^\..*\.tmp$'; then
		ok "SIG$sig: no hidden temporary folder left behind"
	else
		bad "SIG$sig: a temporary folder was left: $(ls -a "$tmp/results")"
	fi
	out=$(python3 scripts/report.py "$partial" --no-plots 2>&1)
	if [[ $? == 2 && $out == *"incomplete run"*"SIG$sig"* ]]; then
		ok "SIG$sig: the report refuses it: $out"
	else
		bad "SIG$sig: the report did not refuse it: $out"
	fi
	if pgrep -f "$suite --profile standard --group" >/dev/null; then
		bad "SIG$sig: an opsbench-suite process is still running"
	else
		ok "SIG$sig: no benchmark process left running"
	fi
}

# A signal this test's parent ignores (nohup ignores SIGHUP) is ignored in
# every process the test starts, and a shell cannot restore it: such a case
# is skipped, saying why, not failed.
ignored_here() { # signal name
	local mask
	mask=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status) # a child's: what the runs inherit
	(((16#$mask >> ($(kill -l "$1") - 1)) & 1))
}
unless_ignored() { # test-function signal [more arguments for it]
	if ignored_here "$2"; then
		echo "[  SKIPPED ] $1 SIG$2: SIG$2 is ignored by this test's parent (nohup?), so by every process it starts"
	else
		"$@"
	fi
}

unless_ignored interrupt INT
unless_ignored interrupt TERM
unless_ignored interrupt HUP
unless_ignored interrupt QUIT

# Two runs at once into one results folder: two complete folders, no data lost.
rm -rf "$tmp/results"/*-*-2* 2>/dev/null
for k in 1 2; do
	SUITE=$suite PROFILE=quick FILTER='calib/empty_loop' RESULTS=$tmp/results RUN_DIR_FILE=$tmp/run.$k \
		scripts/bench.sh >"$tmp/conc.$k" 2>&1 &
done
wait
d1=$(cat "$tmp/run.1" 2>/dev/null) d2=$(cat "$tmp/run.2" 2>/dev/null)
if [[ -n $d1 && -n $d2 && $d1 != "$d2" && -s $d1/benchmarks.json && -s $d2/benchmarks.json &&
	! -e $d1/INCOMPLETE && ! -e $d2/INCOMPLETE && ! -e $d1/$(basename "$d2") && ! -e $d2/$(basename "$d1") ]]; then
	ok "two concurrent runs: two complete folders ($(basename "$d1"), $(basename "$d2"))"
else
	bad "two concurrent runs: '$d1' and '$d2'; logs: $(tail -n 2 "$tmp/conc.1" "$tmp/conc.2")"
fi
# A signal to the make process alone (not its process group): make forwards
# SIGTERM only to its own child and waits for its children on SIGQUIT; the
# run must stop all the same, marked, with nothing left running.
make_interrupt() { # signal [what else: words for the messages]
	local sig=$1 what="${2:+ ($2)}" pid rc partial
	rm -rf "$tmp/results"/*-*-2* 2>/dev/null
	RESULTS=$tmp/results make --no-print-directory bench PROFILE=standard FILTER='calib/chase' \
		SUITE="$suite" TOOLS= BENCH_VARIANTS= LAYOUTS= >"$tmp/mlog.$sig" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		grep -q '] calib' "$tmp/mlog.$sig" && break
		sleep 0.1
	done
	sleep 0.5
	kill -"$sig" "$pid"
	for _ in $(seq 50); do # the run must be gone within seconds, not at its end
		pgrep -g "$pid" >/dev/null || break
		sleep 0.1
	done
	if pgrep -g "$pid" >/dev/null; then
		bad "SIG$sig to make$what: still running 5 s later: $(pgrep -a -g "$pid" | cut -c1-80 | tr '\n' ';')"
		kill -KILL -- -"$pid" 2>/dev/null
	else
		ok "SIG$sig to make$what: make, bench.sh and the suite are all gone"
	fi
	wait "$pid"
	rc=$?
	partial=$(ls -d "$tmp/results"/*-*-2* 2>/dev/null | head -n 1)
	if ((rc != 0)) && [[ -n $partial ]] && grep -q "interrupted by SIG$sig" "$partial/INCOMPLETE" 2>/dev/null; then
		ok "SIG$sig to make$what: exit $rc, the folder is marked: $(cat "$partial/INCOMPLETE")"
	else
		bad "SIG$sig to make$what: exit $rc, folder '${partial:-none}'; log: $(tail -3 "$tmp/mlog.$sig")"
	fi
}
unless_ignored make_interrupt TERM
unless_ignored make_interrupt QUIT
unless_ignored make_interrupt HUP
# A group process that takes 1.5 s to stop, longer than watch_make's poll:
# make's SIGTERM and the watcher's both reach bench.sh while it stops, and
# the second must not kill it before its folder is marked and renamed.
cat >"$tmp/slow-suite" <<SLOW
#!/usr/bin/env bash
trap 'sleep 1.5; kill \$c 2>/dev/null; exit 143' TERM
"$(realpath "$suite")" "\$@" &
c=\$!
wait \$c
SLOW
chmod +x "$tmp/slow-suite"
real_suite=$suite
suite=$tmp/slow-suite
unless_ignored make_interrupt TERM "a process slow to stop"
suite=$real_suite

# A Python tool whose make was stopped stops too and writes nothing more
# (compare_runs.py went on and wrote its file 8 s after SIGTERM to make).
/usr/bin/python3 tests/make_fixture.py big 300000 "$tmp/cmpA"
/usr/bin/python3 tests/make_fixture.py big 300000 "$tmp/cmpB"
make --no-print-directory compare A="$tmp/cmpA" B="$tmp/cmpB" >"$tmp/cmplog" 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
# It stops at its next Python instruction: a JSON parse of a large file
# finishes first, which takes seconds on a loaded machine.  Give it 30 s,
# then check that it is gone and wrote nothing.
for ((i = 0; i < 30; i++)); do
	pgrep -f "compare_runs.py -- $tmp/cmpA" >/dev/null || break
	sleep 1
done
sleep 1
if [[ -z $(ls "$tmp/cmpB" | grep compare-vs) ]] && ! pgrep -f "compare_runs.py -- $tmp/cmpA" >/dev/null; then
	ok "SIGTERM to make compare: compare_runs.py stopped and wrote nothing ($(tail -n 1 "$tmp/cmplog"))"
else
	bad "SIGTERM to make compare: $(ls "$tmp/cmpB" | grep compare-vs) $(pgrep -af compare_runs.py | head -n 1)"
	kill $(pgrep -f "compare_runs.py -- $tmp/cmpA") 2>/dev/null
fi

# The suite run by hand: a signal mid-run leaves the --benchmark_out file
# that was there as it was (Google Benchmark empties it when it starts; the
# suite gives it a part file instead: bench/outfile.c) and no part file.
suite_alone() { # signal
	local sig=$1 pid rc left
	mkdir -p "$tmp/own"
	echo '{"kept": true}' >"$tmp/own/out.json"
	"$suite" --group calib --benchmark_out="$tmp/own/out.json" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	left=$(ls "$tmp/own")
	if [[ $rc == 130 && $(cat "$tmp/own/out.json") == '{"kept": true}' && $left == out.json ]]; then
		ok "SIG$sig to opsbench-suite: exit 130, its --benchmark_out file as it was, no part file"
	else
		bad "SIG$sig to opsbench-suite: exit $rc, folder: $left, out.json: $(head -c 80 "$tmp/own/out.json")"
	fi
}
unless_ignored suite_alone INT
unless_ignored suite_alone TERM
unless_ignored suite_alone HUP

after=$(cd "$tmp/results/earlier-run" && sha256sum ./* | sha256sum)
if [[ $before == "$after" && $(ls "$tmp/results/earlier-run" | wc -l) == 4 ]]; then
	ok "the earlier run is untouched"
else
	bad "the earlier run changed"
fi
finish "interrupt"
