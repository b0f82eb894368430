/* SPDX-License-Identifier: MIT */
/*
 * scenario.h - lookup scenarios as data: one table of named scenarios, and
 * the one definition of how a scenario is sized by the machine's caches and
 * of what "cold" means.  opsbench-run (--scenario NAME, --list --json),
 * opsbench-suite (its profile matrix, and --scenario NAME) and every script
 * (through `opsbench-run --list --json`) take scenarios from here.
 */
#ifndef OPSBENCH_SCENARIO_H
#define OPSBENCH_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include "opsbench/strategy.h"
#include "opsbench/sysinfo.h"
#include "opsbench/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * How large a scenario's tree is: dentries such that a dentry and its own
 * line of the hash table (ob_sizing_bytes()) fill
 *   L1    half the L1D        L2    half the L2
 *   LLC   half the LLC        DRAM  four times the LLC
 *   TINY  64 dentries (tests)
 * and never fewer than 64.
 */
enum ob_size_class {
	OB_SIZE_L1,
	OB_SIZE_L2,
	OB_SIZE_LLC,
	OB_SIZE_DRAM,
	OB_SIZE_TINY,
	OB_SIZE_COUNT
};

/* A named lookup scenario: every parameter the workload does not default. */
struct ob_scenario {
	const char *name;		/* "L1-0pct-coldops": as on the command line */
	const char *summary;		/* one line: what it shows */
	enum ob_size_class size;
	unsigned int custom_pct;	/* % of directories with custom ops */
	enum lookup_order order;
	unsigned int depth;		/* components per path */
	bool cold;			/* ob_cold_pollute_bytes() touched before each lookup */
	enum ob_context context;	/* what is around each lookup (0: bare) */
};

/* Every named scenario, in table order; the last entry has name NULL. */
extern const struct ob_scenario ob_scenarios[];

/* The scenario called @name, or NULL. */
const struct ob_scenario *ob_scenario_find(const char *name);

/* "L1", "L2", "LLC", "DRAM", "tiny". */
const char *ob_size_class_name(enum ob_size_class size);

/*
 * Bytes one dentry of a scenario stands for when sizing a tree: the largest
 * object of any strategy (the registry's), rounded up to a cache line, and
 * its own line of the hash table.
 */
size_t ob_sizing_bytes(void);

/* The bytes @size aims to fill on a machine with caches @c. */
size_t ob_size_class_bytes(enum ob_size_class size, const struct ob_caches *c);

/* Dentries of a tree of class @size on @c (at least 64). */
size_t ob_size_class_dentries(enum ob_size_class size, const struct ob_caches *c);

/*
 * What "cold" means, for every instrument: twice the L1D touched before
 * each lookup, one byte per line, enough to evict the parents and the ops
 * tables from L1 (a buffer of that size, swept whole: ob_pollute_alloc()).
 */
size_t ob_cold_pollute_bytes(const struct ob_caches *c);

/*
 * ob_scenario_params - the workload parameters (defaults, then @sc's) and
 * the bytes to pollute of scenario @sc on a machine with caches @c.
 */
void ob_scenario_params(const struct ob_scenario *sc, const struct ob_caches *c,
			struct workload_params *p, size_t *pollute);

/*
 * ob_parse_caches - "L1D,L2,LLC" in bytes (K and M suffixes) into @c, for
 * sizing scenarios against another machine's caches (a simulated geometry);
 * 1K <= L1D <= L2 <= LLC.  Returns 0, or -EINVAL with a message in @err.
 */
int ob_parse_caches(const char *s, struct ob_caches *c, struct ob_err *err);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_SCENARIO_H */
