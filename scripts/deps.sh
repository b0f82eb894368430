#!/usr/bin/env bash
# deps.sh - install what a make target needs and is missing (Debian/Ubuntu).
#
#   scripts/deps.sh GROUP...     groups: build test clang kcfi bench cachesim perf hyperfine disasm arm64 report
#                                valgrind-arm64
#   scripts/deps.sh --packages GROUP...   print the packages of the groups, one a line (tests)
#   NO_INSTALL=1 scripts/deps.sh GROUP... print what is missing and the apt-get line; exit 2
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

# valgrind-arm64 on a host of another architecture: Debian's valgrind:arm64
# unpacked under build/ (installing it would replace the host's valgrind),
# its tool run under qemu-aarch64 by make cachesim ARCH=arm64
# (scripts/lib/valgrind.py).  Its version goes to VERSION beside it.
vg_arm64=build/valgrind-arm64
unpack_vg_arm64=0
unpack_valgrind_arm64() {
	local root dir tmp deb as_root=()
	root=$(cd "$(dirname "$0")/.." && pwd)
	dir=$root/$vg_arm64
	[[ -x $dir/usr/libexec/valgrind/callgrind-arm64-linux && -s $dir/VERSION ]] && return 0
	echo "opsbench: unpacking valgrind:arm64 into $vg_arm64 (not installed: make cachesim ARCH=arm64 runs it under qemu-aarch64)"
	[[ $(id -u) == 0 ]] || as_root=(sudo)
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "opsbench: adding the arm64 architecture to dpkg (dpkg --add-architecture arm64)"
		"${as_root[@]}" dpkg --add-architecture arm64
		"${as_root[@]}" apt-get update -qq
	fi
	apt-cache show valgrind:arm64 >/dev/null 2>&1 || "${as_root[@]}" apt-get update -qq
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	(cd "$tmp" && apt-get download -qq $([[ $(id -u) == 0 ]] && echo -o APT::Sandbox::User=root) valgrind:arm64) || {
		echo "opsbench: apt-get download valgrind:arm64 failed" >&2
		exit 1
	}
	deb=$(echo "$tmp"/valgrind_*_arm64.deb)
	rm -rf "$dir.part"
	mkdir -p "$dir.part"
	dpkg-deb -x "$deb" "$dir.part"
	dpkg-deb -f "$deb" Version >"$dir.part/VERSION"
	rm -rf "$dir"
	mv "$dir.part" "$dir"
}

list_only=0
if [[ ${1:-} == --packages ]]; then
	list_only=1
	shift
fi
if (($# == 0)); then
	echo "usage: [NO_INSTALL=1] scripts/deps.sh [--packages] GROUP... (build test clang kcfi bench cachesim perf hyperfine disasm arm64 report valgrind-arm64)" >&2
	exit 2
fi
# NO_INSTALL: anything but empty or 0 means "install nothing" (yes, true, 1...).
no_install=0
[[ -n ${NO_INSTALL:-} && ${NO_INSTALL} != 0 ]] && no_install=1
pkgs=()
for group in "$@"; do
	case "$group" in
	build)	pkgs+=(gcc g++ make binutils libcmocka-dev) ;;
	test)	pkgs+=(gcc make libcmocka-dev procps) ;;
	clang)	pkgs+=(clang libclang-rt-14-dev) ;;
	kcfi)	command -v clang-16 >/dev/null || pkgs+=(clang-19) ;;
	bench)	pkgs+=(gcc g++ make libbenchmark-dev libbenchmark-tools python3 python3-scipy) ;;
	cachesim) pkgs+=(valgrind util-linux python3) ;;
	perf)	pkgs+=(linux-perf python3) ;;
	hyperfine) pkgs+=(hyperfine python3) ;;
	disasm)	pkgs+=(python3 binutils) ;;
	report)	pkgs+=(gnuplot-nox python3 gcc libbenchmark-tools python3-scipy) ;;
	arm64)	pkgs+=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user
		       libcmocka-dev:arm64 libbenchmark-dev:arm64 file) ;;
	valgrind-arm64)
		if [[ $(uname -m) == aarch64 ]]; then
			pkgs+=(valgrind util-linux python3)
		else
			pkgs+=(qemu-user util-linux python3 binutils-aarch64-linux-gnu)
			unpack_vg_arm64=1
		fi ;;
	*)	echo "deps.sh: unknown group '$group' (build test clang kcfi bench cachesim perf hyperfine disasm arm64 report valgrind-arm64)" >&2; exit 2 ;;
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
if ! ((${#missing[@]})); then
	if ((unpack_vg_arm64 && no_install)) && [[ ! -s $vg_arm64/VERSION ]]; then
		echo "opsbench: missing valgrind:arm64, unpacked under $vg_arm64 (NO_INSTALL=1: not done)" >&2
		exit 2
	fi
	((unpack_vg_arm64 == 0)) || unpack_valgrind_arm64
	exit 0
fi
# NO_INSTALL=1 (a managed machine): say what is missing and the one line
# that installs it; install nothing.
if ((no_install)); then
	for p in "${missing[@]}"; do
		echo "opsbench: missing $p (${why[$p]:-needed})" >&2
	done
	echo "opsbench: NO_INSTALL=$NO_INSTALL: nothing installed; as root: apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 2
fi

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
((unpack_vg_arm64 == 0)) || unpack_valgrind_arm64
