#!/usr/bin/env bash
# results-dir.sh - print the results folder a tool should write into:
# $RUN if set (it must be a complete run, and not a committed one), else the
# newest complete run under results/ by the date its meta.json records
# (committed runs skipped), else a new folder made for the purpose (with meta.json),
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
# The one argument taken is --existing; anything else (--help included) is
# refused before anything is looked at or made.
if (($# > 1)) || [[ $# == 1 && $1 != --existing ]]; then
	echo "usage: [RUN=folder] [COMMAND='make TOOL'] scripts/results-dir.sh [--existing]" >&2
	exit 2
fi
cd "$(dirname "$0")/.."
py=/usr/bin/python3
[[ -x $py ]] || py=python3
# RUN: a complete run by the test every tool applies (scripts/runs.py check,
# lib/runfolder.check_run()), writable, and not a committed reference run
# unless WRITE_REFERENCE=1.
if [[ -n ${RUN:-} ]]; then
	if ! err=$("$py" scripts/runs.py check --writes -- "$RUN" 2>&1); then
		[[ $err == "$RUN: "* ]] || err="$RUN: $err"
		echo "RUN=$err" >&2
		exit 2
	fi
	echo "$RUN"
	exit 0
fi
# The newest run by the UTC date in its meta.json (not by its name, local
# time), skipping incomplete and committed runs; with --existing, a run of
# make bench (a folder made for one tool has no samples to report).
if newest=$("$py" scripts/runs.py newest ${1:+--existing} results); then
	echo "$newest"
	exit 0
fi
if [[ ${1:-} == --existing ]]; then
	echo "no complete run of make bench under results/: run make bench first, or give RUN=folder" >&2
	exit 2
fi
. scripts/run-folder.sh
claim_run_folder results
{
	echo "unfinished: ${COMMAND:-a tool} made this folder at $(date -Is) and has not finished"
	"$py" scripts/meta.py --profile none --command "${COMMAND:-}" >"$tmp/meta.json"
} >"$tmp/INCOMPLETE" && publish || {
	rm -rf -- "$tmp"
	echo "opsbench: cannot make a results folder under results/" >&2
	exit 1
}
echo "$final"
