#!/usr/bin/env bash
# host-build.sh - the build (Makefile VARIANT) whose code generation matches
# the mitigations of the kernel this machine runs, read from
# /sys/devices/system/cpu/vulnerabilities/ (VULN_DIR= for tests).
#
#   scripts/host-build.sh ARCH    prints "VARIANT<TAB>why" on one line
#
# x86-64, the first that applies:
#   spec_rstack_overflow says "Safe RET"        srso       (every return through
#                                                          the safe-RET thunk; retpolines too)
#   retbleed or spec_rstack_overflow says       rethunk    (returns through a thunk)
#     "return thunk" / "Untrained return thunk"
#   spectre_v2 says "Retpolines"                retpoline  (indirect calls through thunks)
#   otherwise                                   kernel     (the kernel's flags, plain
#                                                          indirect calls and returns)
# arm64: bti-pac (BTI and pointer authentication are not reported there;
# distribution kernels build with both).  The kernel's own words go into
# "why", so that the summary can say what the choice rests on.
set -u
arch=${1:?usage: host-build.sh ARCH}
dir=${VULN_DIR:-/sys/devices/system/cpu/vulnerabilities}
read_vuln() { [[ -r $dir/$1 ]] && tr -d '\n' <"$dir/$1"; }

if [[ $arch == arm64 ]]; then
	printf 'bti-pac\tarm64: kernels built with BTI and pointer authentication (not reported in sysfs)\n'
	exit 0
fi
srso=$(read_vuln spec_rstack_overflow)
retbleed=$(read_vuln retbleed)
v2=$(read_vuln spectre_v2)
if [[ $srso == *"Safe RET"* ]]; then
	printf 'srso\tspec_rstack_overflow: "%s"; spectre_v2: "%s"\n' "$srso" "$v2"
elif [[ $retbleed == *"eturn thunk"* || $srso == *"eturn thunk"* ]]; then
	printf 'rethunk\tretbleed: "%s"; spectre_v2: "%s"\n' "$retbleed" "$v2"
elif [[ $v2 == *Retpolines* ]]; then
	printf 'retpoline\tspectre_v2: "%s"\n' "$v2"
elif [[ -d $dir ]]; then
	printf 'kernel\tno retpoline or return thunk in this kernel'"'"'s mitigations (spectre_v2: "%s")\n' "$v2"
else
	printf 'kernel\t%s is not readable: the mitigations are unknown\n' "$dir"
fi
