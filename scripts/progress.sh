# progress.sh - make bench's progress line on stderr (sourced by bench.sh;
# bash).  On a terminal it is one line rewritten in place; otherwise one
# plain line per step, so that a log reads the same.  Uses bench.sh's
# $tmp, $passes, $budget.
#
#   progress WHAT ELAPSED_S ETA_TEXT
#   eta SPENT_S SWEEP OPEN_GROUPS    prints "about N s left" (lookup groups, plus the merge)
#   progress_done                    ends an in-place line

if [[ -t 2 ]]; then
	progress() { printf '\r\033[K[%4d s] %s%s' "$2" "$1" "${3:+ ($3)}" >&2; }
	progress_done() { printf '\r\033[K' >&2; }
else
	progress() { printf 'bench: [%d s] %s%s\n' "$2" "$1" "${3:+ ($3)}" >&2; }
	progress_done() { :; }
fi

# The time left, at most: every open group running to the cap at the mean
# block time so far, bounded by what is left of the budget; 10 s for the
# merge and the summary.
eta() {
	local spent=$1 k=$2 open=$3
	awk -F'\t' -v spent="$spent" -v k="$k" -v open="$open" -v cap="$passes" -v budget="$budget" '
		$3 != 1 && $5 ~ /^lookup\// { s += $4; n++ }
		END {
			if (!n) { print "estimating"; exit }
			left = open * (cap - k + 1) * s / n
			if (budget > 0 && budget - spent < left) left = budget - spent
			if (left < 0) left = 0
			printf "at most %d s left", left + 10
		}' "$tmp/parts/schedule.tsv" 2>/dev/null || echo "estimating"
}
