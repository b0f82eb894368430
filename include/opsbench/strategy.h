/* SPDX-License-Identifier: MIT */
/*
 * strategy.h - the dispatch strategies, as one registration table.
 *
 * Every strategy is the same lookup path (src/model/walk.h) compiled with
 * its own answer to one question: how is an optional op found and called?
 * Each lives in src/strategies/<name>.c and is listed once, in
 * src/strategies/list.h; ob_strategies[] and for_each_strategy() walk that
 * list.  The rest of opsbench sees a strategy's tree only through this
 * header, and a lookup's answer only as a workload node index.
 */
#ifndef OPSBENCH_STRATEGY_H
#define OPSBENCH_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opsbench/error.h"
#include "opsbench/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A workload instantiated in one strategy's layout (opaque). */
struct ob_tree;

/* Memory one tree uses, by kind, in bytes. */
struct ob_mem {
	size_t object_size;	/* bytes per dentry (sizeof its struct dentry) */
	size_t dentries;	/* dentries * object_size */
	size_t hashtable;	/* hash buckets */
	size_t inodes;		/* the inodes behind the dentries */
	size_t ext_names;	/* names too long for d_iname */
	size_t ops;		/* ops tables and superblocks */
	size_t total;		/* all of the above */
	size_t mapped;		/* the tree's mapping (src/model/tree.h), page-rounded */
	size_t huge_pages;	/* bytes of the mapping on transparent huge pages, now */
};

/*
 * How a benchmark loop times its lookups.
 *
 *   OB_THROUGHPUT  independent lookups, back to back: the processor overlaps
 *                  one lookup with the next, so time per lookup is the
 *                  inverse of throughput; pollution, if any, is part of it
 *   OB_LATENCY     each lookup starts only when the previous one's result is
 *                  known (its start and path depend on it through a zero
 *                  the compiler cannot see), as the components of one path
 *                  walk do: time per lookup is its latency
 *   OB_COLD        one lookup at a time between serialised timestamps
 *                  (include/opsbench/tsc.h), with the pollution touched
 *                  before it, outside the timed region; the loop's time is
 *                  not the measurement, ob_run.timed_ticks is
 */
enum ob_mode {
	OB_THROUGHPUT,
	OB_LATENCY,
	OB_COLD,
	OB_MODE_COUNT
};

/* Name of @m as benchmark names and outputs spell it ("throughput", ...). */
const char *ob_mode_name(enum ob_mode m);

/*
 * What is around the lookup (docs/model.md#context).
 *
 *   OB_CTX_BARE            the bare dcache lookup: hash, chain walk, compare,
 *                          revalidate; table base and shift as constants
 *   OB_CTX_COMPONENT_6_12  a whole path component as Linux 6.12 runs it:
 *                          may_lookup()'s permission step (inode_permission,
 *                          generic_permission, make_vfsuid; the LSM hook a
 *                          static key that is off), walk_component,
 *                          lookup_fast, __d_lookup_rcu and step_into as calls
 *   OB_CTX_COMPONENT_6_1   the same as Linux 6.1 runs it: the LSM hook an
 *                          indirect call through security_hook_heads (the
 *                          BPF LSM's stub), the table's base and shift loaded
 *                          from memory
 */
enum ob_context {
	OB_CTX_BARE,
	OB_CTX_COMPONENT_6_12,
	OB_CTX_COMPONENT_6_1,
	OB_CTX_COUNT
};

/* "bare" or "component". */
const char *ob_context_name(enum ob_context c);

/* The kernel generation @c follows: "6.12" or "6.1". */
const char *ob_context_kernel(enum ob_context c);

/*
 * The context called @context ("bare", "component") in kernel @kernel
 * ("6.1", "6.12"; NULL: 6.12); OB_CTX_COUNT when there is none (the bare
 * lookup is 6.12's alone).
 */
enum ob_context ob_context_find(const char *context, const char *kernel);

/*
 * State of a benchmark loop across batches: where it is in the lookup list,
 * how it times, and the unrelated memory it touches between lookups (cache
 * pollution).
 */
