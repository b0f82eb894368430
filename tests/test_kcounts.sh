#!/usr/bin/env bash
# test_kcounts.sh - the component context's path component, function by
# function, against Debian's compiled kernels (src/model/kernel-counts.csv):
# per intermediate component, under callgrind, the kernel's own strategy
# (flag_hoisted) within 5% of the kernel's instructions, with exactly its
# calls, indirect calls and returns, and within 10% of its loads and stack
# reads, in every function and in total; `direct` the same outside the
# three functions where the kernel's flag tests sit.  6.12 in the ibt
# build (Debian's 6.12 has IBT), 6.1 in the kernel build.  The table is
# gcc 12's code: a clang or another gcc build is skipped.
# docs/model.md#function-by-function.
#
#   OPSBENCH_BUILD=build/x86_64-gcc tests/test_kcounts.sh
set -u
cd "$(dirname "$0")/.."
build=${OPSBENCH_BUILD:-build/x86_64-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

cc=$(sed -n '1s/ .*//p' "$build/gen/flags" 2>/dev/null)
cc=${cc:-gcc}
if [[ $(uname -m) != x86_64 || $cc != gcc* || $($cc -dumpversion 2>/dev/null | cut -d. -f1) != 12 ]] ||
   ! command -v valgrind >/dev/null; then
	echo "[  SKIPPED ] the kernel's counts are gcc 12's x86-64 code (this build: $cc), counted by valgrind"
	finish "kcounts"
fi
for v in ibt kernel; do
	if ! make --no-print-directory -j2 VARIANT=$v CC="$cc" tools >"$tmp/make-$v.log" 2>&1; then
		bad "make tools VARIANT=$v"
		tail -20 "$tmp/make-$v.log"
		finish "kcounts"
	fi
done
ibt=build/x86_64-$cc-ibt/bin/opsbench-run
kernel=build/x86_64-$cc-kernel/bin/opsbench-run
for s in flag_hoisted direct; do
	python3 scripts/kcounts.py "$ibt" --kernel 6.12 --strategy $s --check >"$tmp/612-$s.out" 2>&1
	python3 scripts/kcounts.py "$kernel" --kernel 6.1 --strategy $s --check >"$tmp/61-$s.out" 2>&1
done
for f in "$tmp"/*.out; do
	while read -r line; do
		case $line in
		"[       OK ]"*) pass=$((pass + 1)) ;;
		"[  FAILED  ]"*) fail=$((fail + 1)); echo "$line" ;;
		esac
	done <"$f"
	grep -q 'OK \]' "$f" || { bad "kcounts.py gave no verdict: $(tail -3 "$f")"; }
done
# The tables themselves, for the log.
cat "$tmp/612-flag_hoisted.out" "$tmp/61-flag_hoisted.out" | grep -v '^\['
finish "kcounts"
