#!/usr/bin/env bash
# test_tools_smoke.sh - the whole-process tools on tiny scenarios:
# cachesim (deterministic: two runs, identical numbers), perf (the one-line
# refusal where counters are missing, and the arithmetic with a stand-in
# perf that prints what `perf stat -x,` prints), hyperfine, the driver's
# output, and a driver run under valgrind memcheck.
#
#   OPSBENCH_RUN=path/to/opsbench-run tests/test_tools_smoke.sh
set -u
cd "$(dirname "$0")/.."
run=${OPSBENCH_RUN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
# How many strategies the registry has (every count below derives from it).
nstrat=$(python3 scripts/registry.py "$run" strategies | wc -l)

# ---- the driver's command line ----

# Bad input of every tool is tested by tests/test_bad_input.sh.

zero_lookups_builds_only() {
	"$run" -s flag_gated --lookups 0 --no-pmu >"$tmp/zero" || return 1
	grep -q '"lookups":0,' "$tmp/zero" && grep -q '"ns_per_lookup":0.0000' "$tmp/zero"
}
check "driver: --lookups 0 builds and reports, measures nothing" zero_lookups_builds_only
json_line_parses() {
	"$run" -s embedded --lookups 1000 --dentries 300 | tail -n 1 | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
reg = {s["name"]: s for s in json.loads(sys.argv[1])["strategies"]}
assert d["strategy"] == "embedded" and d["object_bytes"] == reg["embedded"]["object_bytes"], d
assert d["dentries"] == 300, d
assert "cycles/lookup" in d, d' "$("$run" --list --json)"
}
check "driver: the last line is JSON with the scenario's figures" json_line_parses
# Scenarios are sized by the machine's caches: sysfs' where it lists them,
# else (x86-64) CPUID's, and the scripts (meta.json, make cachesim) read the same.
caches_are_the_machines() {
	"$run" --list --json | python3 -c '
import json, os, platform, sys
sys.path.insert(0, "scripts")
from lib import hostcaches
c = json.load(sys.stdin)["caches"]
sysfs = [x for x in hostcaches.sysfs_caches() if x["level"] == 1 and x["type"] in ("Data", "Unified")]
if sysfs:
    assert c["source"] == "sysfs" and c["l1d"] == sysfs[0]["size_bytes"], (c, sysfs)
elif platform.machine() == "x86_64":
    assert c["source"].startswith("cpuid") and c["l1d"] >= 8192 and c["l1d_ways"] > 0 and c["l2"] > c["l1d"], c
    got = hostcaches.machine_caches(os.environ["OPSBENCH_RUN"])
    assert [x["size_bytes"] for x in got if x["type"] != "Instruction"][:2] == [c["l1d"], c["l2"]], (got, c)
else:
    assert c["source"] == "fallbacks", c
'
}
check "driver: the caches it sizes by are sysfs' or else CPUID's, as the scripts read them" caches_are_the_machines
# The binary names the commit it was built from (rebuilt when the tree moves).
commit_is_the_trees() {
	local want got
	want=$(git describe --always --dirty --abbrev=12 2>/dev/null) || return 0 # not a git checkout
	got=$("$run" --list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["commit"])')
	[[ $got == "$want" ]] || { echo "binary says $got, the tree is $want"; return 1; }
}
check "driver: --list --json names the commit the tree is at" commit_is_the_trees
check "driver: --help lists every flag" bash -c "'$run' --help | grep -q -- '--no-pmu' && '$run' --help | grep -q -- '--pollute'"

if command -v valgrind >/dev/null; then
	memcheck_clean() {
		for s in flag_gated embedded parent_ops; do
			valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
				--errors-for-leak-kinds=all "$run" -s "$s" --dentries 600 --lookups 3000 \
				--custom 0.5 --stale 0.1 --name-max 60 --depth 2 --pollute 4K >/dev/null || return 1
		done
	}
	check "driver: valgrind memcheck finds no errors and no leaks" memcheck_clean
fi

# ---- results folders ----

check "results-dir: a RUN that does not exist is refused" \
	bash -c "! RUN=$tmp/nope scripts/results-dir.sh 2>/dev/null; [[ \$(RUN=$tmp/nope scripts/results-dir.sh 2>&1) == *'no such results folder'* ]]"

# A folder made for a tool is marked unfinished until the tool succeeds, so
# a tool that fails or is stopped leaves nothing that looks like a run.
new_folder_marked_until_done() {
	local root=$tmp/rd d
	mkdir -p "$root" && cp -r scripts "$root/" || return 1
	d=$(cd "$root" && COMMAND='make cachesim' scripts/results-dir.sh) || return 1
	grep -q '^unfinished: make cachesim' "$root/$d/INCOMPLETE" && [[ -s $root/$d/meta.json ]] || return 1
	! (cd "$root" && scripts/results-dir.sh --existing 2>/dev/null) || return 1
	python3 -c "import sys; sys.path.insert(0, 'scripts'); from lib import plumbing; plumbing.finish_run('$root/$d')"
	[[ ! -e $root/$d/INCOMPLETE && $(cd "$root" && COMMAND='make perf' scripts/results-dir.sh) == "$d" ]] || return 1
	# make report's --existing: a run of make bench, never a folder made for one tool
	! (cd "$root" && scripts/results-dir.sh --existing 2>/dev/null)
}
check "results-dir: a new folder is INCOMPLETE until its tool finishes; make report never takes it" new_folder_marked_until_done

# ---- cachesim ----

if command -v valgrind >/dev/null; then
	cp -r tests/fixtures/report/supported "$tmp/cs1" && cp -r tests/fixtures/report/supported "$tmp/cs2" &&
		rm "$tmp/cs1/cachesim.csv" "$tmp/cs2/cachesim.csv"
	cachesim_twice_identical() {
		python3 scripts/cachesim.py --driver "$run" --out "$tmp/cs1" --scenarios tiny \
			--lookups 2000 --strategies flag_gated,null_tested || return 1
		python3 scripts/cachesim.py --driver "$run" --out "$tmp/cs2" --scenarios tiny \
			--lookups 2000 --strategies flag_gated,null_tested || return 1
		cmp "$tmp/cs1/cachesim.csv" "$tmp/cs2/cachesim.csv" && [[ $(wc -l <"$tmp/cs1/cachesim.csv") == 3 ]] &&
			grep -q '^tiny-0pct-coldops,flag_gated,2000,64,' "$tmp/cs1/cachesim.csv"
	}
	check "cachesim: two runs give identical numbers" cachesim_twice_identical
	cachesim_refuses() {
		! python3 scripts/cachesim.py --driver "$run" --out "$tmp/cs1" --strategies nosuch 2>"$tmp/err" &&
			grep -q 'no such strategy: nosuch' "$tmp/err" &&
			! python3 scripts/cachesim.py --driver "$run" --out "$tmp/none" 2>"$tmp/err" &&
			grep -q 'no such folder' "$tmp/err"
	}
	check "cachesim: an unknown strategy or a missing folder is refused" cachesim_refuses
else
	echo "[  SKIPPED ] cachesim: valgrind is not installed"
fi

# ---- perf ----

mkdir -p "$tmp/fakebin"
# perf.sh writes only into a run folder (scripts/runs.py check): fixture runs.
cp -r tests/fixtures/report/supported "$tmp/perf-real"
cp -r tests/fixtures/report/supported "$tmp/perf-fake"
perf_here() {
	# Whatever this machine's PMU: perf.sh either counts or says why in one line.
	DRIVER=$run OUT=$tmp/perf-real REPEAT=1 LOOKUPS=1000 scripts/perf.sh && [[ -s $tmp/perf-real/perf.md ]]
}
if command -v perf >/dev/null; then
	check "perf: counts, or says in one line that it cannot" perf_here
fi
cat >"$tmp/fakebin/perf" <<'FAKE'
#!/usr/bin/env bash
# A stand-in for `perf stat -x, [-r N] -e EVENTS [-o FILE] -- cmd`: runs cmd and
# reports 1000 + 10 x lookups of each event, as perf's CSV does.
out=/dev/stderr; events=; cmd=()
while (($#)); do
	case $1 in
	-o) out=$2; shift 2 ;; -e) events=$2; shift 2 ;; -r|-x) shift 2 ;;
	--) shift; cmd=("$@"); break ;; *) shift ;;
	esac
