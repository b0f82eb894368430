#!/usr/bin/env bash
# test_deps.sh - every target that runs a tool installs it first: its
# dependency step (scripts/deps.sh GROUP...) comes before anything else it
# runs, and the packages of those groups (or what they depend on) provide
# each tool the target runs.  Tools not installed here are reported, not
# checked.
#
# The tools are the table's, and also every command the target's dry run and
# the scripts it runs (followed into the scripts they run) call: a tool that
# the table forgot (test-arm64's `file`, which no listed package provided on
# a minimal Debian root) is caught by the scan, not by memory.  A command of
# a package of Priority "required" (in every Debian root) needs no step.
#
#   tests/test_deps.sh
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# target and make variables | the tools it runs
table=$(cat <<'TABLE'
all|gcc g++
all ARCH=arm64|aarch64-linux-gnu-gcc aarch64-linux-gnu-g++
test-arm64|aarch64-linux-gnu-gcc qemu-aarch64 valgrind
disasm|gcc objdump aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump
cachesim|gcc valgrind setarch
cachesim ARCH=arm64|aarch64-linux-gnu-gcc qemu-aarch64 setarch aarch64-linux-gnu-objdump
perf|gcc perf
hyperfine|gcc hyperfine
report|gcc gnuplot
fuzz|clang
bench|gcc g++
test|gcc clang valgrind gnuplot hyperfine
TABLE
)

# The package that owns the file a command runs, through symlinks and alternatives.
# A command that PATH finds outside every package (a pyenv python3 before
# /usr/bin) is judged by the packaged one of the same name: a fresh root
# has only that.
# Sets OWNED to the package, or fails.  Remembered per command: dpkg -S
# reads the whole file list, and the targets share most of their commands.
declare -A owners=()
owner() {
	local f o
	if [[ -n ${owners[$1]+set} ]]; then
		OWNED=${owners[$1]}
		[[ -n $OWNED ]]
		return
	fi
	owners[$1]=
	for f in "$(command -v "$1")" "/usr/bin/$1"; do
		f=$(readlink -f "$f") || continue
		o=$(dpkg -S "$f" 2>/dev/null | grep -v '^diversion' | head -n 1 | cut -d: -f1 | cut -d, -f1)
		[[ -n $o ]] && { owners[$1]=$o; break; }
	done
	OWNED=${owners[$1]}
	[[ -n $OWNED ]]
}
# Sets DEPENDS to what package $1 depends on, one a line; remembered per package.
declare -A depends=()
depends_of() {
	[[ -n ${depends[$1]+set} ]] ||
		depends[$1]=$(dpkg-query -W -f='${Depends},${Pre-Depends}\n' "$1" 2>/dev/null | tr ',|' '\n\n' |
			sed -E 's/\(.*\)//; s/:any//; s/^ +| +$//g')
	DEPENDS=${depends[$1]}
}

