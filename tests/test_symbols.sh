#!/usr/bin/env bash
# test_symbols.sh - every strategy's functions have names of their own
# (flag_gated_run, null_tested_default_d_hash, ...): no function name is
# defined in two strategy objects, so perf report, perf annotate and gdb
# say which strategy they are in.
#
#   OPSBENCH_BUILD=build/x86_64-gcc tests/test_symbols.sh
set -u
cd "$(dirname "$0")/.."
build=${OPSBENCH_BUILD:?}
. tests/lib.sh

# Function symbols (local or global) of each strategy object, compiler
# suffixes (.isra.0, .constprop.0, .cold) stripped: a clone is its function.
syms=$(for o in "$build"/obj/src/strategies/*.o "$build"/obj/src/regulator/strategies/*.o; do
	nm "$o" | awk -v o="$(basename "$o" .o)" '$2 ~ /^[tT]$/ { print o, $3 }'
done | sed -E 's/\.(isra|constprop|part|cold|lto_priv)(\.[0-9]+)*//g' | sort -u)
nobj=$(ls "$build"/obj/src/strategies/*.o "$build"/obj/src/regulator/strategies/*.o | wc -l)
shared=$(awk '{ print $2 }' <<<"$syms" | sort | uniq -d)
if [[ -z $shared ]]; then
	ok "no function name is shared by two of the $nobj strategy objects"
else
	bad "function names defined in more than one strategy: $(tr '\n' ' ' <<<"$shared")"
fi
# The run loop and the lookup are there under each strategy's name.
missing=
for o in "$build"/obj/src/strategies/*.o; do
	s=$(basename "$o" .o)
	for f in run lookup build; do
		grep -qx "$s ${s}_$f" <<<"$syms" || missing+=" ${s}_$f"
	done
done
for o in "$build"/obj/src/regulator/strategies/*.o; do
	s=$(basename "$o" .o)
	for f in set_voltage_2011 enable_2011 set_voltage_6x enable_6x; do
		grep -qx "$s reg_${s}_$f" <<<"$syms" || missing+=" reg_${s}_$f"
	done
done
if [[ -z $missing ]]; then
	ok "every strategy has <name>_run, <name>_lookup and <name>_build; every regulator strategy reg_<name>_set_voltage_2011, _enable_2011, _set_voltage_6x and _enable_6x"
else
	bad "missing:$missing"
fi
finish "symbols"
