/* SPDX-License-Identifier: MIT */
/*
 * dentry.h - the dentry-like object, its ops table and the superblock.
 *
 * The layout follows struct dentry of Linux v6.12 (include/linux/dcache.h) on
 * a 64-bit machine: 192 bytes, three cache lines.
 *
 *   line 0  (0..63)    what RCU lookup touches: d_flags, d_seq, the hash
 *                      chain link, d_parent, d_name (hash+len as one u64,
 *                      name pointer), d_inode, and the start of the inline
 *                      short name (d_iname, 40 bytes, up to offset 96)
 *   line 1  (64..127)  the rest of d_iname, then d_op at 96, d_sb, d_time,
 *                      d_fsdata
 *   line 2  (128..191) what the lookup never touches (refcount and lists)
 *
 * The ops pointer on line 1 is the point of the whole study: a dispatch
 * strategy that must read it touches a second line of the *parent* (whose
 * own name is never read while its children are looked up).
 *
 * The object is not declared cache-line aligned, like the kernel's: its
 * 192 bytes are a multiple of the line, so objects packed in a line-aligned
 * arena (as in the kernel's dentry slab cache) start on a line.  Strategies
 * whose object must differ pick another DENTRY_LAYOUT before including this
 * header.  Like the kernel (which keeps struct dentry at 192 bytes by sizing
 * DNAME_INLINE_LEN, Linux 6.11+), a layout that stores more or fewer
 * pointers resizes the inline name, never the object: every layout is 192
 * bytes, line 0 is identical in all of them, and only the end of d_iname
 * and what follows it on line 1 move:
 *
 *   DENTRY_LAYOUT_OPS_POINTER  d_op at 96 (the kernel)        d_iname 40 bytes
 *   DENTRY_LAYOUT_EMBEDDED     the three methods at 80        d_iname 24 bytes
 *   DENTRY_LAYOUT_NO_OPS       no per-object ops (via d_sb)   d_iname 48 bytes
 *
 * Names of DNAME_INLINE_LEN bytes or more live outside the object, so the
 * layouts differ in which names are external, as kernels with a different
 * DNAME_INLINE_LEN would.
 *
 * Only the strategy files (and tests of the layout) include this header; the
 * rest of opsbench sees trees through include/opsbench/strategy.h.
 */
#ifndef OPSBENCH_DENTRY_H
#define OPSBENCH_DENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "opsbench/compiler.h"
#include "opsbench/inode.h"

#define DENTRY_LAYOUT_OPS_POINTER	1
#define DENTRY_LAYOUT_EMBEDDED		2
#define DENTRY_LAYOUT_NO_OPS		3

#ifndef DENTRY_LAYOUT
#define DENTRY_LAYOUT DENTRY_LAYOUT_OPS_POINTER
#endif

/*
 * Length of the inline name: 40 bytes as DNAME_INLINE_LEN on 64-bit Linux
 * with d_op; the layouts that hold two pointers more or one less give or take
 * the difference, so that the object stays at 192 bytes.
 */
#if DENTRY_LAYOUT == DENTRY_LAYOUT_OPS_POINTER
#define DNAME_INLINE_LEN	40
#elif DENTRY_LAYOUT == DENTRY_LAYOUT_EMBEDDED
#define DNAME_INLINE_LEN	24
#elif DENTRY_LAYOUT == DENTRY_LAYOUT_NO_OPS
#define DNAME_INLINE_LEN	48
#else
#error "unknown DENTRY_LAYOUT"
#endif

/* d_flags: which ops a dentry has, set once by d_set_d_op() (Linux 2.6.38+). */
#define DCACHE_OP_HASH		0x00000001u
#define DCACHE_OP_COMPARE	0x00000002u
#define DCACHE_OP_REVALIDATE	0x00000004u
/* d_flags: what step_into() tests on the child (Linux 6.12 values). */
#define DCACHE_MOUNTED		0x00010000u
#define DCACHE_NEED_AUTOMOUNT	0x00020000u
#define DCACHE_MANAGE_TRANSIT	0x00040000u
#define DCACHE_MANAGED_DENTRY	(DCACHE_MOUNTED | DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT)
/* d_flags: the type of the inode behind the dentry (DCACHE_ENTRY_TYPE). */
#define DCACHE_DIRECTORY_TYPE	0x00200000u
#define DCACHE_REGULAR_TYPE	0x00400000u
#define DCACHE_SYMLINK_TYPE	0x00600000u
#define DCACHE_ENTRY_TYPE	0x00700000u

