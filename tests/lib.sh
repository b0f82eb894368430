# lib.sh - shared by the script tests: check NAME COMMAND... runs the command,
# prints cmocka-style OK/FAILED lines (with the command's output on failure)
# and counts; finish LABEL prints "LABEL: N passed, N failed" and exits with
# the number of failures.  Needs $tmp, a scratch folder.
pass=0
fail=0

check() {
	local name=$1
	shift
	if "$@" >"$tmp/check.out" 2>&1; then
		pass=$((pass + 1))
		echo "[       OK ] $name"
	else
		fail=$((fail + 1))
		echo "[  FAILED  ] $name"
		sed 's/^/    /' "$tmp/check.out" | tail -20
	fi
}

ok() { pass=$((pass + 1)); echo "[       OK ] $1"; }
bad() { fail=$((fail + 1)); echo "[  FAILED  ] $1"; }

finish() {
	echo "$1: $pass passed, $fail failed"
	exit "$fail"
}
