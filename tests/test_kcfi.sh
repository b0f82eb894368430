#!/usr/bin/env bash
# test_kcfi.sh - the kCFI build, whatever build make test runs: with the
# newest clang >= 16 there is, build VARIANT=kcfi's tests and prove that a
# mistyped indirect call traps (tests/test_kcfi.c), that every strategy
# still matches the reference with the checks on, and that the machine code
# checks every indirect call (tests/test_variant_codegen.sh).  Without such
# a clang (Debian 12 has clang-16 and clang-19; make test tries to install
# clang-19) it says so and skips.
#
#   tests/test_kcfi.sh
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

cc=
for c in clang-19 clang-18 clang-17 clang-16; do
	command -v "$c" >/dev/null && { cc=$c; break; }
done
if [[ $(uname -m) != x86_64 ]]; then
	echo "[  SKIPPED ] kCFI: the kcfi build is x86-64 only"
	finish "kcfi"
fi
if [[ -z $cc ]]; then
	echo "[  SKIPPED ] kCFI: no clang >= 16 here (make deps-kcfi installs clang-19 with apt-get); the kCFI trap test did not run"
	finish "kcfi"
fi
build=build/x86_64-$cc-kcfi

# CC on the command line: a parent `make CC=clang` passes its CC down in MAKEFLAGS.
check "kcfi: $cc builds the tests with -fsanitize=kcfi" \
	make --no-print-directory VARIANT=kcfi CC="$cc" CXX="${cc/clang/clang++}" tests
check "kcfi: a mistyped indirect call traps (SIGILL), well-typed calls go through" \
	bash -c "'$build/tests/test_kcfi' 2>&1 | tee /dev/stderr | grep -q 'PASSED  \\] 3 test' && ! '$build/tests/test_kcfi' 2>&1 | grep -q SKIPPED"
check "kcfi: every strategy matches the reference with the checks on" "$build/tests/test_strategies"
check "kcfi: the machine code checks every indirect call" \
	env OPSBENCH_BUILD="$build" OPSBENCH_VARIANT=kcfi tests/test_variant_codegen.sh
finish "kcfi"
