/* SPDX-License-Identifier: MIT */
/*
 * walk.h - the lookup path, written once and compiled into every strategy.
 *
 * It follows Linux v6.12: link_path_walk() (fs/namei.c) splits the path and
 * hashes each component with hash_name(); the parent's d_hash may rewrite
 * the hash; __d_lookup_rcu() (fs/dcache.c) walks the bucket's chain; the
 * child's d_revalidate decides whether the cached dentry may be used.
 *
 * THE SEAM.  A strategy answers, before including src/model/instance.h:
 *
 *   OP_PRESENT(d, op, FLAG)   does dentry @d have method @op (a member name of
 *                             struct dentry_ops; FLAG its DCACHE_OP_* bit)?
 *   OP_CALL(d, op, args...)   call @d's method @op with @args
 *
 * The same seam finds and calls the inode's one optional op, ->permission
 * (src/model/component.h): @d is then a struct inode and FLAG
 * IOP_OP_PERMISSION.  A strategy reaches the object's parts through
 * ob_ops(), ob_op_flags(), ob_sb_ops() and ob_methods() (below), which
 * take either object.
 *
 * and optionally STRATEGY_HOIST_COMPARE (test the parent's compare op once
 * per lookup, not once per chain entry).  When OP_PRESENT is false the walk
 * does the default inline, as the kernel does.  Nothing else differs between
 * strategies.
 */
#ifndef OPSBENCH_MODEL_WALK_H
#define OPSBENCH_MODEL_WALK_H

#include "model/tree.h"
#include "opsbench/dentry.h"
#include "opsbench/hash.h"

#if !defined(OP_PRESENT) || !defined(OP_CALL) || !defined(SYM)
#error "a strategy defines OP_PRESENT and OP_CALL (and instance.h SYM) before including the walk"
#endif

/*
 * The parts of a dentry or an inode a strategy reaches its ops through:
 * the ops table (d_op, i_op), the flags (d_flags, i_opflags), the
 * filesystem's table (d_sb->s_d_op, i_sb->s_i_op) and the methods stored
 * in the object (d_m, i_m).  Resolved at compile time.
 */
#define OB_OBJ_(x, inode_part, dentry_part)					\
	_Generic((x),								\
		 const struct inode *: ((const struct inode *)(x))->inode_part,	\
		 struct inode *: ((const struct inode *)(x))->inode_part,	\
		 default: ((const struct dentry *)(x))->dentry_part)
#define ob_ops(x)		OB_OBJ_(x, i_op, d_op)
#define ob_op_flags(x)		OB_OBJ_(x, i_opflags, d_flags)
#define ob_sb_ops(x)		OB_OBJ_(x, i_sb->s_i_op, d_sb->s_d_op)
#define ob_methods(x)		OB_OBJ_(x, i_m, d_m)

/* d_hash(): the bucket of @hash; table base and shift are constants (6.11+). */
static inline struct hlist_bl_head *d_hash_bucket(uint32_t hash)
{
	return OB_D_HASHTABLE + (hash >> (32 - OB_D_HASH_BITS));
}

static inline struct hlist_bl_node *hlist_bl_first_rcu(const struct hlist_bl_head *h)
{
	return (struct hlist_bl_node *)((uintptr_t)READ_ONCE(h->first) & ~LIST_BL_LOCKMASK);
}

#define chain_entry(pos)	container_of(pos, struct dentry, d_hash)

/*
 * The two dispatch sites.  Normally inline; `make disasm` builds with
 * OB_DISASM_SITES so that each is an out-of-line function whose machine code
 * objdump can show: site_d_hash (the parent's hash op, per component) and
 * site_d_compare (one chain entry's match test, with the compare op).
 */
#ifdef OB_DISASM_SITES
#define OB_SITE	noinline __attribute__((used))
#else
#define OB_SITE	__always_inline
#endif

/*
 * Is candidate @d the child @name of @parent?  One chain entry's test, with
 * the compare op looked for here (per entry, Linux 2.6.38 .. 5.x) or not
 * (@custom decided once per lookup, Linux 6.x).
 */
static __always_inline bool d_matches(const struct dentry *parent, const struct dentry *d,
				      const struct qstr *name, bool custom)
{
	if (unlikely(custom)) {
		if (d->d_name.hash != name->hash || d->d_parent != parent)
			return false;
		return OP_CALL(parent, d_compare, d, d->d_name.len, d->d_name.name, name) == 0;
	}
	/* Linux 6.x order: the u64 hash+len rejects most neighbours first. */
	if (d->d_name.hash_len != name->hash_len || d->d_parent != parent)
		return false;
	return dentry_string_cmp(d->d_name.name, name->name, name->len) == 0;
}

