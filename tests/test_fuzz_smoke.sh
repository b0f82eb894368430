#!/usr/bin/env bash
# test_fuzz_smoke.sh - make test's share of fuzzing: every saved regression
# input once, then OPSBENCH_FUZZ_SECONDS (default 10) of new inputs.
#
#   OPSBENCH_FUZZ=path/to/fuzz_lookup tests/test_fuzz_smoke.sh
set -u
cd "$(dirname "$0")/.."
bin=${OPSBENCH_FUZZ:?}
if scripts/fuzz.sh "$bin" "${OPSBENCH_FUZZ_SECONDS:-10}"; then
	echo "fuzz smoke: 1 passed, 0 failed"
else
	echo "fuzz smoke: 0 passed, 1 failed"
	exit 1
fi
