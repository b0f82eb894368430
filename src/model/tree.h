/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the layout-independent half of a strategy's tree: the arena the
 * dentries live in, the hash table, inodes, long names, superblocks and the
 * prepared lookup list.  src/tree.c allocates and frees it; the strategy's
 * own translation unit (src/model/instance.h) fills the dentries in.
 */
#ifndef OPSBENCH_MODEL_TREE_H
#define OPSBENCH_MODEL_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "opsbench/dentry.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

/* One entry of the lookup list, ready to walk: start dentry and path. */
struct ob_prepared {
	void *start;
	const char *path;
};

struct ob_tree {
	const struct strategy *strategy;
	const struct workload *wl;
	size_t n;			/* dentries */
	size_t stride;			/* bytes per dentry in the arena */
	unsigned char *arena;		/* n * stride bytes, cache-line aligned */
	uint32_t *slot;			/* node index -> arena slot */
	struct inode *inodes;		/* one per node */
	struct hlist_bl_head *hashtable; /* dentry_hashtable */
	size_t buckets;			/* a power of two >= 2n (kernel tables are emptier) */
	unsigned int hash_shift;	/* bucket = hash >> hash_shift */
	char *ext_names;		/* names of DNAME_INLINE_LEN bytes or more */
	size_t ext_names_size;
	size_t ext_names_used;		/* filled so far, while building */
	struct super_block *sb;		/* one per personality */
	size_t ops_bytes;		/* ops tables the strategy attaches */
	struct ob_prepared *prepared;	/* one per workload lookup */
	size_t n_prepared;
};

/*
 * tree_alloc - allocate a tree for @wl with @s's object size, every part
 * zeroed.  Dentries are placed in the arena in a seeded random order, as
 * long-lived slab objects are scattered, so that neighbours in the tree are
 * not neighbours in memory.
 */
int tree_alloc(const struct workload *wl, const struct strategy *s,
	       struct ob_tree **out, struct ob_err *err);

/* tree_free - free a tree from tree_alloc() (NULL is fine). */
void tree_free(struct ob_tree *t);

/* tree_memory - the struct ob_mem of @t. */
void tree_memory(const struct ob_tree *t, struct ob_mem *m);

/* The memory of node @node's dentry. */
static inline void *tree_object(const struct ob_tree *t, size_t node)
{
	return t->arena + (size_t)t->slot[node] * t->stride;
}

#endif /* OPSBENCH_MODEL_TREE_H */
