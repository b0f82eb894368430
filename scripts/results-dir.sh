#!/usr/bin/env bash
# results-dir.sh - print the results folder a tool should write into:
# $RUN if set (it must exist), else the newest complete run under results/,
# else a new folder (with meta.json) made for the purpose, unless --existing
# is given (then no run at all is an error).
#
#   dir=$(scripts/results-dir.sh [--existing])   # exit 2 with a message if RUN is bad
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${RUN:-} ]]; then
	if [[ ! -d $RUN ]]; then
		echo "RUN=$RUN: no such results folder" >&2
		exit 2
	fi
	if [[ -e $RUN/INCOMPLETE ]]; then
		echo "RUN=$RUN: an incomplete run ($(cat "$RUN/INCOMPLETE")); choose a complete one" >&2
		exit 2
	fi
	echo "$RUN"
	exit 0
fi
# Newest by the name's timestamp (<host>-<arch>-<yyyymmdd>-<hhmmss>[-N]); hosts may hold dashes.
newest=$(for d in results/*-*-[0-9]*-[0-9]*; do
	[[ -d $d && ! -e $d/INCOMPLETE ]] || continue
	stamp=$(sed -nE 's/.*-([0-9]{8})-([0-9]{6})(-([0-9]+))?$/\1\2 \4/p' <<<"$d")
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
host=$(hostname -s 2>/dev/null || hostname)
dir="results/$host-$(uname -m)-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
py=/usr/bin/python3
[[ -x $py ]] || py=python3
"$py" scripts/meta.py --profile none --command "${COMMAND:-}" >"$dir/meta.json"
echo "$dir"