# The commands in command position in shell text on stdin (first words of
# lines and after | ; & && || $( ` { ( then do else, past assignments and
# exec/env/command/sudo/!), and the scripts it names, one a line; "?NAME"
# for a tool it looks for with `command -v NAME` (optional wherever found).
scan() {
	/usr/bin/python3 -c '
import re, sys
sep = re.compile(r"(?:^|[|;&({`!]|\$\(|\b(?:then|do|else|if|while|until|exec|env|command|sudo|time)\b)\s*")
word = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=(?:\"[^\"]*\"|\x27[^\x27]*\x27|\S*)\s+)*([a-z][a-z0-9_.+-]*)(?=\s|$|;|\))(?!\s*=)")
out = set()
text = sys.stdin.read()
guarded = set(re.findall(r"command -v ([a-z][a-z0-9_.+-]*)", text))
for line in text.splitlines():
    line = re.sub(r"(^|\s)#.*", "", line)
    line = re.sub(r"\x27[^\x27]*\x27", "\x27\x27", line)
    for m in sep.finditer(line):
        w = word.match(line, m.end())
        if w:
            out.add(w.group(1))
    out.update(re.findall(r"(?:scripts|tests)/[a-z0-9_-]+\.sh", line))
print("\n".join(sorted(out) + ["?" + g for g in sorted(guarded)]))
'
}
# The commands a target runs: its dry run's, and its scripts', recursively
# (scripts/deps.sh, the installer itself, left out).
commands_of() { # dry-run file
	local seen=" " todo f c
	todo=$(scan <"$1")
	while [[ -n $todo ]]; do
		f=$(head -n 1 <<<"$todo")
		todo=$(tail -n +2 <<<"$todo")
		[[ $seen == *" $f "* ]] && continue
		seen+="$f "
		if [[ $f == */*.sh ]]; then
			[[ $f == scripts/deps.sh || $f == tests/test_deps.sh || ! -f $f ]] && continue
			todo+=$'\n'$(scan <"$f")
			todo=$(sed '/^$/d' <<<"$todo")
		else
			echo "$f"
		fi
	done | sort -u | awk '/^\?/ { opt[substr($0, 2)] = 1; next } { c[$0] = 1 }
		END { for (k in c) if (!(k in opt)) print k }' | sort
}
required() { # package: in every Debian root (Priority required, or Essential)
	[[ $(dpkg-query -W -f='${Priority} ${Essential}' "$1" 2>/dev/null) == required* ||
		$(dpkg-query -W -f='${Essential}' "$1" 2>/dev/null) == yes ]]
}

while IFS='|' read -r target tools; do
	[[ -n $target ]] || continue
	read -r -a words <<<"$target"
	# Dry run: the first command is the dependency step (sub-makes print theirs after).
	# The defaults of a fresh checkout: not the variant or compiler of the make that runs this test.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u VARIANT -u CC -u CXX \
		make -n --no-print-directory "${words[@]}" >"$tmp/dry" 2>&1 </dev/null
	first=$(grep -m1 -vE '^(make|echo)' "$tmp/dry")
	if [[ $first != *"scripts/deps.sh "* ]]; then
		bad "make $target: the first thing it runs is not its dependency step: ${first:0:120}"
		continue
	fi
	groups=$(grep -oE 'scripts/deps.sh [a-z0-9 -]+' "$tmp/dry" | sed 's#scripts/deps.sh ##' | tr ' ' '\n' | sort -u)
	# shellcheck disable=SC2086
	pkgs=$(scripts/deps.sh --packages $groups | sed 's/:.*//' | sort -u)
	# What the packages pull in, three levels down (a meta package's real
	# compiler, and the binutils that compiler needs).
	deps=$pkgs
	for _ in 1 2 3; do
		more=$deps
		for p in $deps; do
			depends_of "$p"
			more+=$'\n'$DEPENDS
		done
		deps=$(sed '/^$/d' <<<"$more" | sort -u)
	done
	# Every other command it runs that is a program here (not a shell builtin;
	# make and git: what a checkout is built with; a tool the script looks
	# for with `command -v` first: optional).
	for c in $(commands_of "$tmp/dry"); do
		[[ " $tools make gmake git " == *" $c "* || $(type -t "$c") != file ]] && continue
		owner "$c" || continue
		required "$OWNED" || tools+=" $c"
	done
	missing=
	skipped=
	for t in $tools; do
		if ! command -v "$t" >/dev/null; then
			skipped+=" $t"
			continue
		fi
		owner "$t" || { skipped+=" $t"; continue; }
		grep -qxF "$OWNED" <<<"$pkgs"$'\n'"$deps" || missing+=" $t($OWNED)"
	done
	if [[ -z $missing ]]; then
		ok "make $target: deps.sh $(echo $groups) first, providing$(for t in $tools; do [[ $skipped == *" $t"* ]] || printf ' %s' "$t"; done)${skipped:+ (not installed here, not checked:$skipped)}"
	else
		bad "make $target: deps.sh $(echo $groups) does not provide:$missing"
	fi
done <<<"$table"
finish "deps"
