/* SPDX-License-Identifier: MIT */
/*
 * suite.h - the benchmark suite's groups.
 *
 * A group is what one process runs, interleaved: the calibration, the pure
 * dispatch benchmarks, or one lookup scenario with every strategy.  Each
 * group lists its benchmarks into a struct bench_list; the suite registers
 * the list of the group it was asked for.
 */
#ifndef OPSBENCH_BENCH_SUITE_H
#define OPSBENCH_BENCH_SUITE_H

#include <stddef.h>

#include "opsbench/gbench.h"
#include "opsbench/scenario.h"
#include "opsbench/sysinfo.h"
#include "opsbench/workload.h"

enum profile {
	PROFILE_QUICK,
	PROFILE_STANDARD,
	PROFILE_FULL,
	PROFILE_SMOKE,
	PROFILE_COUNT
};

/* @n values of one scenario parameter, written LIST(type, a, b, ...). */
#define LIST(type, ...)	{ .v = (const type[]){ __VA_ARGS__ }, \
			  .n = sizeof((const type[]){ __VA_ARGS__ }) / sizeof(type) }

/*
 * What a profile runs: its groups and how long each measures.  The one
 * statement of every profile (bench/suite.c profiles[]); opsbench-suite
 * --list-profiles prints it, and scripts/bench.sh asks the suite for what
 * it needs (--print-schedule, --variant-build).  The method:
 * docs/method.md#what-a-run-is.
 */
struct profile_info {
	const char *name;
	const char *summary;		/* what it runs, in a few words */
	/* Lookup groups: every combination of these (lookup_scenarios()). */
	struct { const enum ob_size_class *v; size_t n; } sizes;
	struct { const unsigned int *v; size_t n; } custom_pct;
	struct { const enum lookup_order *v; size_t n; } orders;
	struct { const unsigned int *v; size_t n; } depths;
	struct { const bool *v; size_t n; } cold;
	/* And these named scenarios (opsbench/scenario.h), after the matrix. */
	struct { const char *const *v; size_t n; } named;
	/*
	 * The groups a build other than plain runs (make bench's other builds),
	 * as a POSIX extended regular expression over the group names.
	 */
	const char *variant_groups;
	/* Lookup groups: rounds of one sample per benchmark, warm and cold. */
	unsigned int rounds, cold_rounds;
	double sample_ms;		/* lookup groups: milliseconds one sample aims at */
	double sub_sample_us;		/* lookup groups: shortest warm sub-sample (run_interleaved()) */
	/*
	 * make bench: a lookup group's rounds are split into @passes blocks,
	 * each its own process; it runs at least @min_passes of them, and more
	 * only until every ratio of the group is pinned (a 95% interval within
	 * +-@target_pct), the @passes are spent or the run's lookup groups
	 * have taken @budget_s seconds (0: no limit).  docs/method.md#blocks.
	 */
	unsigned int passes, min_passes;
	double target_pct;
	unsigned int budget_s;
	/* Calibration and dispatch groups: Google Benchmark's settings. */
	unsigned int repetitions;	/* samples per benchmark (medians are taken over them) */
	const char *min_time;		/* seconds per repetition */
};

extern const struct profile_info profiles[PROFILE_COUNT];

struct suite_cfg {
	enum profile profile;
	struct ob_caches caches;
	/* Lookup groups: rounds (cold scenarios: cold_rounds), and the time one sample aims at (ns). */
	unsigned int rounds, cold_rounds;
	double sample_ns;
	double sub_sample_ns;	/* the shortest warm sub-sample */
	/*
	 * --pass K/N: this process runs block K (1-based) of N, equal shares of
	 * those rounds, numbered as in the whole run, so that one scenario's
	 * rounds can be spread over N processes (and over the whole run's time);
	 * 1/1 by default.
	 */
	unsigned int pass, passes;
	/* --scenario NAME: the one lookup group, instead of the profile's matrix. */
	const struct ob_scenario *scenario;
	/* --variant-build: only the groups of the profile that other builds run. */
	bool variant_build;
};

struct bench_list {
	struct ob_gb_bench *v;
	size_t n, cap;
};