struct ob_run {
	size_t cursor;			/* next entry of the lookup list */
	enum ob_mode mode;
	enum ob_context context;	/* what is around each lookup; 0: bare */
	size_t pollute_bytes;		/* touched before each lookup; 0: none */
	unsigned char *pollute_buf;	/* a buffer of pollute_size bytes */
	size_t pollute_size;		/* pollute_bytes: each lookup sweeps it whole */
	size_t pollute_pos;		/* where the next touch starts */
	uint64_t timed_ticks;		/* OB_COLD: timestamp ticks inside lookups, summed */
	uint32_t *lookup_ticks;		/* OB_COLD: each lookup's ticks, in order (room for
					 * every lookup of a call), or NULL: the sum only */
	/* OB_COLD: the warm-up lookup ob_pollute() makes (src/model/warmup.h), set by the
	 * strategy's loop: walk, or NULL for none, and its start and path. */
	void *(*warmup_walk)(void *dir, const char *path);
	void *warmup_dir;
	const char *warmup_path;
};

struct strategy {
	const char *name;	/* as on the command line: "flag_gated" */
	const char *summary;	/* one line: how an optional op is reached */
	const char *origin;	/* where the pattern comes from */
	size_t object_size;	/* sizeof its struct dentry, in bytes */
	size_t inline_name_len;	/* its DNAME_INLINE_LEN: longer names are external */
	bool custom_ops;	/* false: only workloads without custom ops */
	/*
	 * The baselines strategies are compared with: @baseline, no dispatch at
	 * all (direct); where it cannot run (custom ops), @custom_baseline.
	 */
	bool baseline;
	bool custom_baseline;

	/*
	 * build - instantiate @wl for context @ctx; the tree refers to @wl's
	 * paths, so @wl must outlive it.  @ctx picks the kernel whose inode
	 * ops the inodes get (generic_permission differs between 6.1 and
	 * 6.12); a lookup in another context finds the same dentries.
	 * Returns 0 or a negative errno (and @err says why).
	 */
	int (*build)(const struct workload *wl, enum ob_context ctx, struct ob_tree **out,
		     struct ob_err *err);
	/* destroy - free a tree from build(). */
	void (*destroy)(struct ob_tree *t);
	/*
	 * lookup - walk @path from node @start.  Returns the node found, or
	 * WL_NONE (no such name, stale, or a non-directory in the middle).
	 */
	long (*lookup)(const struct ob_tree *t, uint32_t start, const char *path);
	/* lookup_in - lookup() in context @ctx (WL_NONE also when permission is denied). */
	long (*lookup_in)(const struct ob_tree *t, enum ob_context ctx, uint32_t start,
			  const char *path);
	/*
	 * run - the benchmark loop: @n lookups from the workload's lookup list,
	 * cycling, from @r->cursor on, timed as @r->mode says; touches @r's
	 * pollution buffer before each lookup when asked.  Returns a checksum
	 * of the dentries found.  @r->context says what is around each
	 * lookup.
	 */
	uint64_t (*run)(struct ob_tree *t, struct ob_run *r, uint64_t n);
	/* memory - what @t uses. */
	void (*memory)(const struct ob_tree *t, struct ob_mem *mem);
};

/* Every strategy, in table order, NULL-terminated. */
extern const struct strategy *const ob_strategies[];

#define for_each_strategy(s, i) \
	for ((i) = 0; ((s) = ob_strategies[i]) != NULL; (i)++)

/* Number of strategies in ob_strategies[]. */
size_t ob_strategy_count(void);

/* The strategy called @name, or NULL. */
const struct strategy *ob_strategy_find(const char *name);

/*
 * Touch the next @r->pollute_bytes of @r's buffer (one byte per cache line),
 * make the warm-up lookup where @r->warmup_walk is set (cold mode:
 * docs/method.md#the-warm-up-lookup), then touch the stack around the
 * caller, its frame and the 1 KiB below it, as a kernel path walk finds its
 * stack hot (src/pollute.c).  make cachesim counts nothing of it.
 */
OB_REALIGN void ob_pollute(struct ob_run *r);

/*
 * ob_pollute_alloc - a zeroed pollution buffer of @bytes, the bytes touched
 * per lookup: each lookup sweeps it whole, evicting the L1D and leaving no
 * more than @bytes in the L2 (a larger buffer, cycled through, also evicted
 * lookups' lines from the L2, by where its pages landed).  On huge pages
 * where the kernel gives them, so that which cache sets it evicts depends on
 * its size, not on where its 4 KiB pages land.  NULL when out of memory;
 * free().  Why this size: docs/method.md#pollution.
 */
unsigned char *ob_pollute_alloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_STRATEGY_H */
