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
#include "opsbench/sysinfo.h"
#include "opsbench/workload.h"

enum profile {
	PROFILE_QUICK,		/* a representative subset: minutes */
	PROFILE_FULL,		/* the whole matrix: under an hour */
	PROFILE_SMOKE,		/* tiny sizes, for `make test` */
};

struct suite_cfg {
	enum profile profile;
	struct ob_caches caches;
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

/* One lookup scenario: everything but the strategy. */
struct scenario {
	char group[160];		/* "lookup/size:L1/custom:10/..." */
	const char *size_class;		/* "L1", "L2", "LLC", "DRAM", "tiny" */
	struct workload_params params;
	size_t pollute;			/* bytes touched between lookups */
	/* Built at the first run of its first benchmark, shared by its strategies. */
	bool ready;
	struct workload wl;
	unsigned char *pollute_buf;
	size_t pollute_size;
};

/* The lookup scenarios of @cfg's profile, in a malloc'd array. */
size_t lookup_scenarios(const struct suite_cfg *cfg, struct scenario **out);

/* List the benchmarks of each group. */
void lookup_list(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l);
void dispatch_list(const struct suite_cfg *cfg, struct bench_list *l);
void calib_list(const struct suite_cfg *cfg, struct bench_list *l);

#endif /* OPSBENCH_BENCH_SUITE_H */
