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
# Then a short arm64 cachesim (the tiny scenario, few lookups) of the
# build's static driver under valgrind:arm64: positive counts for every
# strategy, instructions per lookup within a factor of two of x86-64's
# (X86_RUN, the host's driver, under the host's valgrind), and the same
# counts twice: from this checkout, and from a copy of its scripts, driver
# and valgrind at paths 200 bytes longer with 4 KiB more environment.
#
#   QEMU=qemu-aarch64 QEMU_LD_PREFIX=/usr/aarch64-linux-gnu BUILD=build/arm64-gcc [VARIANT=bti-pac] \
#   [X86_RUN=build/x86_64-gcc/bin/opsbench-run] scripts/test-arm64.sh
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
	# The kernel's flags (VARIANT_kernel): ftrace's two entry NOPs, after the landing pad.
	check "bti-pac: every function starts with ftrace's two entry NOPs (after bti c)" \
		bash -c "[[ \$($objdump -d --no-show-raw-insn ${objs[*]} |
			   awk '/^[0-9a-f]+ <.*>:\$/ { f++; getline a; if (a ~ /bti/) getline a; getline b
			        if (a ~ /\tnop/ && b ~ /\tnop/) n++ } END { print (f > 0 && n == f) ? \"ok\" : f \" \" n }') == ok ]]"
	check "bti-pac: PAC is live under qemu -cpu max (not skipped)" \
		bash -c "$qemu -cpu max $build/tests/test_pac 2>&1 | grep -q 'PASSED  \] 2 test'"
fi

# ---- cachesim of the arm64 machine code ----
static=$build/bin/opsbench-run-static
cs_args=(--geometry=neoverse-n1 --scenarios=tiny --lookups=300)
# A results folder made for one tool, as scripts/results-dir.sh makes one.
mkrun() { mkdir -p "$1" && python3 scripts/meta.py --profile none --command "test-arm64" >"$1/meta.json"; }
arm64_cachesim() {
	mkrun "$tmp/cs-a" && python3 scripts/cachesim.py --driver="$static" --out="$tmp/cs-a" "${cs_args[@]}" >/dev/null
}
# The same from another checkout path, valgrind's path and environment.
arm64_cachesim_elsewhere() {
	local far vg
	far="$tmp/$(printf 'x%.0s' $(seq 200))"
	vg=${VALGRIND_ARM64:-$PWD/build/valgrind-arm64}
	mkdir -p "$far/checkout/bin" && mkrun "$far/cs-b" && cp -r scripts "$far/checkout/" && cp "$static" "$far/checkout/bin/" &&
		ln -sfn "$(readlink -f "$vg")" "$far/valgrind-arm64" &&
		(cd "$far" && VALGRIND_ARM64=$far/valgrind-arm64 PADDING="$(head -c 4096 /dev/zero | tr '\0' p)" \
			python3 checkout/scripts/cachesim.py --driver=checkout/bin/opsbench-run-static --out=cs-b \
			"${cs_args[@]}" >/dev/null) &&
		cp "$far/cs-b/cachesim.csv" "$tmp/cs-b.csv"
}
# Numeric columns per strategy: instructions, data reads, D1 misses, branches, calls.
counts() {
	python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["strategy"], r["instructions_per_lookup"], r["data_reads_per_lookup"], r["D1_misses_per_lookup"],
          r["cond_branches_per_lookup"], r["indirect_branches_per_lookup"], r["calls_per_lookup"])
PY
}
same_from_two_paths() {
	arm64_cachesim_elsewhere &&
		counts "$tmp/cs-a/cachesim.csv" >"$tmp/a.txt" && counts "$tmp/cs-b.csv" >"$tmp/b.txt" &&
		cat "$tmp/a.txt" && cmp "$tmp/a.txt" "$tmp/b.txt"
}
# Every strategy: instructions and data reads above 0, instructions within 2x of x86-64's.
plausible() {
	local x86=$tmp/cs-x86
	mkrun "$x86" && python3 scripts/cachesim.py --driver="$X86_RUN" --out="$x86" "${cs_args[@]}" >/dev/null &&
		python3 - "$tmp/cs-a/cachesim.csv" "$x86/cachesim.csv" <<'PY'
import csv, sys
from collections import defaultdict
by = defaultdict(dict)
for r in list(csv.DictReader(open(sys.argv[1]))) + list(csv.DictReader(open(sys.argv[2]))):
    by[r["strategy"]][r["arch"]] = r
bad = 0
for s, a in by.items():
    arm, x86 = a.get("arm64"), a.get("x86_64")
    i_a, i_x = float(arm["instructions_per_lookup"]), float(x86["instructions_per_lookup"])
    ok = i_a > 0 and float(arm["data_reads_per_lookup"]) > 0 and 0.5 <= i_a / i_x <= 2
    print(f"{s}: arm64 {i_a:.1f}, x86-64 {i_x:.1f} instructions per lookup{'' if ok else ': implausible'}")
    bad += not ok
sys.exit(bad or len(by) < 2)
PY
}
if [[ -x $static ]]; then
	check "arm64 cachesim ($VARIANT) runs the tiny scenario under valgrind:arm64" arm64_cachesim
	check "arm64 cachesim ($VARIANT) gives the same counts from another path and environment" same_from_two_paths
	if [[ -n ${X86_RUN:-} ]]; then
		check "arm64 cachesim ($VARIANT): every strategy's counts are positive and within 2x of x86-64's" plausible
	fi
else
	echo "[  SKIPPED ] arm64 cachesim: no $static (make test-arm64 builds it)"
fi
echo "arm64 smoke: $pass passed, $fail failed"
exit $((rc + fail))
