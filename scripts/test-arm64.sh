#!/usr/bin/env bash
# test-arm64.sh - the arm64 build under qemu-aarch64: every cmocka test
# binary, then a smoke check that the suite and the driver start and list
# what they would run.  Emulated timings are never measured here.
#
#   QEMU=qemu-aarch64 QEMU_LD_PREFIX=/usr/aarch64-linux-gnu BUILD=build/arm64-gcc scripts/test-arm64.sh
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
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$PWD/$t" >"$w"
	chmod +x "$w"
	wrappers+=("$w")
done
((${#wrappers[@]})) || { echo "test-arm64: no test binaries in $build/tests" >&2; exit 1; }
scripts/run-tests.sh tests-arm64 "${wrappers[@]}"
rc=$?

. tests/lib.sh
check "arm64 opsbench-run --list under qemu" \
	bash -c "$qemu $build/bin/opsbench-run --list | grep -q flag_gated"
check "arm64 opsbench-suite --list under qemu" \
	bash -c "$qemu $build/bin/opsbench-suite --list | grep -q '^lookup/flag_gated/'"
check "arm64 opsbench-run says it is emulated and runs a tiny scenario" \
	bash -c "$qemu $build/bin/opsbench-run -s flag_gated --dentries 64 --lookups 1000 2>&1 | grep -q 'emulat'"
echo "arm64 smoke: $pass passed, $fail failed"
exit $((rc + fail))
