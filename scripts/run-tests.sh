#!/usr/bin/env bash
# run-tests.sh - run cmocka test binaries one after another, keep going after
# a failure, and end with one line counting the binaries that passed.
#
#   scripts/run-tests.sh LABEL BINARY...
#
# Exit status: the number of binaries that failed (0 when all passed).
set -u
label=$1
shift
passed=0
failed=0
failures=()
for t in "$@"; do
	echo "== $label: $(basename "$t")" >&2
	start=$SECONDS
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures+=("$(basename "$t")")
	fi
	echo "== $label: $(basename "$t"): $((SECONDS - start)) s" >&2
done
((failed)) && echo "$label: failing binaries: ${failures[*]}" >&2
echo "$label: test binaries (cmocka counts each test above):" >&2
echo "$label: $passed passed, $failed failed" >&2
exit "$failed"
