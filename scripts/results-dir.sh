#!/usr/bin/env bash
# results-dir.sh - print the results folder a tool should write into:
# $RUN if set (it must exist and be complete), else the newest complete run
# under results/, else a new folder made for the purpose (with meta.json),
# unless --existing is given (then no run at all is an error).
#
#   dir=$(COMMAND='make cachesim' scripts/results-dir.sh [--existing])
#
# Exit 2 with a message naming RUN when RUN is bad.  A new folder is made
# the one way every run folder is (scripts/run-folder.sh: an atomic claim,
# then a rename) and holds an INCOMPLETE file whose first line starts with
# "unfinished:" until the tool that asked for it succeeds and removes it
# (lib/plumbing.py finish_run(), or finish_run_folder): a tool that fails or is
# stopped leaves a folder that no later command takes for a complete run.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${RUN:-} ]]; then
	if [[ ! -d $RUN ]]; then
		echo "RUN=$RUN: no such results folder" >&2
		exit 2
	fi
	if [[ -e $RUN/INCOMPLETE ]]; then
		echo "RUN=$RUN: an incomplete run ($(head -n 1 "$RUN/INCOMPLETE")); choose a complete one" >&2
		exit 2
	fi
	echo "$RUN"
	exit 0
fi
# Newest by the name's timestamp (<host>-<arch>-<yyyymmdd>-<hhmmss>[-N]); hosts may hold dashes.
newest=$(for d in results/*-*-[0-9]*-[0-9]*; do
	[[ -d $d && ! -e $d/INCOMPLETE ]] || continue
	stamp=$(sed -nE 's/.*-([0-9]{8})-([0-9]{6})(-([0-9]+))?(-r[0-9]+)?$/\1\2 \4/p' <<<"$d")
	[[ -n $stamp ]] && echo "$stamp $d"
done | sort -k1,1n -k2,2n | tail -n 1 | awk '{ print $NF }')
if [[ -n $newest ]]; then
	echo "$newest"
	exit 0
fi
if [[ ${1:-} == --existing ]]; then
	echo "no complete results folder under results/: run make bench first, or give RUN=folder" >&2
	exit 2
fi
. scripts/run-folder.sh
claim_run_folder results
py=/usr/bin/python3
[[ -x $py ]] || py=python3
{
	echo "unfinished: ${COMMAND:-a tool} made this folder at $(date -Is) and has not finished"
	"$py" scripts/meta.py --profile none --command "${COMMAND:-}" >"$tmp/meta.json"
} >"$tmp/INCOMPLETE" && publish || {
	rm -rf -- "$tmp"
	echo "opsbench: cannot make a results folder under results/" >&2
	exit 1
}
echo "$final"
