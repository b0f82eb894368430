#!/usr/bin/env bash
# deps.sh - install what a make target needs and is missing (Debian/Ubuntu).
#
#   scripts/deps.sh GROUP...     groups: build test clang kcfi bench cachesim perf hyperfine arm64 report
#   scripts/deps.sh --packages GROUP...   print the packages of the groups, one a line (tests)
#
# Prints each package it installs and why; prints nothing when all is there.
# Needs root or sudo to install; otherwise says exactly what to run.
set -euo pipefail

declare -A why=(
	[gcc]="C compiler"
	[g++]="C++ compiler for the Google Benchmark shim"
	[make]="build"
	[binutils]="objdump (make disasm, make report)"
	[libcmocka-dev]="unit tests (cmocka)"
	[clang]="CC=clang builds"
	[libclang-rt-14-dev]="sanitizer runtimes for clang"
	[clang-19]="clang >= 16 for the kCFI build (VARIANT=kcfi, -fsanitize=kcfi)"
	[libbenchmark-dev]="Google Benchmark (the suite)"
	[libbenchmark-tools]="Google Benchmark's compare.py"
	[python3]="result scripts"
	[python3-scipy]="compare.py's statistics"
	[valgrind]="deterministic cache simulation (make cachesim)"
	[util-linux]="setarch, to run without ASLR"
	[linux-perf]="perf stat (make perf)"
	[hyperfine]="whole-process timing (make hyperfine)"
	[gcc-aarch64-linux-gnu]="arm64 cross compiler (make ARCH=arm64)"
	[g++-aarch64-linux-gnu]="arm64 cross C++ compiler for the shim"
	[qemu-user]="running arm64 tests under emulation (make test-arm64)"
	[libcmocka-dev:arm64]="arm64 cmocka"
	[libbenchmark-dev:arm64]="arm64 Google Benchmark"
	[binutils-aarch64-linux-gnu]="arm64 objdump (make disasm)"
	[gnuplot-nox]="plots (make report)"
	[procps]="pgrep, which the interrupt tests watch processes with"
	[file]="file, which checks the arm64 test binaries' architecture (make test-arm64)"
)

list_only=0
if [[ ${1:-} == --packages ]]; then
	list_only=1
	shift
fi
pkgs=()
for group in "$@"; do
	case "$group" in
	build)	pkgs+=(gcc g++ make binutils libcmocka-dev) ;;
	test)	pkgs+=(gcc make libcmocka-dev procps) ;;
	clang)	pkgs+=(clang libclang-rt-14-dev) ;;
	kcfi)	command -v clang-16 >/dev/null || pkgs+=(clang-19) ;;
	bench)	pkgs+=(gcc g++ make libbenchmark-dev libbenchmark-tools python3 python3-scipy) ;;
	cachesim) pkgs+=(valgrind util-linux python3) ;;
	perf)	pkgs+=(linux-perf) ;;
	hyperfine) pkgs+=(hyperfine) ;;
	report)	pkgs+=(gnuplot-nox python3 gcc libbenchmark-tools python3-scipy) ;;
	arm64)	pkgs+=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user
		       libcmocka-dev:arm64 libbenchmark-dev:arm64 file) ;;
	*)	echo "deps.sh: unknown group '$group' (build test clang kcfi bench cachesim perf hyperfine arm64 report)" >&2; exit 2 ;;
	esac
done

if ((list_only)); then
	printf '%s\n' "${pkgs[@]}" | awk '!seen[$0]++'
	exit 0
fi
missing=()
# A name without :arch is the native package (or an arch-independent one):
# with arm64 libraries beside amd64 ones, dpkg-query lists both, one a line.
native=$(dpkg --print-architecture 2>/dev/null || echo none)
for p in "${pkgs[@]}"; do
	if [[ $p == *:* ]]; then want=(-e "|${p#*:}$"); else want=(-e "|$native$" -e '|all$'); fi
	dpkg-query -W -f='${Status}|${Architecture}\n' "${p%%:*}" 2>/dev/null |
		grep '^install ok installed|' | grep -q "${want[@]}" || missing+=("$p")
done
# Remove duplicates while keeping order.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk 'NF && !seen[$0]++')
((${#missing[@]})) || exit 0

if ! command -v apt-get >/dev/null; then
	echo "opsbench: missing ${missing[*]}, and this is not a Debian/Ubuntu system: install them by hand" >&2
	exit 1
fi
sudo=()
run_root() { "${sudo[@]}" "$@"; }
if [[ $(id -u) != 0 ]]; then
	if command -v sudo >/dev/null; then
		sudo=(sudo)
	else
		echo "opsbench: missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
fi
for p in "${missing[@]}"; do
	echo "opsbench: installing $p (${why[$p]:-needed})"
done
export DEBIAN_FRONTEND=noninteractive
if printf '%s\n' "${missing[@]}" | grep -q ':arm64$' &&
	! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "opsbench: adding the arm64 architecture to dpkg (dpkg --add-architecture arm64)"
	run_root dpkg --add-architecture arm64
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