/* Site: one chain entry, with the compare op looked for per entry (or not). */
static OB_SITE bool site_d_compare(const struct dentry *parent, const struct dentry *d,
				   const struct qstr *name)
{
#ifdef STRATEGY_HOIST_COMPARE
	return d_matches(parent, d, name, false);
#else
	return d_matches(parent, d, name, OP_PRESENT(parent, d_compare, DCACHE_OP_COMPARE));
#endif
}

/* Site: the parent's hash op for one component; negative errno to fail. */
static OB_SITE int site_d_hash(const struct dentry *dir, struct qstr *name)
{
	(void)name;			/* unused where the strategy has no ops */
	if (unlikely(OP_PRESENT(dir, d_hash, DCACHE_OP_HASH)))
		return OP_CALL(dir, d_hash, dir, name);
	return 0;
}

/* The match: its sequence count goes back with it (__d_lookup_rcu's *seqp). */
static __always_inline struct dentry *d_found(struct hlist_bl_node *node, unsigned int *seqp)
{
	struct dentry *d = chain_entry(node);

	*seqp = READ_ONCE(d->d_seq);
	return d;
}

#ifdef STRATEGY_HOIST_COMPARE
/* The chain walk for directories with a compare op (out of line, like 6.x). */
static noinline struct dentry *SYM(d_lookup_op_compare)(const struct dentry *parent,
						   const struct qstr *name, unsigned int *seqp)
{
	struct hlist_bl_node *node;

	for (node = hlist_bl_first_rcu(d_hash_bucket(name->hash)); node; node = node->next)
		if (d_matches(parent, chain_entry(node), name, true))
			return d_found(node, seqp);
	return NULL;
}
#endif

/* __d_lookup_rcu: the child of @parent called @name (and its d_seq), or NULL. */
static __always_inline struct dentry *d_lookup(const struct dentry *parent,
					       const struct qstr *name, unsigned int *seqp)
{
	struct hlist_bl_node *node;

#ifdef STRATEGY_HOIST_COMPARE
	if (unlikely(OP_PRESENT(parent, d_compare, DCACHE_OP_COMPARE)))
		return SYM(d_lookup_op_compare)(parent, name, seqp);
#endif
	for (node = hlist_bl_first_rcu(d_hash_bucket(name->hash)); node; node = node->next)
		if (site_d_compare(parent, chain_entry(node), name))
			return d_found(node, seqp);
	return NULL;
}

/*
 * walk_path - link_path_walk: the dentry @path names, starting in @dir.
 * @path: '/'-separated components; NAME_PAD readable bytes after its NUL.
 * Returns NULL when a component does not exist, a found dentry is stale, or
 * a component followed by '/' is not a directory.
 *
 * RCU-walk's sequence counts are read as the kernel reads them: the start
 * directory's by path_init(), each child's by __d_lookup_rcu(), and the
 * parent's again by lookup_fast() after the lookup, to validate it.  Nothing
 * writes them here, but the loads are part of the path's cost: they are why
 * a directory's line 0 is always in cache when its d_flags are tested.
 */
static __always_inline struct dentry *walk_path(struct dentry *dir, const char *path)
{
	unsigned int seq = READ_ONCE(dir->d_seq), next_seq;

	while (*path == '/')
		path++;
	if (!*path)
		return dir;

	for (;;) {
		struct dentry *child;
		struct qstr this;

		this.name = path;
		this.hash_len = hash_name(dir, path);

		if (unlikely(path[0] == '.') && this.len <= 2 &&
		    (this.len == 1 || path[1] == '.')) {
			/* "." and "..": no hashing, no lookup. */
			child = this.len == 1 ? dir : dir->d_parent;
			next_seq = READ_ONCE(child->d_seq);
		} else {
			if (site_d_hash(dir, &this) < 0)
				return NULL;
			child = d_lookup(dir, &this, &next_seq);
			if (!child)
				return NULL;
			/* lookup_fast: the parent did not change while we looked. */
			if (unlikely(READ_ONCE(dir->d_seq) != seq))
				return NULL;
			if (unlikely(OP_PRESENT(child, d_revalidate, DCACHE_OP_REVALIDATE)) &&
			    OP_CALL(child, d_revalidate, child, 0) <= 0)
				return NULL;
		}

		path += this.len;
		if (!*path)
			return child;
		/* A '/' follows: the child must be a directory (else ENOTDIR). */
		if (!(child->d_flags & DCACHE_DIRECTORY_TYPE))
			return NULL;
		while (*path == '/')
			path++;
		if (!*path)
			return child;
		dir = child;
		seq = next_seq;
	}
}

#endif /* OPSBENCH_MODEL_WALK_H */
