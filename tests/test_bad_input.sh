#!/usr/bin/env bash
# test_bad_input.sh - every entry point refuses bad input with one clear
# message naming the bad value, exit status 2, and nothing half-written.
#
#   OPSBENCH_RUN=... OPSBENCH_SUITE=... tests/test_bad_input.sh [--markdown]
#
# The table below is the list of bad inputs tried: expected exit status, a
# fragment the message must contain, and the command.  With --markdown it
# prints the table with what each command actually printed (tests/bad-inputs.md
# is such a print-out).
set -u
cd "$(dirname "$0")/.."
run=${OPSBENCH_RUN:?}
suite=${OPSBENCH_SUITE:?}
export run suite
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export tmp
# A committed reference run: the first results folder git tracks.
ref=$(git ls-files -- 'results/*/meta.json' 2>/dev/null | head -1)
ref=${ref%/meta.json}
export ref
mkdir -p "$tmp/results" "$tmp/nogp" "$tmp/novg"
# PATHs without one tool each, for the "missing tool" cases.
for t in setarch bash env sed awk grep ls cat mktemp dirname uname hostname date; do
	p=$(command -v "$t") && ln -sf "$p" "$tmp/nogp/$t" && ln -sf "$p" "$tmp/novg/$t"
done
# The interpreter itself, not a version manager's shim that needs more of PATH.
py=$(python3 -c 'import sys; print(sys.executable)')
ln -sf "$py" "$tmp/nogp/python3"
ln -sf "$py" "$tmp/novg/python3"
ln -sf "$(command -v gnuplot || echo /bin/false)" "$tmp/novg/gnuplot"
ln -sf "$(command -v valgrind || echo /bin/false)" "$tmp/nogp/valgrind"
cp -r tests/fixtures/report/supported "$tmp/run"
# A source folder (make report RUN=src must write nothing there), and a run
# whose every write hits a full disk (its part files lead to /dev/full).
mkdir "$tmp/src" && cp src/*.c "$tmp/src/"
cp -r tests/fixtures/report/supported "$tmp/full"
for f in summary.md meta.json; do ln -s /dev/full "$tmp/full/$f.part"; done
results_before=$(ls -A results 2>/dev/null | sort | sha256sum)
# Results folders from strangers (issue 36): links where the tools write, a
# FIFO or /dev/zero as the samples, JSON nested 100000 deep, fields of the
# wrong type, an empty run, a registry whose baseline the run never measured,
# bytes that are not UTF-8, and a run too large for ulimit -v.
fx() { cp -r tests/fixtures/report/supported "$tmp/$1"; }
echo "a file outside every results folder" >"$tmp/victim"
fx linked && ln -s "$tmp/victim" "$tmp/linked/report.md.part" && ln -s "$tmp/victim" "$tmp/linked/claims.json"
fx plotlink && mkdir "$tmp/elsewhere" && ln -s "$tmp/elsewhere" "$tmp/plotlink/plots"
fx fifo && rm "$tmp/fifo/benchmarks.json" && mkfifo "$tmp/fifo/benchmarks.json"
fx zero && ln -sf /dev/zero "$tmp/zero/benchmarks.json"
fx deep && python3 -c 'print("[" * 100000 + "]" * 100000)' >"$tmp/deep/benchmarks.json"
edit() { # folder file python-expression-on-d
	python3 -c 'import json, sys
p = sys.argv[1]; d = json.load(open(p)); exec(sys.argv[2]); json.dump(d, open(p, "w"))' "$tmp/$1/$2" "$3"
}
fx strtime && edit strtime benchmarks.json 'd["benchmarks"][0]["real_time"] = "17.5"'
fx booltime && edit booltime benchmarks.json 'd["benchmarks"][0]["real_time"] = True'
fx empty && edit empty benchmarks.json 'd["benchmarks"] = []'
fx gitint && edit gitint meta.json 'd["git"] = {"commit": 42}'
fx cachetype && edit cachetype meta.json 'd["caches"] = [{"type": 5}]'
fx registry && python3 -c 'import json; print(json.dumps({"strategies": [{"name": "nosuch", "baseline": True, "custom_baseline": False}, {"name": "null_tested", "baseline": False, "custom_baseline": True}], "scenarios": [], "pmu_events": []}))' >"$tmp/registry/registry.json"
fx badinc && printf 'stopped \xff\xfe by a stranger\n' >"$tmp/badinc/INCOMPLETE"
fx badcsv && printf '\xff\xfe' >>"$tmp/badcsv/cachesim.csv"
fx nonutf8 && mv "$tmp/nonutf8" "$tmp/$(printf 'run-\xff')"
python3 tests/make_fixture.py big 200000 "$tmp/big"
fx short
# meta.json and cachesim.csv from elsewhere (issue 47): a sparse meta, a
# newer layout, another machine's arch, counts not recorded in provenance,
# provenance that is not JSON, counts of another L1D, a build nobody has.
fx sparsemeta && echo '{}' >"$tmp/sparsemeta/meta.json"
fx newmeta && edit newmeta meta.json 'd["opsbench_meta_version"] = 999'
fx archmeta && edit archmeta meta.json 'd["arch"] = "arm64"' &&
	edit archmeta benchmarks.json 'd["context"]["executable"] = "build/x86_64-gcc-srso/bin/opsbench-suite"'
fx varmeta && edit varmeta meta.json 'd["variants"] = ["plain"]' &&
	edit varmeta benchmarks.json 'b = d["benchmarks"][0]; b["name"] += "/variant:srso"; b["run_name"] = b["name"]'
fx strangecsv && echo '{"files": {"benchmarks.json": {"commit": "x", "variant": "plain", "tool": "make bench"}}}' \
	>"$tmp/strangecsv/provenance.json"
fx badprov && echo 'not json' >"$tmp/badprov/provenance.json"
fx othergeom && edit othergeom meta.json 'd["caches"] = [{"level": 1, "type": "Data", "size_bytes": 49152}]' &&
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r["geometry"], r["arch"] = "host: I1 32768 B, 8-way, 64 B lines; D1 12345 B, 8-way, 64 B lines", "x86_64"
w = csv.DictWriter(open(sys.argv[1], "w"), fieldnames=list(rows[0]))
w.writeheader(); w.writerows(rows)' "$tmp/othergeom/cachesim.csv"
fx twice   # a folder made by hand, reported twice: its cachesim.csv stays good
# The outside pass's cases (issue 47): numbers that parse to inf or below 0,
# no caches to check a host-geometry cachesim.csv against.
fx infmeta && sed -i 's/"elapsed_s": [0-9.]*/"elapsed_s": 1e999/' "$tmp/infmeta/meta.json"
fx negcpus && edit negcpus meta.json 'd["cpus_online"] = -1'
cp -r "$tmp/othergeom" "$tmp/nocaches" && edit nocaches meta.json 'd["caches"] = []'

