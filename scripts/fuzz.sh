#!/usr/bin/env bash
# fuzz.sh - run the libFuzzer target: first every saved regression input
# once, then new inputs for SECONDS seconds from the seeds and the corpus.
# A crash is saved in tests/fuzz/regressions/ (commit it: make test replays
# it from then on) and makes this script fail.
#
#   scripts/fuzz.sh FUZZ_BINARY SECONDS
set -u
cd "$(dirname "$0")/.."
bin=${1:?fuzz binary}
secs=${2:?seconds}
[[ $secs =~ ^[0-9]+$ && $secs -gt 0 ]] || { echo "fuzz: '$secs': expected a number of seconds" >&2; exit 2; }
corpus=build/fuzz-corpus
mkdir -p "$corpus"
regressions=(tests/fuzz/regressions/*)
if [[ -e ${regressions[0]} ]]; then
	"$bin" "${regressions[@]}" >/dev/null 2>build/fuzz-regressions.log || {
		echo "fuzz: a saved regression input fails again:" >&2
		tail -20 build/fuzz-regressions.log >&2
		exit 1
	}
	echo "fuzz: ${#regressions[@]} regression inputs pass"
fi
"$bin" -max_total_time="$secs" -print_final_stats=1 -max_len=4096 \
	-artifact_prefix=tests/fuzz/regressions/ "$corpus" tests/fuzz/seeds 2>build/fuzz.log
rc=$?
grep -E '^stat::number_of_executed_units|^stat::peak_rss|^Done|^#[0-9]+ *DONE' build/fuzz.log | sed 's/^/fuzz: /'
if ((rc)); then
	echo "fuzz: the fuzzer found a failure (saved under tests/fuzz/regressions/):" >&2
	grep -E 'ERROR|fuzz_lookup:|SUMMARY|Test unit written' build/fuzz.log | head -10 >&2
	exit 1
fi
echo "fuzz: $secs s, no failure"
