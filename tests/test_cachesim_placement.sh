#!/usr/bin/env bash
# test_cachesim_placement.sh - simulated counts do not depend on where or how
# the driver is started: the same binary, copied to two folders whose paths
# differ in length by 200 bytes, run under callgrind's cache simulator with
# environments that differ by 4 KiB and with argv in another order and
# length, must give identical totals (instructions, data reads and writes,
# and misses at every level) for the lookups it measures; and cold lookups
# must miss alike wherever their stack frames fall in a cache line.
#
#   OPSBENCH_RUN=path/to/opsbench-run tests/test_cachesim_placement.sh
set -u
cd "$(dirname "$0")/.."
run=${OPSBENCH_RUN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

if ! command -v valgrind >/dev/null || ! command -v setarch >/dev/null; then
	echo "[  SKIPPED ] valgrind or setarch missing (make test installs them)"
	finish "cachesim placement"
fi

short="$tmp/a"
long="$tmp/$(printf 'x%.0s' $(seq 200))"
mkdir -p "$short" "$long"
cp "$run" "$short/opsbench-run"
cp "$run" "$long/opsbench-run"

# $1: folder, $2: strategy, $3...: extra environment; prints callgrind's totals line.
totals() {
	local dir=$1 strategy=$2
	shift 2
	local out="$tmp/cg.$RANDOM$RANDOM"
	(cd "$dir" && env -i "$@" setarch "$(uname -m)" -R valgrind --tool=callgrind --cache-sim=yes \
		--I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64 \
		--collect-atstart=no --toggle-collect=ob_measured_lookups --toggle-collect=ob_pollute \
		--callgrind-out-file="$out" ./opsbench-run $ARGS -s "$strategy" >/dev/null 2>"$out.err") ||
		{ cat "$out.err" >&2; return 1; }
	grep -E '^(summary|totals):' "$out" | head -n 1
}

same_counts() {
	local strategy=$1 a b
	ARGS="--no-pmu --lookups 3000 --dentries 128 --custom 0 --pollute 64K"
	a=$(totals "$short" "$strategy" HOME=/root) || return 1
	ARGS="--pollute 65536 --custom 0.0 --dentries 128 --lookups 3000 --no-pmu --seed 1"
	b=$(totals "$long" "$strategy" HOME=/root PADDING="$(head -c 4096 /dev/zero | tr '\0' p)" \
		LONG_NAME_FOR_THE_ENVIRONMENT=1) || return 1
	echo "short path, small env: $a"
	echo "long path, 4 KiB env:  $b"
	[[ -n $a && $a == "$b" ]]
}
for s in flag_gated null_tested default_ops embedded; do
	check "cachesim: $s counts the same from two paths, environments and argvs" same_counts "$s"
done

# Nor on where the loop's stack frames fall in their cache lines (which moves
# with any change to the harness's frames): cold lookups, the loop started 0,
# 16, 32 and 48 bytes lower, must miss alike, read by read and write by write,
# to within 0.01 a lookup (a one-off miss at the loop's end may move).  Before
# ob_pollute() left the stack hot, a 16-byte shift moved a miss per lookup
# from the writes to the reads.
same_at_offsets() {
	local strategy=$1 off line first=
	for off in 0 16 32 48; do
		ARGS="--no-pmu --lookups 3000 --dentries 64 --custom 0 --pollute 64K --mode cold --stack-offset $off"
		line=$(totals "$short" "$strategy" HOME=/root) || return 1
		# summary: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw -> misses per lookup
		line=$(awk '{ printf "D1mr %.2f D1mw %.2f DLmr %.2f DLmw %.2f", $6 / 3000, $7 / 3000, $9 / 3000, $10 / 3000 }' <<<"$line")
		echo "stack offset $off: $line per lookup"
		[[ -z $first ]] && first=$line
		[[ $line == "$first" ]] || return 1
	done
}
for s in flag_gated default_ops icall_wrapper; do
	check "cachesim: cold $s counts the same at four stack offsets" same_at_offsets "$s"
done
finish "cachesim placement"