fx nosuchvar && edit nosuchvar meta.json 'd["variants"] = ["plain", "nosuch"]'
# A machine where nothing is installed, for NO_INSTALL=1: dpkg-query knows no
# package; apt-get, if it were run, would say so.
mkdir "$tmp/nodpkg" && printf '#!/bin/sh\nexit 1\n' >"$tmp/nodpkg/dpkg-query" &&
	printf '#!/bin/sh\necho "apt-get was run" >&2; exit 1\n' >"$tmp/nodpkg/apt-get" && chmod +x "$tmp/nodpkg"/*
fx disjoint && edit disjoint benchmarks.json 'for b in d["benchmarks"]: b["name"] = "other/" + b["name"]; b.pop("run_name", None)'
# The hostile-input pass: pack_run's part file a link out of the folder, both
# samples files, a key twice, NaN, a bad date, a meta.json that is a list.
fx packlink && ln -s "$tmp/victim" "$tmp/packlink/benchmarks.json.gz.part"
fx both && gzip -kn "$tmp/both/benchmarks.json"
fx dupkey && sed -i '0,/"arch"/s//"arch": "sparc", "arch"/' "$tmp/dupkey/meta.json"
fx nanmeta && sed -i '0,/{/s//{"not_a_number": NaN, /' "$tmp/nanmeta/meta.json"
fx baddate && edit baddate meta.json 'd["date"] = "yesterday"'
fx listmeta && echo '[]' >"$tmp/listmeta/meta.json"
# costmodel.py --counts-from: a run without counts, a run of another build
fx nocounts && rm "$tmp/nocounts/cachesim.csv"
fx otherbuild && edit otherbuild meta.json 'd["git"] = {"commit": "1" * 40, "dirty": False}'
# The second hostile-input pass: --out onto a run's own files, a run against
# its own samples file, a commit meta.py could not read (git rev-parse failed).
fx gitnull && edit gitnull meta.json 'd["git"] = {"commit": None, "dirty": False}'
# cachesim.csv: a count beyond the columns every file has, infinite; a row twice.
fx csvinf && sed -i '2s/,0,fixture$/,inf,fixture/' "$tmp/csvinf/cachesim.csv"
fx csvdup && sed -n 2p "$tmp/csvdup/cachesim.csv" >>"$tmp/csvdup/cachesim.csv"
# meta.json: make bench's schedule and the host's load, of the wrong types.
fx sched && edit sched meta.json 'd["schedule"] = "x"'
fx schedgrp && edit schedgrp meta.json 'd["schedule"] = {"lookup_groups": [{"state": "pinned"}]}'
fx loadavg && edit loadavg meta.json 'd["host_load"] = {"start": None, "end": {"loadavg": 7}}'
fx ticks && edit ticks meta.json 'd["host_load"] = {"start": {"ticks": {"steal": "a"}}, "end": None}'

# exit | message fragment | command
cases=$(cat <<'TABLE'
2|--strategy is required|$run
2|--strategy 'nosuch': no such strategy|$run -s nosuch
2|unknown option '--frobnicate'|$run --frobnicate -s direct
2|--dentries needs a value|$run -s direct --dentries
2|--dentries '12abc': expected a whole number|$run -s direct --dentries 12abc
2|--lookups '-5': expected a whole number|$run -s direct --lookups -5
2|--lookups '2e9x': expected a whole number|$run -s direct --lookups 2e9x
2|dentries=0: must be 2..268435456|$run -s direct --dentries 0
2|--dentries '999999999999': expected a whole number, 0..268435456|$run -s direct --dentries 999999999999
2|needs about|$run -s direct --dentries 200000000
2|address-space limit (ulimit -v)|ulimit -v 300000; $run -s direct --dentries 2000000
1|out of memory for a tree of 2000000 dentries|ulimit -v 300000; OPSBENCH_NO_MEMCHECK=1 $run -s direct --dentries 2000000
2|--custom '1.5': expected a number in [0, 1]|$run -s direct --custom 1.5
2|--custom 'nan': expected a number in [0, 1]|$run -s direct --custom nan
2|--custom '-0.1': expected a number in [0, 1]|$run -s direct --custom -0.1
2|--zipf '11': expected a number in|$run -s direct --order zipf --zipf 11
2|--zipf '0': expected a number in|$run -s direct --order zipf --zipf 0
2|--zipf '0x5': expected a number in|$run -s direct --order zipf --zipf 0x5
2|--sample-ms '0x1': expected a number in|$suite --group calib --sample-ms 0x1
2|registry.py DRIVER strategies|python3 scripts/registry.py $run strategies --scenario
2|blocks.py: --target nan: expected a percentage|python3 scripts/blocks.py --target nan $tmp x
2|disasm.py: --columns bogus: expected|python3 scripts/disasm.py --dir $tmp --driver $run --out $tmp/d.md --columns bogus
2|--order 'random': expected sorted, uniform or zipf|$run -s direct --order random
2|--zipf 5: only with --order zipf|$run -s direct --zipf 5
2|--caches '1M,32K,8M': expected 1K <= L1D <= L2 <= LLC|$run -s direct --scenario L2-0pct-warm --caches 1M,32K,8M
2|--caches 32K,1M,8M: it sizes a --scenario|$run -s direct --caches 32K,1M,8M
2|--depth '0': expected a whole number, 1..16|$run -s direct --depth 0
2|--kernel '6.1': the bare lookup is Linux 6.12's alone|$run -s direct --kernel 6.1
2|--context 'kernel': expected bare or component|$run -s direct --context kernel
2|--personalities 'ext4'|$run -s null_tested --personalities ext4
2|--pollute '12Q': expected bytes|$run -s direct --pollute 12Q
2|--pollute '2048M': expected bytes, at most 1G|$run -s direct --pollute 2048M
2|--name-max '300': expected a whole number, 0..255|$run -s direct --name-max 300
2|name_max=3: must be name_min (8)..255|$run -s direct --name-min 8 --name-max 3
2|fanout=1: must be 0 (auto) or 2..4096|$run -s direct --fanout 1
2|unexpected argument 'extra'|$run -s direct extra
2|--mode 'fast': expected throughput, latency or cold|$run -s direct --mode fast
2|--mode cold: needs --pollute BYTES|$run -s direct --mode cold
2|--stack-offset '17': expected a multiple of 16|$run -s direct --stack-offset 17
2|--stack-offset '8192': expected a whole number, 0..4096|$run -s direct --stack-offset 8192
2|--rounds '1': expected a whole number, 2..100000|$suite --group calib --rounds 1
2|--rounds '9x': expected a whole number, 2..100000|$suite --group calib --rounds 9x
2|--sample-ms '0': expected a number in [0.001, 1000]|$suite --group calib --sample-ms 0
2|--sample-ms 'nan': expected a number in [0.001, 1000]|$suite --group calib --sample-ms nan
2|--cpu '-1': expected a CPU number|$suite --group calib --cpu -1
2|cannot run a workload with custom ops|$run -s direct --custom 0.5
2|fewer than path_depth=4|$run -s direct --dentries 3 --depth 4
2|--profile 'fast': expected quick, standard, full or smoke|$suite --profile fast --list-groups
2|unknown argument '--no-such-flag'|$suite --group calib --no-such-flag
2|unknown argument '--benchmark_repetitons=3'|$suite --group calib --benchmark_repetitons=3
2|--group 'nosuch': no such group|$suite --group nosuch
2|--group 'nosuch': no such group|$suite --list-groups --group nosuch
2|--cpu 999: not a CPU this process may run on|$suite --group calib --cpu 999
2|100000 bytes: longer than the 1024 a filter may have|$suite --list-groups --filter "$(head -c 100000 /dev/zero | tr '\0' a)"
2|--benchmark_out=/dev/full: not a regular file|$suite --group calib --benchmark_out=/dev/full
2|--benchmark_time_unit=ps: expected ns, us, ms or s|$suite --group calib --benchmark_time_unit=ps
2|--benchmark_min_warmup_time=-5: expected a number of seconds|$suite --group calib --benchmark_min_warmup_time=-5
2|a symbolic link; refusing to write through it|ln -sf $tmp/victim $tmp/out-link.json; $suite --group calib --benchmark_out=$tmp/out-link.json
2|--benchmark_out=/nonexistent/x.json: cannot write there|$suite --group calib --benchmark_out=/nonexistent/x.json
2|--benchmark_filter=calib: not with --list|$suite --benchmark_filter=calib --list-groups
2|extra: not with --list|$suite --list-profiles extra
2|say which --group to run|$suite
2|unknown argument '--no-such-flag'|$suite --no-such-flag
2|--filter '(': |$suite --list --filter '('
2|no benchmark of group 'calib' matches the filter|$suite --group calib --filter zzz
2|PROFILE='fast': expected quick, standard or full|SUITE=$suite PROFILE=fast scripts/bench.sh
2|PASSES='0': expected a whole number, 1..64|SUITE=$suite PASSES=0 scripts/bench.sh
2|PASSES='two': expected a whole number, 1..64|SUITE=$suite PASSES=two scripts/bench.sh
2|BUDGET='5m': expected a whole number of seconds|SUITE=$suite BUDGET=5m scripts/bench.sh
2|BENCH_BUILD=fast: expected none or one of|make --no-print-directory bench BENCH_BUILD=fast
2|LINK_ORDER=sideways: expected reverse|make --no-print-directory bench LINK_ORDER=sideways
2|LAYOUTS=9: expected layout numbers 1..7|make --no-print-directory -n suite LAYOUTS=9
2|--stack-offset '8': expected a multiple of 16, 0..65536|$suite --stack-offset 8 --list-groups
2|--stack-offset '70000': expected a whole number of bytes, 0..65536|$suite --stack-offset 70000 --list-groups
2|--stack-offset '0x10': expected a whole number of bytes|$suite --stack-offset 0x10 --list-groups
2|--pass 4/4: more blocks than the 3 rounds|SUITE=$suite PROFILE=smoke PASSES=4 scripts/bench.sh
2|--pass '1/2/3': expected K/N|$suite --pass 1/2/3 --list-groups
2|--pass '100/100': expected K/N with 1 <= K <= N <= 64|$suite --pass 100/100 --list-groups
2|--filter '(': |SUITE=$suite FILTER='(' RESULTS=$tmp/results scripts/bench.sh
2|no benchmark matches FILTER='zzz'|SUITE=$suite FILTER=zzz RESULTS=$tmp/results scripts/bench.sh
2|RESULTS=/dev/null/x: cannot create a run folder|SUITE=$suite RESULTS=/dev/null/x scripts/bench.sh
2|RUN=/nonexistent: no such results folder|RUN=/nonexistent scripts/results-dir.sh
2|no such strategy: nosuch|python3 scripts/cachesim.py --driver $run --out $tmp/run --strategies nosuch
2|--out /nonexistent: no such folder|python3 scripts/cachesim.py --driver $run --out /nonexistent
2|--lookups 0: must be at least 1|python3 scripts/cachesim.py --driver $run --out $tmp --lookups 0
2|GEOMETRY=pentium (--geometry): expected host|python3 scripts/cachesim.py --driver $run --out $tmp --geometry pentium
2|ORDERS=backwards (--orders): expected some of sorted|python3 scripts/cachesim.py --driver $run --out $tmp --orders backwards
2|valgrind not found|PATH=$tmp/novg python3 scripts/cachesim.py --driver $run --out $tmp/run
2|gnuplot not found|PATH=$tmp/nogp python3 scripts/report.py $tmp/run
2|/nonexistent/run: no such results folder|python3 scripts/report.py /nonexistent/run
1|hyperfine: not installed|PATH=$tmp/nogp DRIVER=$run OUT=$tmp scripts/hyperfine.sh
2|ARCH=sparc: expected x86_64 or arm64|make --no-print-directory ARCH=sparc help
2|give two results folders, A=... B=...|make --no-print-directory compare A=results
2|PROFILE='fast'|make --no-print-directory bench PROFILE=fast
2|RUN=/nonexistent: no such results folder|make --no-print-directory report RUN=/nonexistent
2|--benchmark_repetitions=-1: expected a whole number of repetitions|$suite --group calib --benchmark_repetitions=-1
2|--benchmark_repetitions=0: expected a whole number of repetitions|$suite --group calib --benchmark_repetitions=0
2|--benchmark_min_time=-1: expected a number of seconds|$suite --group calib --benchmark_min_time=-1
2|(a plain number: 0.05, not 0.05s)|$suite --group calib --benchmark_min_time=0.05s
2|--benchmark_format=bogus: expected console, json or csv|$suite --group calib --benchmark_format=bogus
2|--benchmark_out_format=xml: expected console, json or csv|$suite --group calib --benchmark_out_format=xml
2|not a regular expression Google Benchmark can use|$suite --list --filter 'a{,3}'
2|not a regular expression Google Benchmark can use|SUITE=$suite FILTER='a{,3}' RESULTS=$tmp/results scripts/bench.sh
1|opsbench-run: cannot write the output: No space left on device|$run -s direct --dentries 64 --lookups 100 >/dev/full
1|opsbench-suite: cannot write the output: No space left on device|$suite --list >/dev/full
2|are the same folder|make --no-print-directory compare A=$tmp/run B=$tmp/run
2|PROFILE='quick x': expected one word|make --no-print-directory bench PROFILE='quick x'
2|--pollute 'K': expected bytes|$run -s direct --pollute K
2|--seed ' -1': expected a whole number|$run -s direct --seed ' -1'
2|names must have at least 2 bytes to be distinct|$run -s direct --name-min 1 --name-max 1
2|with --pollute 1073741824 (a 1024 MiB buffer) needs about|ulimit -v 500000; $run -s direct --dentries 64 --pollute 1024M
2|--list: no benchmark matches (group 'all', filter 'zzz')|$suite --list --filter zzz
2|--group 'nosuch': no such group|$suite --list --group nosuch
1|every benchmark of group 'lookup/size:L2/|ulimit -v 100000; $suite --rounds 2 --sample-ms 0.01 --group "$($suite --list-groups | grep -m1 'size:L2/.*/custom:0/order:uniform/pollute:0/')"
2|GEOMETRY=bogus (--geometry): expected host|make --no-print-directory cachesim GEOMETRY=bogus
2|ORDERS=bogus (--orders): expected some of sorted|make --no-print-directory cachesim ORDERS=bogus
2|src/meta.json: missing|make --no-print-directory report RUN=$tmp/src
1|summary.md.part: File too large|ulimit -f 0; python3 scripts/summary.py $tmp/short
1|meta.json.part: File too large|ulimit -f 0; python3 scripts/meta.py --update $tmp/short/meta.json --elapsed 1
0|report: wrote|python3 scripts/report.py --no-plots $tmp/linked
0|# opsbench summary|python3 scripts/summary.py $tmp/full
2|plots: a symbolic link; refusing to write plots through it|python3 scripts/report.py $tmp/plotlink
2|a committed reference run (tracked by git); tools write into it only with WRITE_REFERENCE=1|RUN=$ref scripts/results-dir.sh
2|src/meta.json: missing|DRIVER=$run OUT=$tmp/src scripts/perf.sh
2|benchmarks.json: not a regular file; refusing to read it|timeout 20 python3 scripts/report.py --no-plots $tmp/fifo
2|benchmarks.json: not a regular file; refusing to read it|timeout 20 python3 scripts/report.py --no-plots $tmp/zero
2|benchmarks.json: JSON nested more than|python3 scripts/report.py --no-plots $tmp/deep
2|real_time '17.5': expected a number|python3 scripts/report.py --no-plots $tmp/strtime
2|real_time True: expected a number|python3 scripts/report.py --no-plots $tmp/booltime
2|no benchmark results in its 'benchmarks' list|python3 scripts/compare_runs.py $tmp/run $tmp/empty
2|git.commit=42: expected str|python3 scripts/report.py --no-plots $tmp/gitint
2|caches: type=5: expected str|python3 scripts/report.py --no-plots $tmp/cachetype
2|baseline 'nosuch' is not a strategy this run measured|python3 scripts/report.py --no-plots $tmp/registry
2|incomplete run (stopped \xff\xfe by a stranger)|python3 scripts/report.py --no-plots $tmp/badinc
2|cachesim.csv: not UTF-8 text (byte 0xff|python3 scripts/report.py --no-plots $tmp/badcsv
0|compare-vs-run-\xff.md|python3 scripts/compare_runs.py $tmp/run-* $tmp/run
1|out of memory|ulimit -v 150000; python3 scripts/report.py --no-plots $tmp/big
2|GEOMETRY=-h (--geometry): expected host|make --no-print-directory cachesim GEOMETRY=-h
2|RUN=-h: no such results folder|make --no-print-directory report RUN=-h
2|LOOKUPS='10 --list': expected a whole number|LOOKUPS='10 --list' DRIVER=$run OUT=$tmp/run scripts/hyperfine.sh
2|RUNS='0': expected a whole number, 1..1000|RUNS=0 DRIVER=$run OUT=$tmp/run scripts/hyperfine.sh
2|REPEAT='-1': expected a whole number|REPEAT=-1 DRIVER=$run OUT=$tmp/run scripts/perf.sh
0|packlink/benchmarks.json.gz (|python3 scripts/pack_run.py $tmp/packlink
2|benchmarks.json.gz: already there; refusing to overwrite it|python3 scripts/pack_run.py $tmp/both
2|usage: pack_run.py|python3 scripts/pack_run.py
2|holds both benchmarks.json and benchmarks.json.gz: keep one|python3 scripts/report.py --no-plots $tmp/both
2|the key 'arch' appears twice in one object|python3 scripts/report.py --no-plots $tmp/dupkey
2|NaN: not a finite number|python3 scripts/report.py --no-plots $tmp/nanmeta
2|date='yesterday': not an ISO 8601 date|python3 scripts/report.py --no-plots $tmp/baddate
2|usage: [RUN=folder]|scripts/results-dir.sh --help
0|usage: summary.py|python3 scripts/summary.py --help
2|usage: summary.py|python3 scripts/summary.py
2|SCENARIO=nosuch: no scenario 'nosuch'|SCENARIO=nosuch DRIVER=$run scripts/hyperfine.sh --check
2|DRIVER=/nonexistent: not an executable file|DRIVER=/nonexistent scripts/perf.sh --check
2|--update needs --elapsed|python3 scripts/meta.py --update $tmp/short/meta.json
2|--elapsed -1: expected a whole number of seconds, at least 0|python3 scripts/meta.py --update $tmp/short/meta.json --elapsed -1
2|are the same run|python3 scripts/repro.py $tmp/run $tmp/run
2|--counts-from: /nonexistent: no such results folder|python3 scripts/costmodel.py --counts-from /nonexistent $tmp/run
2|no cachesim.csv there|python3 scripts/costmodel.py --counts-from $tmp/nocounts $tmp/run
2|not the same build as|python3 scripts/costmodel.py --counts-from $tmp/otherbuild $tmp/run
2|required: run|python3 scripts/costmodel.py --counts-from $tmp/run
2|meta.json: not an object|python3 scripts/repro.py $tmp/run $tmp/listmeta
2|--strategies '': no strategy named|python3 scripts/cachesim.py --check --driver $run --out $tmp/run --strategies ''
2|expected a Markdown file name (FILE.md)|python3 scripts/compare_runs.py --out $tmp/run/meta.json $tmp/short $tmp/run
2|expected a Markdown file name (FILE.md)|python3 scripts/repro.py $tmp/short $tmp/run --out $tmp/run/benchmarks.json
2|expected a Markdown file name (FILE.md)|python3 scripts/repro.py $tmp/short $tmp/run --out ''
2|inside a committed reference run|python3 scripts/compare_runs.py --out $ref/report.md $tmp/short $tmp/run
2|are the same run|python3 scripts/repro.py $tmp/run $tmp/run/benchmarks.json
2|--tolerance inf: give a percentage above 0 and below 100|python3 scripts/repro.py $tmp/short $tmp/run --tolerance 1e400
0|compare: wrote|python3 scripts/compare_runs.py --out $tmp/gitnull.md $tmp/run $tmp/gitnull
2|I1_misses_per_lookup='inf' is not a finite count|python3 scripts/costmodel.py $tmp/csvinf
2|L1-0pct-coldops/flag_gated appears twice for one build|python3 scripts/costmodel.py $tmp/csvdup
2|schedule='x': expected dict|python3 scripts/report.py --check $tmp/sched
2|schedule.lookup_groups: group=None: expected str|python3 scripts/summary.py $tmp/schedgrp
2|host_load.end: loadavg=7: expected str|python3 scripts/report.py --no-plots $tmp/loadavg
2|host_load.start.ticks: expected whole numbers|python3 scripts/summary.py $tmp/ticks
2|VARIANT='srso plain': expected one word|make --no-print-directory -n tools VARIANT='srso plain'
2|LINK_ORDER='reverse reverse': expected one word|make --no-print-directory -n tools LINK_ORDER='reverse reverse'
2|opsbench_meta_version=None: not a meta.json that scripts/meta.py wrote|python3 scripts/report.py --no-plots $tmp/sparsemeta
2|written by a newer opsbench (this one reads version 1)|python3 scripts/report.py --no-plots $tmp/newmeta
2|arch 'arm64', but the samples come from build/x86_64-gcc-srso|python3 scripts/report.py --no-plots $tmp/archmeta
2|leave out builds the samples come from (srso)|python3 scripts/report.py --no-plots $tmp/varmeta
2|cachesim.csv: not in provenance.json: make cachesim did not write it|python3 scripts/report.py --no-plots $tmp/strangecsv
2|provenance.json: not valid JSON|RUN=$tmp/badprov scripts/results-dir.sh
2|simulated with a 12345 B L1D, but this run's host has 49152 B|python3 scripts/report.py --no-plots $tmp/othergeom
2|variants: nosuch: no such build here|python3 scripts/runs.py variants --known "plain srso" $tmp/nosuchvar
2|have no benchmark in common|python3 scripts/compare_runs.py $tmp/run $tmp/disjoint
2|takes std::regex (Google Benchmark's engine) exponential time|$suite --list --filter '(.|.)*X'
2|takes std::regex (Google Benchmark's engine) exponential time|SUITE=$suite FILTER='(a+)+b' RESULTS=$tmp/results scripts/bench.sh
2|still matching names after 10 s|timeout 60 $suite --list --filter '.*.*.*.*.*.*.*.*.*X'
2|takes a backtracking engine exponential time|python3 scripts/repro.py $tmp/short $tmp/run --match '(.|.)*X'
0|calib/empty_loop|$suite --group calib --filter 'calib/empty_loop$' --benchmark_repetitions=1 --benchmark_min_time=0.001
2|acts only on directories with casefold ops|$run -s direct --case 1 --dentries 64 --lookups 10
2|acts only on directories with revalidate ops|$run -s default_ops --custom 0.5 --personalities casefold --stale 0.5 --dentries 64 --lookups 10
0|report: wrote|python3 scripts/report.py --no-plots $tmp/twice >/dev/null 2>&1 && python3 scripts/report.py --no-plots $tmp/twice
2|NO_INSTALL=1: nothing installed; as root: apt-get install -y --no-install-recommends gcc g++ make libbenchmark-dev|PATH=$tmp/nodpkg:$PATH NO_INSTALL=1 scripts/deps.sh bench
2|elapsed_s=inf: expected a finite number, at least 0|python3 scripts/summary.py $tmp/infmeta
2|cpus_online=-1: expected a finite number, at least 1|python3 scripts/report.py --no-plots $tmp/negcpus
2|meta.json names no L1D of this run's host to check it against|python3 scripts/report.py --no-plots $tmp/nocaches
2|NO_INSTALL=yes: nothing installed;|PATH=$tmp/nodpkg:$PATH NO_INSTALL=yes scripts/deps.sh hyperfine
2|usage: [NO_INSTALL=1] scripts/deps.sh|scripts/deps.sh
2|a filter is still matching names after 10 s|timeout 60 $suite --group calib --benchmark_repetitions=1 --benchmark_filter='.*.*.*.*.*.*.*.*.*.*.*X'
2|FILTER holds a control character|make --no-print-directory bench FILTER="$(printf 'zz\nz')"
2|GEOMETRY=zen$4 (--geometry): expected host|make --no-print-directory cachesim GEOMETRY='zen$4'
2|ulimit -n 20: too few open files for make bench|ulimit -n 20; SUITE=$suite RESULTS=$tmp/results scripts/bench.sh
TABLE
)

pass=0
fail=0
markdown=0
[[ ${1:-} == --markdown ]] && markdown=1
((markdown)) && printf '| command | exit | what it prints |\n|---|---|---|\n'
while IFS='|' read -r want fragment cmd; do
	[[ -n $cmd ]] || continue
	out=$(bash -c "$cmd" 2>&1 </dev/null)
	rc=$?
	first=$(grep -m1 -F -- "$fragment" <<<"$out" || true)
	if ((markdown)); then
		shown=$(printf '%s' "${first:-$out}" | head -n 1 | sed "s#$tmp#\$tmp#g; s#$run#opsbench-run#g; s#$suite#opsbench-suite#g; s/|/\\\\|/g")
		printf '| `%s` | %s | %s |\n' "$(sed 's/|/\\|/g' <<<"$cmd")" "$rc" "$shown"
		continue
	fi
	if [[ $rc == "$want" && -n $first ]] && ! grep -q Traceback <<<"$out"; then
		pass=$((pass + 1))
		echo "[       OK ] $cmd -> $rc: $first"
	else
		fail=$((fail + 1))
		echo "[  FAILED  ] $cmd -> exit $rc (want $want), output:"
		sed 's/^/    /' <<<"$out" | head -8
	fi
done <<<"$cases"
((markdown)) && exit 0

# Make variables are data: a quote in FILTER runs nothing.
out=$(make --no-print-directory bench FILTER="zz'; touch $tmp/pwned; echo '" 2>&1 </dev/null)
if [[ ! -e $tmp/pwned && $out == *"no benchmark matches FILTER="* ]]; then
	pass=$((pass + 1))
	echo "[       OK ] a quote in FILTER is part of the filter, not a shell command"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] FILTER with a quote: $(ls "$tmp"/pwned 2>/dev/null) $out"
fi
# A long filter is passed whole (it was cut at 512 bytes).
long="calib/empty_loop|$(printf 'x%.0s' $(seq 700))"
"$suite" --group calib --filter "$long" --benchmark_repetitions=1 --benchmark_min_time=0.001 \
	--benchmark_out="$tmp/long.json" >/dev/null 2>&1
rc=$?
out=$(cat "$tmp/long.json" 2>/dev/null)
if [[ $rc == 0 && $out == *'"name": "calib/empty_loop'* ]]; then
	pass=$((pass + 1))
	echo "[       OK ] a 717-byte filter runs what it matches"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] a 717-byte filter: $(head -c 300 <<<"$out")"
fi
# The checked filter is the one that runs: a negated filter lists and runs the same benchmarks.
listed=$("$suite" --group calib --list --filter '-calib/chase' | wc -l)
"$suite" --group calib --filter '-calib/chase' --benchmark_repetitions=1 --benchmark_min_time=0.001 \
	--benchmark_out="$tmp/neg.json" >/dev/null 2>&1
ran=$(grep -c '"run_type": "iteration"' "$tmp/neg.json" 2>/dev/null)
if ((listed > 0 && listed == ran)); then
	pass=$((pass + 1))
	echo "[       OK ] a negated filter lists and runs the same $listed benchmarks"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] a negated filter listed $listed benchmarks and ran $ran"
