#!/usr/bin/env bash
# test-arm64.sh - the arm64 build under qemu-aarch64: every cmocka test
# binary, then a smoke check that the suite and the driver start and list
# what they would run.  Emulated timings are never measured here.
#
# Every binary runs under "qemu-aarch64 -cpu max", which has PAC and BTI.
# VARIANT=bti-pac adds machine-code checks: a landing pad (bti c, or
# paciasp, which is one) at every function reached through a pointer, and
# return addresses signed and authenticated.
#
#   QEMU=qemu-aarch64 QEMU_LD_PREFIX=/usr/aarch64-linux-gnu BUILD=build/arm64-gcc [VARIANT=bti-pac] scripts/test-arm64.sh
set -u
cd "$(dirname "$0")/.."
qemu=${QEMU:-qemu-aarch64}
build=${BUILD:?}
export QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}

command -v "$qemu" >/dev/null || {
	echo "test-arm64: $qemu not found (make test-arm64 installs qemu-user with apt-get)" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wrappers=()
for t in "$build"/tests/test_*; do
	[[ -x $t ]] || continue
	file -b "$t" | grep -q 'ARM aarch64' || {
		echo "test-arm64: $t is not an aarch64 executable: $(file -b "$t")" >&2
		exit 1
	}
	w="$tmp/$(basename "$t")"
	printf '#!/bin/sh\nexec %s -cpu max %s "$@"\n' "$qemu" "$PWD/$t" >"$w"
	chmod +x "$w"
	wrappers+=("$w")
done
((${#wrappers[@]})) || { echo "test-arm64: no test binaries in $build/tests" >&2; exit 1; }
scripts/run-tests.sh tests-arm64 "${wrappers[@]}"
rc=$?

. tests/lib.sh
check "arm64 opsbench-run --list under qemu" \
	bash -c "$qemu $build/bin/opsbench-run --list --json | grep -q '\"name\":\"flag_gated\"'"
check "arm64 opsbench-suite --list under qemu" \
	bash -c "$qemu $build/bin/opsbench-suite --list | grep -q '^lookup/flag_gated/'"
check "arm64 opsbench-run says it is emulated and runs a tiny scenario" \
	bash -c "$qemu $build/bin/opsbench-run -s flag_gated --dentries 64 --lookups 1000 2>&1 | grep -q 'emulat'"
if [[ ${VARIANT:-plain} == bti-pac ]]; then
	objdump=aarch64-linux-gnu-objdump
	objs=("$build"/obj/src/strategies/*.o)
	# The functions reached through pointers: the ops and the struct strategy's.
	targets='<([a-z_]+_(build|lookup|run)|(default|casefold|generation)_d_[a-z]+)>:$'
	check "bti-pac: every function reached through a pointer starts with a landing pad" \
		bash -c "(( \$($objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '$targets') > 0 )) &&
			[[ \$($objdump -d --no-show-raw-insn ${objs[*]} |
			   awk '/$targets/ { getline; if (\$0 !~ /bti[[:space:]]+c|paciasp/) n++ } END { print n + 0 }') == 0 ]]"
	check "bti-pac: saved return addresses are signed and authenticated" \
		bash -c "(( \$($objdump -d ${objs[*]} | grep -c paciasp) > 0 )) &&
			(( \$($objdump -d ${objs[*]} | grep -cE 'autiasp|retaa') >= \$($objdump -d ${objs[*]} | grep -c paciasp) ))"
	check "bti-pac: PAC is live under qemu -cpu max (not skipped)" \
		bash -c "$qemu -cpu max $build/tests/test_pac 2>&1 | grep -q 'PASSED  \] 2 test'"
fi
echo "arm64 smoke: $pass passed, $fail failed"
exit $((rc + fail))
