#!/usr/bin/env bash
# test_link_order.sh - LINK_ORDER=reverse (Makefile) links the same machine
# code at other addresses: its library holds the usual tree's objects in the
# other order, every strategy's code is the same instruction for
# instruction, the strategies' functions come out in the other order in a
# linked program, and that program gives the same answers.  What it is for:
# docs/method.md#the-layout.
#
#   OPSBENCH_BUILD=build/x86_64-gcc OPSBENCH_RUN=.../opsbench-run tests/test_link_order.sh
set -u
cd "$(dirname "$0")/.."
build=${OPSBENCH_BUILD:?}
run=${OPSBENCH_RUN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

rev=$tmp/rev
if ! make --no-print-directory -j2 LINK_ORDER=reverse BUILD="$rev" "$rev/bin/opsbench-run" >"$tmp/make.log" 2>&1; then
	bad "make LINK_ORDER=reverse builds opsbench-run"
	tail -20 "$tmp/make.log"
	finish "link order"
fi
ok "make LINK_ORDER=reverse builds opsbench-run"
check "its library holds the usual one's members in the other order" \
	bash -c "[[ \$(ar t '$rev/libopsbench.a' | tac) == \$(ar t '$build/libopsbench.a') ]]"
# objdump -d without the file name line: the instructions and their symbols
code() { objdump -d --no-show-raw-insn "$1" | tail -n +3; }
same_code() {
	local o
	for o in "$build"/obj/src/strategies/*.o; do
		cmp -s <(code "$o") <(code "$rev/obj/src/strategies/${o##*/}") || { echo "differs: ${o##*/}"; return 1; }
	done
}
check "every strategy's machine code is the same in both trees" same_code
# addr BINARY SYMBOL: its address, as a number
addr() { echo $((16#$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }'))); }
order() {
	local a b
	a=$(addr "$run" direct_build) b=$(addr "$run" null_tested_build)
	(( a < b )) || { echo "usual: direct_build $a, null_tested_build $b"; return 1; }
	a=$(addr "$rev/bin/opsbench-run" direct_build) b=$(addr "$rev/bin/opsbench-run" null_tested_build)
	(( a > b )) || { echo "reverse: direct_build $a, null_tested_build $b"; return 1; }
}
check "the strategies' functions are linked in the other order" order
answers() {
	local s a b
	for s in direct flag_gated static_call; do
		a=$("$run" -s $s --dentries 64 --lookups 1000 2>/dev/null | grep -o '"list_found":[0-9]*')
		b=$("$rev/bin/opsbench-run" -s $s --dentries 64 --lookups 1000 2>/dev/null | grep -o '"list_found":[0-9]*')
		[[ -n $a && $a == "$b" ]] || { echo "$s: usual '$a', reverse '$b'"; return 1; }
	done
}
check "both give the same answers (what a tiny run finds)" answers
finish "link order"