/* A name: its hash and length (one u64, length high) and its bytes. */
struct qstr {
	union {
		struct {
			uint32_t hash;
			uint32_t len;
		};
		uint64_t hash_len;
	};
	const char *name;
};

/* Hash chain link and bucket; bit 0 of a bucket's pointer is its lock. */
struct hlist_bl_node {
	struct hlist_bl_node *next;
	struct hlist_bl_node **pprev;
};

struct hlist_bl_head {
	struct hlist_bl_node *first;
};

#define LIST_BL_LOCKMASK	1ul

struct dentry;

/*
 * The three optional methods, as function types so that every declaration
 * names its parameters once.
 */

/*
 * d_hash_fn - give a looked-up name the hash this directory uses.
 * @dir:  the directory being searched (the parent, not the child)
 * @name: in: the name and its hash_name() hash; out: the rewritten hash
 *        (and, in principle, length)
 * Returns 0, or a negative errno to fail the lookup.
 */
typedef int d_hash_fn(const struct dentry *dir, struct qstr *name);

/*
 * d_compare_fn - does a candidate child match the looked-up name?
 * @dentry: the candidate child (its parent is the directory searched)
 * @len:    the candidate's name length
 * @str:    the candidate's name (NAME_PAD readable bytes after it)
 * @name:   the looked-up name
 * Returns 0 on a match.  Called only for candidates whose hash matched.
 */
typedef int d_compare_fn(const struct dentry *dentry, unsigned int len,
			 const char *str, const struct qstr *name);

/*
 * d_revalidate_fn - is a cached dentry still valid?
 * @dentry: the child just found
 * @flags:  lookup flags (LOOKUP_RCU in the kernel; 0 here)
 * Returns 1 if valid, 0 if stale (the lookup then reports it as not found),
 * or a negative errno.
 */
typedef int d_revalidate_fn(struct dentry *dentry, unsigned int flags);

/*
 * struct dentry_ops - a filesystem's dentry methods (dentry_operations).
 * Const, one cache line, shared by every dentry of a filesystem.
 */
struct dentry_ops {
	/*
	 * d_revalidate: called by the walk on the child it found, when the
	 * child has one.  NULL: the dentry is always valid (local
	 * filesystems).  Default: default_d_revalidate(), returns 1.
	 */
	d_revalidate_fn *d_revalidate;
	/*
	 * d_hash: called by the walk on the parent for every component looked
	 * up in it, when the parent has one.  NULL: hash_name()'s hash is
	 * used.  Default: default_d_hash(), leaves the hash as it is.
	 */
	d_hash_fn *d_hash;
	/*
	 * d_compare: called by the chain walk for each child of the parent
	 * whose hash matched, when the parent has one.  NULL: compare
	 * hash+length as one u64, then the bytes with dentry_string_cmp().
	 * Default: default_d_compare(), length then bytes.
	 */
	d_compare_fn *d_compare;
} ____cacheline_aligned;

/* The same three methods stored in an object (DENTRY_LAYOUT_EMBEDDED). */
struct dentry_methods {
	d_revalidate_fn *d_revalidate;	/* as dentry_ops.d_revalidate */
	d_hash_fn *d_hash;		/* as dentry_ops.d_hash */
	d_compare_fn *d_compare;	/* as dentry_ops.d_compare */
};

/* A filesystem instance: one per personality in a tree. */
struct super_block {
	/* Ops every dentry of this filesystem gets (NULL: none). */
	const struct dentry_ops *s_d_op;
	/* DCACHE_OP_* bits of s_d_op, computed once (Linux 6.x s_d_flags). */
	unsigned int s_d_flags;
	/* Revalidation generation; a dentry with another d_time is stale. */
	unsigned long s_generation;
	/* Name of the personality, for messages. */
	const char *s_id;
	/* Inode ops of this filesystem's directories (the parent_ops strategy reads them here). */
	const struct inode_ops *s_i_op;
	/* SB_* bits (SB_POSIXACL: ACLs are checked). */
	unsigned int s_flags;
	/* The user namespace its ids belong to (i_user_ns()). */
	struct user_namespace *s_user_ns;
} ____cacheline_aligned;

