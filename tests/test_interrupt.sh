#!/usr/bin/env bash
# test_interrupt.sh - SIGINT and SIGTERM during a real `make bench` run stop
# it cleanly: the partial run folder is marked INCOMPLETE (and make report
# refuses it, saying why), and an earlier run is left exactly as it was.
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
	SUITE=$suite PROFILE=quick FILTER='calib/chase' RESULTS=$tmp/results scripts/bench.sh \
		>"$tmp/log.$sig" 2>&1 &
	pid=$!
	for _ in $(seq 100); do # wait until the first group is running
		grep -q '\[1/' "$tmp/log.$sig" && break
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
	if pgrep -f "$suite --profile quick --group" >/dev/null; then
		bad "SIG$sig: an opsbench-suite process is still running"
	else
		ok "SIG$sig: no benchmark process left running"
	fi
}

interrupt INT
interrupt TERM
after=$(cd "$tmp/results/earlier-run" && sha256sum ./* | sha256sum)
if [[ $before == "$after" && $(ls "$tmp/results/earlier-run" | wc -l) == 4 ]]; then
	ok "the earlier run is untouched"
else
	bad "the earlier run changed"
fi
finish "interrupt"