/* Add a benchmark (its name is copied); exits on out of memory. */
void bench_add(struct bench_list *l, const char *name,
	       int (*prepare)(void *, char *, size_t),
	       uint64_t (*body)(void *, uint64_t),
	       void (*report)(void *, struct ob_gb_state *, uint64_t), void *arg);

/* The code-generation variant this suite was built as (Makefile VARIANT). */
#ifndef OB_VARIANT
#define OB_VARIANT "plain"
#endif

/*
 * Add @b as it is (its name is copied, with "/variant:<v>" appended in a
 * build other than plain, so that every name says how its code was
 * compiled); exits on out of memory.
 */
void bench_push(struct bench_list *l, const struct ob_gb_bench *b);

/* calloc() that ends the process with a message when memory runs out. */
void *xcalloc(size_t n, size_t size);

/*
 * This process's layout (docs/method.md#the-layout): how many bytes the
 * measured code is moved by (the pad after ob_text_start that this binary
 * was linked with), and how far below its usual top the fixed stack starts
 * (--stack-offset).  Every lookup sample reports both.
 */
unsigned int ob_layout_code_bytes(void);
extern unsigned int ob_layout_stack_bytes;

/* Nanoseconds per core clock cycle, measured once per process (calib.c). */
double ob_cycle_ns(void);

/*
 * The host's level: ns per word of a fixed throughput-bound loop over
 * 16 KiB, the fastest of a few runs, measured once per process (calib.c).
 * Every lookup process reports it (host_level_ns), so that a stretch of
 * the run in which the host is slow can be told from the strategies'
 * own times (docs/method.md#the-slow-state-rule).
 */
double ob_host_level_ns(void);

/*
 * Involuntary context switches of this process so far (getrusage's
 * ru_nivcsw, 0 where it fails): a sample during which it grows was
 * preempted, the host took the CPU away (calib.c).
 */
long ob_involuntary_switches(void);

/*
 * One lookup scenario: everything but the strategy.  Without pollution it is
 * timed in throughput and latency mode; with pollution in cold mode only
 * (the pollution outside the timed part).
 */
struct scenario {
	char group[192];		/* "lookup/size:L1/custom:10/..." */
	const char *size_class;		/* "L1", "L2", "LLC", "DRAM", "tiny" */
	struct workload_params params;
	size_t pollute;			/* bytes touched before each lookup */
	enum ob_context context;	/* what is around each lookup (0: bare) */
	/* Built when the group is run, shared by its strategies. */
	bool ready;
	struct workload wl;
	/*
	 * Cold mode's pollution buffer, one for all its strategies: the same
	 * unrelated traffic before every strategy's lookups (ob_pollute_alloc()).
	 */
	unsigned char *pollute_buf;
};

/* The lookup scenarios of @cfg's profile, in a malloc'd array. */
/*
 * --benchmark_out through a part file (bench/outfile.c).  ob_out_begin()
 * checks the file asked for in Google Benchmark's @argv, creates
 * "<out>.<pid>.part" beside it and points the flag there; 0, or the exit
 * status after saying why.  ob_out_finish() ends the run with exit status
 * @status: where it is 0 and the part file is whole, renames it over the
 * file asked for, else removes it; returns the exit status.
 */
int ob_out_begin(int argc, char **argv);
int ob_out_finish(int status);

size_t lookup_scenarios(const struct suite_cfg *cfg, struct scenario **out);

/*
 * List the benchmarks of each group, by name: what --list prints and
 * --filter matches.  Returns only when listed.
 */
void lookup_list(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l);
/*
 * The benchmarks of lookup group @sc to run: its trees built, its samples
 * sized, one benchmark per sample of every round of this process's block.
 * Where the scenario cannot be set up, every benchmark is listed skipped
 * with the reason.
 */
void lookup_schedule(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l);
void dispatch_list(const struct suite_cfg *cfg, struct bench_list *l);
void calib_list(const struct suite_cfg *cfg, struct bench_list *l);
void regulator_list(const struct suite_cfg *cfg, struct bench_list *l);
/* The running kernel's path walk (bench/kernel.c): fstatat() by depth. */
void kernel_list(const struct suite_cfg *cfg, struct bench_list *l);
#define KERNEL_REPETITIONS	21

#endif /* OPSBENCH_BENCH_SUITE_H */