fi

# Links in a results folder are replaced, never written through: the file
# they pointed to outside the folder is as it was, and the run holds files.
if [[ $(cat "$tmp/victim") == "a file outside every results folder" && -f $tmp/linked/report.md &&
	! -L $tmp/linked/report.md && ! -L $tmp/linked/claims.json && ! -e $tmp/linked/report.md.part &&
	-z $(ls -A "$tmp/elsewhere") ]]; then
	pass=$((pass + 1))
	echo "[       OK ] links at report.md.part, claims.json and plots/ were not followed out of the folder"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] a link was followed: victim: $(head -c 80 "$tmp/victim"); elsewhere: $(ls -A "$tmp/elsewhere")"
fi

# Check before write: the refused make report wrote nothing into the source
# folder, the refused make cachesim made no results folder, and the full
# disk left the run as it was (the part files are gone, nothing else moved).
if [[ $(ls -A "$tmp/src" | grep -vc '\.c$') == 0 && $(ls -A results 2>/dev/null | sort | sha256sum) == "$results_before" &&
	! -e $tmp/short/summary.md.part && ! -e $tmp/short/summary.md && ! -e $tmp/short/meta.json.part ]] &&
	cmp -s "$tmp/short/meta.json" tests/fixtures/report/supported/meta.json &&
	[[ -z $(git status --porcelain -- results) ]]; then
	pass=$((pass + 1))
	echo "[       OK ] refused targets wrote nothing: no disasm.md in a source folder, no new results folder, the committed run untouched, a full disk leaves no part file"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] a refused target wrote: $(ls -A "$tmp/src" | grep -v '\.c$') $(ls -A "$tmp/short") $(git status --porcelain -- results)"
fi

# Nothing half-written: the failed bench runs above left no run folder behind.
if [[ -z $(ls -A "$tmp/results") ]]; then
	pass=$((pass + 1))
	echo "[       OK ] refused bench runs left nothing in the results folder"
else
	fail=$((fail + 1))
	echo "[  FAILED  ] refused bench runs left: $(ls -A "$tmp/results")"
fi
echo "bad input: $pass passed, $fail failed ($(grep -c '|' <<<"$cases") bad inputs tried)"
exit "$fail"
