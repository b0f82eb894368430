/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the layout-independent half of a strategy's tree: where it lives
 * in memory, the hash table, inodes, long names, superblocks and the
 * prepared lookup list.  src/tree.c maps and frees it; the strategy's own
 * translation unit (src/model/instance.h) fills the dentries in.
 *
 * PLACEMENT.  Every tree, whatever its strategy, is built at the same
 * virtual address, OB_TREE_BASE, in one mapping of its own:
 *
 *   OB_TREE_BASE       the hash table: 2^OB_D_HASH_BITS buckets
 *   then               superblocks, dentries (a line-aligned arena, the
 *                      slab), inodes, long names, the lookup list and a
 *                      copy of its paths
 *
 * so that the hash salts (the parents' addresses), buckets and chains, and
 * the cache sets every line falls in, are the same for every strategy and in
 * every process, whatever the environment, argv or checkout path.  Several
 * trees may exist at once (the suite compares strategies in one process):
 * the one in use is moved to OB_TREE_BASE with mremap() by tree_enter() (the
 * page tables move, not the data), the others wait in slots above it.
 *
 * The table's base and size are compile-time constants, as Linux 6.11+
 * patches them into the code at boot (runtime_const_ptr(dentry_hashtable),
 * runtime_const_shift_right_32(d_hash_shift)): a lookup loads neither.
 * 2^20 buckets is what Linux allocates on a machine with about 8 GiB of
 * memory (alloc_large_system_hash, one bucket per 8 KiB); as in the kernel,
 * a small tree uses few of them, and each lookup's bucket is usually on a
 * line of its own.
 */
#ifndef OPSBENCH_MODEL_TREE_H
#define OPSBENCH_MODEL_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "opsbench/dentry.h"
#include "opsbench/hash.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

/*
 * Where the tree in use lives.  Inside a 39-bit address space (arm64 with
 * 3-level page tables) and inside what valgrind gives its client; ASan's
 * shadow covers that range, so sanitizer builds use a high address instead
 * (below ASan's own allocator at 0x600000000000).
 */
#if defined(__SANITIZE_ADDRESS__)
#define OB_TREE_BASE		0x500000000000ul
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OB_TREE_BASE		0x500000000000ul
#endif
#endif
#ifndef OB_TREE_BASE
#define OB_TREE_BASE		0x4000000000ul
#endif
/* Address space reserved for one tree; slot 0 is OB_TREE_BASE itself. */
#define OB_TREE_SLOT_BYTES	(4ul << 30)
/* Slots: the tree in use, and up to OB_TREE_SLOTS - 1 trees waiting. */
#define OB_TREE_SLOTS		64u

/* The hash table: dentry_hashtable and d_hash_shift as runtime constants. */
#define OB_D_HASH_BITS		20u
#define OB_D_HASH_BUCKETS	(1ul << OB_D_HASH_BITS)
#define OB_D_HASHTABLE		((struct hlist_bl_head *)OB_TREE_BASE)

/*
 * Linux 6.1's dentry_hashtable and d_hash_shift: the same table, its base
 * and shift read from memory by the 6.1 component context
 * (src/model/component.h); defined in src/component.c with the other
 * globals that context reads.
 */
extern struct hlist_bl_head *ob_dentry_hashtable;
extern unsigned int ob_d_hash_shift;

/*
 * The warm-up lookup's room (cold mode): after the pollution's sweep, the
 * walk looks up one name in copies of a directory and its child, with their
 * own superblocks and ops tables, kept here, the child alone on a line of
 * the hash table, so that it trains the branch predictors and brings none
 * of the tree's lines into the cache (src/model/warmup.h builds the copies).
 * Its place in the mapping is fixed like the rest.  Why:
 * docs/method.md#the-warm-up-lookup.
 */
#define OB_WARMUP_DIRS		8	/* places tried for the copied directory */
#define OB_WARMUP_NAME		(256 + NAME_PAD)

struct ob_warmup {
	struct super_block sb[2];	/* copies: the directory's, the child's */
	struct dentry_ops ops[2];	/* copies of their ops tables */
	char name[OB_WARMUP_NAME];	/* the child's name, where it is not inline */
	char path[OB_WARMUP_NAME];	/* what the warm-up looks up: one component */
	/* then 1 + OB_WARMUP_DIRS objects of the tree's stride: child, directories */
} ____cacheline_aligned;

/* After the objects: the copies' inodes and inode ops (the component context). */
struct ob_warmup_inodes {
	struct inode inode[2];		/* the directory's, the child's */
	struct inode_ops iops[2];
};

/* Bytes of the warm-up's room for objects of @stride bytes. */
static inline size_t tree_warmup_bytes(size_t stride)
{
	return sizeof(struct ob_warmup) + (1 + OB_WARMUP_DIRS) * stride +
	       sizeof(struct ob_warmup_inodes);
}

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
	uint32_t *slot;			/* node index -> arena slot (not read by the timed loop) */
	struct inode *inodes;		/* one per node, in the dentries' order (t->slot) */
	char *ext_names;		/* names of the layout's DNAME_INLINE_LEN bytes or more */
	size_t ext_names_size;
	size_t ext_names_used;		/* filled so far, while building */
	struct super_block *sb;		/* one per personality */
	size_t ops_bytes;		/* ops tables the strategy attaches */
	struct ob_prepared *prepared;	/* one per workload lookup */
	size_t n_prepared;
	char *paths;			/* copy of the workload's paths, NAME_PAD after */
	/* Cold mode's warm-up lookup (above): its room, start and path; NULL: none. */
	struct ob_warmup *warmup;
	void *warmup_dir;
	const char *warmup_path;
	/* The mapping: its size, and the slot the tree waits in when not in use. */
	size_t map_bytes;
	unsigned int park;
	unsigned long strategy_state;	/* the strategy's own (static_call: what it attached) */
	enum ob_context ctx;		/* built for: whose kernel's inode ops (strategy.h build) */
};

/*
 * tree_alloc - map a tree for @wl with @s's object size at OB_TREE_BASE,
 * every part zeroed (a tree that was there is moved to its slot first).
 * Dentries are placed in the arena in a seeded random order, as
 * long-lived slab objects are scattered, so that neighbours in the tree are
 * not neighbours in memory.  Returns 0 or a negative errno (@err says why).
 */
OB_REALIGN int tree_alloc(const struct workload *wl, const struct strategy *s,
	       struct ob_tree **out, struct ob_err *err);

/* tree_free - unmap a tree from tree_alloc() (NULL is fine). */
OB_REALIGN void tree_free(struct ob_tree *t);

/*
 * tree_enter - make @t the tree at OB_TREE_BASE (a no-op when it is), so
 * that its pointers are valid.  Every strategy operation calls it first.
 * Moving a mapping cannot fail short of the kernel running out of memory for
 * page tables; then it says so and aborts.
 */
OB_REALIGN void tree_enter(const struct ob_tree *t);

/* tree_memory - the struct ob_mem of @t. */
OB_REALIGN void tree_memory(const struct ob_tree *t, struct ob_mem *m);

/* The memory of node @node's dentry (during the build). */
static inline void *tree_object(const struct ob_tree *t, size_t node)
{
	return t->arena + (size_t)t->slot[node] * t->stride;
}

#endif /* OPSBENCH_MODEL_TREE_H */