struct dentry {
	/* ---- line 0: RCU lookup touched fields ---- */
	unsigned int d_flags;		/* DCACHE_* bits */
	unsigned int d_seq;		/* per-dentry seqcount (read, never raced here) */
	struct hlist_bl_node d_hash;	/* lookup hash chain */
	struct dentry *d_parent;	/* parent directory (root: itself) */
	struct qstr d_name;		/* hash+len, and name (d_iname or external) */
	struct inode *d_inode;		/* never NULL in the model */
	char d_iname[DNAME_INLINE_LEN];	/* short names, NUL-padded */

	/* ---- line 1: ref-walk fields; where the dispatch lives ---- */
#if DENTRY_LAYOUT == DENTRY_LAYOUT_OPS_POINTER
	const struct dentry_ops *d_op;	/* NULL or the fs's ops table */
#elif DENTRY_LAYOUT == DENTRY_LAYOUT_EMBEDDED
	struct dentry_methods d_m;	/* the methods themselves, NULL when absent */
#elif DENTRY_LAYOUT != DENTRY_LAYOUT_NO_OPS
#error "unknown DENTRY_LAYOUT"
#endif
	struct super_block *d_sb;	/* the filesystem */
	unsigned long d_time;		/* generation d_revalidate checks */
	void *d_fsdata;			/* fs-private (unused) */

	/* ---- line 2: never touched by lookup ---- */
	struct {
		int count;
		int lock;
	} d_lockref;			/* refcount and lock (not modelled) */
	struct hlist_bl_node d_lru;	/* LRU list (not modelled) */
	struct hlist_bl_node d_sib;	/* link in the parent's d_children */
	struct hlist_bl_node *d_children; /* first child */
	struct hlist_bl_node d_alias;	/* inode alias list (not modelled) */
};

/* Line 0 is identical in every layout. */
_Static_assert(offsetof(struct dentry, d_flags) == 0, "d_flags at 0");
_Static_assert(offsetof(struct dentry, d_seq) == 4, "d_seq at 4");
_Static_assert(offsetof(struct dentry, d_hash) == 8, "d_hash at 8");
_Static_assert(offsetof(struct dentry, d_parent) == 24, "d_parent at 24");
_Static_assert(offsetof(struct dentry, d_name) == 32, "d_name at 32");
_Static_assert(offsetof(struct dentry, d_inode) == 48, "d_inode at 48");
_Static_assert(offsetof(struct dentry, d_iname) == 56, "d_iname at 56");
_Static_assert(offsetof(struct dentry, d_inode) + sizeof(void *) <= L1_CACHE_BYTES,
	       "RCU lookup fields before d_iname fit in line 0");

#if DENTRY_LAYOUT == DENTRY_LAYOUT_OPS_POINTER
_Static_assert(offsetof(struct dentry, d_op) == 96, "d_op at 96, on line 1");
#elif DENTRY_LAYOUT == DENTRY_LAYOUT_EMBEDDED
_Static_assert(offsetof(struct dentry, d_m) == 80, "methods on line 1, d_iname shortened");
#endif
/* Every layout: d_sb at 104, line 2 at 128, 192 bytes, like Linux. */
_Static_assert(offsetof(struct dentry, d_sb) == 104, "d_sb at 104");
_Static_assert(offsetof(struct dentry, d_lockref) == 128, "line 2 starts at 128");
_Static_assert(sizeof(struct dentry) == 192, "three cache lines, like Linux");
_Static_assert(sizeof(struct dentry) % L1_CACHE_BYTES == 0, "whole lines");

_Static_assert(sizeof(struct dentry_ops) == L1_CACHE_BYTES, "ops table is one line");
_Static_assert(sizeof(struct super_block) == L1_CACHE_BYTES, "a superblock is one line");
_Static_assert(offsetof(struct qstr, hash_len) == 0 &&
	       offsetof(struct qstr, hash) == 0 && sizeof(uint64_t) == 8,
	       "hash in the low half of hash_len (little-endian)");

#endif /* OPSBENCH_DENTRY_H */