done
n=0
for ((i = 0; i < ${#cmd[@]}; i++)); do [[ ${cmd[i]} == --lookups ]] && n=${cmd[i+1]}; done
((${#cmd[@]})) && "${cmd[@]}" >/dev/null
{ echo "# started on today"; echo
  IFS=, read -r -a ev <<<"$events"
  for e in "${ev[@]}"; do echo "$((1000 + 10 * n)),,$e,1.00%,100,100.00,,"; done; } >"$out"
FAKE
chmod +x "$tmp/fakebin/perf"
perf_arithmetic() {
	PATH="$tmp/fakebin:$PATH" DRIVER=$run OUT=$tmp/perf-fake REPEAT=2 LOOKUPS=500 \
		SCENARIO=L1-0pct-warm scripts/perf.sh >/dev/null || return 1
	# (1000 + 10 * 500 - 1000) / 500 = 10 per lookup for every event and strategy.
	grep -q '^flag_gated,instructions,10.0000,500,2,' "$tmp/perf-fake/perf.csv" &&
		[[ $(grep -c ',10.0000,' "$tmp/perf-fake/perf.csv") == $((6 * nstrat)) ]] &&
		grep -q '| direct |' "$tmp/perf-fake/perf.md"
}
check "perf: setup subtracted and divided per lookup (stand-in perf)" perf_arithmetic

# ---- hyperfine ----

if command -v hyperfine >/dev/null; then
	# hyperfine.sh writes only into a run folder, as perf.sh: a fixture run.
	cp -r tests/fixtures/report/supported "$tmp/hf"
	hyperfine_exports() {
		DRIVER=$run OUT=$tmp/hf RUNS=2 LOOKUPS=1000 SCENARIO=L1-0pct-warm \
			scripts/hyperfine.sh >/dev/null || return 1
		python3 -c '
import json, sys
names = [r["command"] for r in json.load(open(sys.argv[1]))["results"]]
assert len(names) == int(sys.argv[2]) + 1 and "flag_gated" in names and names[0].startswith("setup only"), names
' "$tmp/hf/hyperfine.json" "$nstrat" && [[ -s $tmp/hf/hyperfine.md ]]
	}
	check "hyperfine: JSON and Markdown with every strategy and the setup run" hyperfine_exports
fi

finish "tools smoke"
