/* SPDX-License-Identifier: MIT */
/*
 * workload.h - a strategy-neutral description of a dentry tree and of the
 * paths looked up in it.
 *
 * A workload is plain data: nodes (dentries) with their parent, name,
 * personality and type, and lookups (a start directory and a relative path).
 * workload_generate() makes one deterministically from parameters and a
 * seed; tests may also build one by hand with workload_add_node() and
 * workload_add_lookup().  Every strategy instantiates the same workload in
 * its own object layout, so results are compared as node indices.
 *
 * Nodes are numbered in creation order; a node's parent always has a smaller
 * index, and node 0 is the root, its own parent.
 */
#ifndef OPSBENCH_WORKLOAD_H
#define OPSBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opsbench/error.h"
#include "opsbench/personality.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Order in which the lookup list visits its targets. */
enum lookup_order {
	ORDER_SORTED,		/* tree order: siblings one after another */
	ORDER_UNIFORM,		/* uniformly random */
	ORDER_ZIPF,		/* Zipf-distributed over a random ranking */
	ORDER_COUNT
};

/* No such node: the answer to a lookup that finds nothing. */
#define WL_NONE		(-1L)

/* Hard limits that keep every index in 32 bits and every name a component. */
#define WL_MAX_DENTRIES	(1ul << 28)
#define WL_MAX_LOOKUPS	(1ul << 26)
#define WL_MAX_DEPTH	16u
#define WL_MAX_FANOUT	4096u

struct workload_params {
	/* Seed of every random choice: equal parameters, equal workload. */
	uint64_t seed;
	/* Dentries in the tree, the root included. */
	size_t dentries;
	/* Children per directory; 0 picks the largest (up to 64) that still
	 * gives the tree path_depth levels below the root. */
	unsigned int fanout;
	/* Share of a directory's children that are directories (at least one). */
	double dir_share;
	/* Name lengths in bytes, uniform in [name_min, name_max]; names of
	 * DNAME_INLINE_LEN (40 with d_op; 24 or 48 in the other layouts) bytes
	 * or more live outside the dentry. */
	unsigned int name_min, name_max;
	/* Share of directories with custom ops (the rest are plain): custom
	 * filesystems are mounted on subtrees until they hold this share of the
	 * directories, rounded; each dentry has its filesystem's ops. */
	double custom_share;
	/* Which custom personalities those draw from, uniformly (bit 1 << p). */
	unsigned int custom_mask;
	/* Components in every looked-up path. */
	unsigned int path_depth;
	/* Order of the lookup list, and the Zipf exponent for ORDER_ZIPF. */
	enum lookup_order order;
	double zipf_s;
	/* Share of lookups whose last component does not exist. */
	double negative_share;
	/* Share of lookups in case-insensitive directories that spell the
	 * component in another case. */
	double case_share;
	/* Share of dentries whose revalidation fails (with a revalidating
	 * personality such a lookup reports "not found"). */
	double stale_share;
	/* Lookups in the list (it is cycled); 0: 2 x dentries, within [512, 1M]. */
	size_t lookups;
};

struct wl_node {
	uint32_t parent;	/* index of the parent; the root's is 0 */
	uint32_t name_off;	/* offset of the NUL-terminated name in names */
	uint16_t name_len;	/* bytes, without the NUL */
	uint8_t personality;	/* enum personality of this dentry's filesystem */
	uint8_t is_dir : 1;
	uint8_t stale : 1;	/* d_revalidate says it is stale */
	uint32_t depth;		/* components below the root */
};

struct wl_lookup {
	uint32_t start;		/* directory the walk starts in */
	uint32_t path_off;	/* offset of the NUL-terminated path in paths */
	long target;		/* node the path names, WL_NONE for a negative
				 * lookup (staleness is not reflected here) */
};

struct workload {
	struct workload_params params;
	struct wl_node *nodes;
	size_t n_nodes, cap_nodes;
	struct wl_lookup *lookups;
	size_t n_lookups, cap_lookups;
	/* Names and paths, NUL-terminated; NAME_PAD zero bytes follow the last. */
	char *names;
	size_t names_len, names_cap;
	char *paths;
	size_t paths_len, paths_cap;
	/* Fanout the generator used (after choosing one for fanout = 0). */
	unsigned int fanout;
};

/* Fill @p with the defaults (opsbench-run --help lists them). */
void workload_params_default(struct workload_params *p);

/* Check @p; on a bad value record which and the allowed range, return -EINVAL. */
int workload_params_check(const struct workload_params *p, struct ob_err *err);

/*
 * workload_memory_estimate - an upper estimate of the bytes that generating
 * @p and building one tree of @object_size-byte dentries will allocate at
 * their peak (growth slack included), to check before allocating anything.
 */
size_t workload_memory_estimate(const struct workload_params *p, size_t object_size);

/* Generate @wl from @p (checked first).  On failure @wl is left empty. */
int workload_generate(const struct workload_params *p, struct workload *wl,
		      struct ob_err *err);

/*
 * workload_init - start an empty hand-built workload: only the root, a plain
 * directory (give it another personality with workload_set_personality()).
 */
int workload_init(struct workload *wl, struct ob_err *err);

/*
 * workload_add_node - add a child of @parent.
 * Returns its index, or a negative errno (bad parent, parent not a
 * directory, bad name: empty, longer than OB_NAME_MAX, containing '/' or NUL,
 * "." or "..", or out of memory).
 */
long workload_add_node(struct workload *wl, uint32_t parent, const char *name,
		       bool is_dir, enum personality p, struct ob_err *err);

/* Change the personality of node @node (a hand-built workload's root, say). */
void workload_set_personality(struct workload *wl, uint32_t node, enum personality p);

/* Add a lookup of @path from directory @start that should find @target. */
long workload_add_lookup(struct workload *wl, uint32_t start, const char *path,
			 long target, struct ob_err *err);

/* Free what @wl holds and leave it empty. */
void workload_free(struct workload *wl);

/* The name of node @i, and the path of lookup @i. */
OB_REALIGN const char *workload_name(const struct workload *wl, size_t i);
const char *workload_path(const struct workload *wl, size_t i);

/* Does any dentry of @wl have a personality with ops? */
OB_REALIGN bool workload_has_custom_ops(const struct workload *wl);

/* Name of @o ("sorted", "uniform", "zipf"), and the order called @name or -1. */
const char *lookup_order_name(enum lookup_order o);
int lookup_order_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_WORKLOAD_H */
