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
# text_start.o is linked before the library, outside it: the library
# starts on a page in either order (offsets(), below).
check "its library holds the usual one's members in the other order, text_start.o in neither" \
	bash -c "[[ \$(ar t '$rev/libopsbench.a' | tac) == \$(ar t '$build/libopsbench.a') &&
		-z \$(ar t '$build/libopsbench.a' | grep -x text_start.o) ]]"
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
# The library's text symbols, each as its offset from ob_text_start, which
# must lie on a page: the same in two programs with different harnesses.
offsets() { # BINARY
	local start
	start=$(addr "$1" ob_text_start)
	((start > 0 && start % 4096 == 0)) || { echo "$1: ob_text_start at $start, not on a page"; return 1; }
	nm "$1" | awk 'NR == FNR { if ($2 ~ /^[tT]$/) lib[$3] = 1; next }
		($2 ~ /^[tT]$/) && ($3 in lib) { print $3, $1 }' <(nm "$build/libopsbench.a" 2>/dev/null) - |
		while read -r sym hex; do echo "$sym $((16#$hex - start))"; done | sort
}
harness_free() {
	local a b
	a=$(offsets "$run") && b=$(offsets "$build/bin/opsbench-suite") || { echo "$a$b"; return 1; }
	(($(wc -l <<<"$a") > 500)) || { echo "only $(wc -l <<<"$a") library symbols found"; return 1; }
	[[ $a == "$b" ]] || { diff <(echo "$a") <(echo "$b") | head -5; return 1; }
}
check "the measured code lies at the same page offsets in opsbench-run and opsbench-suite" harness_free
# make bench's layout suites: the same code moved by N pads (docs/method.md#the-layout).
pad=$(make --no-print-directory -s -f Makefile -f - print-pad <<<'print-pad: ; @echo $(LAYOUT_PAD)' 2>/dev/null)
layouts() {
	local n f a b moved
	[[ $pad =~ ^[0-9]+$ ]] || { echo "no LAYOUT_PAD from the Makefile: '$pad'"; return 1; }
	a=$(offsets "$build/bin/opsbench-suite") || return 1
	for f in "$build"/bin/opsbench-suite-layout*; do
		[[ -x $f ]] || { echo "no layout suite in $build/bin (make suite builds them)"; return 1; }
		n=${f##*layout}
		moved=$(($(addr "$f" ob_text_pad_end) - $(addr "$f" ob_text_start)))
		((moved == n * pad)) || { echo "${f##*/}: pad $moved, not $((n * pad))"; return 1; }
		b=$(offsets "$f") || return 1
		[[ $(cut -d' ' -f1 <<<"$a") == "$(cut -d' ' -f1 <<<"$b")" ]] || { echo "${f##*/}: other symbols"; return 1; }
		if ((n % 2)); then
			# An odd layout: the other link order.
			(($(addr "$f" direct_build) > $(addr "$f" null_tested_build))) ||
				{ echo "${f##*/}: not linked in the other order"; return 1; }
			continue
		fi
		# Every library function moved by the pad, but those in or after a
		# page-aligned section (static_call's pages, the retpoline thunks),
		# which keep their page offset: nothing else changed.
		paste -d' ' <(echo "$a") <(echo "$b") | awk -v p="$moved" '
			{ d = $4 - $2; if (d != p && (d % 4096 || d < 0 || d > p + 4096)) { print $1, "moved by", d; bad = 1 } }
			END { exit bad }' | head -3
		((PIPESTATUS[1] == 0)) || return 1
	done
}
check "each layout suite is the usual one's code moved by its pad, odd ones in the other order" layouts
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
