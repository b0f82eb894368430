#!/usr/bin/env bash
# test_deps.sh - every target that runs a tool installs it first: its
# dependency step (scripts/deps.sh GROUP...) comes before anything else it
# runs, and the packages of those groups (or what they depend on) provide
# each tool the target runs.  Tools not installed here are reported, not
# checked.
#
#   tests/test_deps.sh
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# target and make variables | the tools it runs
table=$(cat <<'TABLE'
all|gcc g++
all ARCH=arm64|aarch64-linux-gnu-gcc aarch64-linux-gnu-g++
test-arm64|aarch64-linux-gnu-gcc qemu-aarch64
disasm|gcc objdump aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump
cachesim|gcc valgrind setarch
perf|gcc perf
hyperfine|gcc hyperfine
report|gcc gnuplot
fuzz|clang
bench|gcc g++
test|gcc clang valgrind gnuplot hyperfine
TABLE
)

# The package that owns the file a command runs, through symlinks and alternatives.
owner() {
	local f
	f=$(readlink -f "$(command -v "$1")") || return 1
	dpkg -S "$f" 2>/dev/null | grep -v '^diversion' | head -n 1 | cut -d: -f1 | cut -d, -f1
}

while IFS='|' read -r target tools; do
	[[ -n $target ]] || continue
	read -r -a words <<<"$target"
	# Dry run: the first command is the dependency step (sub-makes print theirs after).
	# The defaults of a fresh checkout: not the variant or compiler of the make that runs this test.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u VARIANT -u CC -u CXX \
		make -n --no-print-directory "${words[@]}" >"$tmp/dry" 2>&1 </dev/null
	first=$(grep -m1 -vE '^(make|echo)' "$tmp/dry")
	if [[ $first != *"scripts/deps.sh "* ]]; then
		bad "make $target: the first thing it runs is not its dependency step: ${first:0:120}"
		continue
	fi
	groups=$(grep -oE 'scripts/deps.sh [a-z0-9 ]+' "$tmp/dry" | sed 's#scripts/deps.sh ##' | tr ' ' '\n' | sort -u)
	# shellcheck disable=SC2086
	pkgs=$(scripts/deps.sh --packages $groups | sed 's/:.*//' | sort -u)
	# What the packages pull in, one level down (a meta package's real compiler).
	deps=$(for p in $pkgs; do
		dpkg-query -W -f='${Depends},${Pre-Depends}\n' "$p" 2>/dev/null | tr ',|' '\n\n' |
			sed -E 's/\(.*\)//; s/:any//; s/^ +| +$//g'
	done | sort -u)
	missing=
	skipped=
	for t in $tools; do
		if ! command -v "$t" >/dev/null; then
			skipped+=" $t"
			continue
		fi
		o=$(owner "$t") || { skipped+=" $t"; continue; }
		grep -qxF "$o" <<<"$pkgs"$'\n'"$deps" || missing+=" $t($o)"
	done
	if [[ -z $missing ]]; then
		ok "make $target: deps.sh $(echo $groups) first, providing$(for t in $tools; do [[ $skipped == *" $t"* ]] || printf ' %s' "$t"; done)${skipped:+ (not installed here, not checked:$skipped)}"
	else
		bad "make $target: deps.sh $(echo $groups) does not provide:$missing"
	fi
done <<<"$table"
finish "deps"
