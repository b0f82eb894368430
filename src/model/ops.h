/* SPDX-License-Identifier: MIT */
/*
 * ops.h - the personalities' dentry methods and ops tables, compiled into
 * each strategy (included by src/model/instance.h, after the strategy has
 * chosen its object layout: d_revalidate reads the dentry).
 *
 * Two sets of tables, like the two ways the kernel writes them:
 *   ops_sparse[]  only the ops a filesystem has, NULL elsewhere; a plain
 *                 filesystem has no table at all (d_op == NULL, like ext4)
 *   ops_full[]    every member set: each table starts from DENTRY_OPS_DEFAULTS
 *                 and overrides what it has (C99: the last initializer wins)
 *
 * Each strategy's copy of a method has its own name, SYM(default_d_hash) =
 * flag_gated_default_d_hash in flag_gated.c, so that a profile or a
 * debugger says which strategy's method ran.
 */
#ifndef OPSBENCH_MODEL_OPS_H
#define OPSBENCH_MODEL_OPS_H

#include "opsbench/casefold.h"
#include "opsbench/dentry.h"
#include "opsbench/hash.h"
#include "opsbench/personality.h"
#include "model/component.h"

/* ---- defaults: what the walk does inline when an op is absent ---- */

static noinline __maybe_unused int SYM(default_d_hash)(const struct dentry *dir, struct qstr *name)
{
	(void)dir;
	(void)name;
	return 0;
}

static noinline __maybe_unused int SYM(default_d_compare)(const struct dentry *dentry, unsigned int len,
						     const char *str, const struct qstr *name)
{
	(void)dentry;
	if (len != name->len)
		return 1;
	return dentry_string_cmp(str, name->name, len);
}

static noinline __maybe_unused int SYM(default_d_revalidate)(struct dentry *dentry, unsigned int flags)
{
	(void)dentry;
	(void)flags;
	return 1;
}

/* ---- the custom ops of the personalities ---- */

/* Case-insensitive hash: fold, then the ordinary salted hash. */
static noinline __maybe_unused int SYM(casefold_d_hash)(const struct dentry *dir, struct qstr *name)
{
	name->hash = casefold_hash(dir, name->name, name->len);
	return 0;
}

static noinline __maybe_unused int SYM(casefold_d_compare)(const struct dentry *dentry, unsigned int len,
						      const char *str, const struct qstr *name)
{
	(void)dentry;
	if (len != name->len)
		return 1;
	return casefold_cmp(str, name->name, len);
}

/* NFS-like: valid while the dentry's generation is its filesystem's. */
static noinline __maybe_unused int SYM(generation_d_revalidate)(struct dentry *dentry, unsigned int flags)
{
	(void)flags;
	return READ_ONCE(dentry->d_time) == READ_ONCE(dentry->d_sb->s_generation);
}

/* ---- tables ---- */

/* Every member set to its default; a table overrides what it has. */
#define DENTRY_OPS_DEFAULTS					\
	.d_revalidate	= SYM(default_d_revalidate),		\
	.d_hash		= SYM(default_d_hash),			\
	.d_compare	= SYM(default_d_compare)

static const struct dentry_ops casefold_ops = {
	.d_hash		= SYM(casefold_d_hash),
	.d_compare	= SYM(casefold_d_compare),
};

static const struct dentry_ops revalidate_ops = {
	.d_revalidate	= SYM(generation_d_revalidate),
};

static const struct dentry_ops all_ops = {
	.d_revalidate	= SYM(generation_d_revalidate),
	.d_hash		= SYM(casefold_d_hash),
	.d_compare	= SYM(casefold_d_compare),
};

OB_DEFAULTS_BEGIN
static const struct dentry_ops plain_ops_full = {
	DENTRY_OPS_DEFAULTS,
};

static const struct dentry_ops casefold_ops_full = {
	DENTRY_OPS_DEFAULTS,
	.d_hash		= SYM(casefold_d_hash),
	.d_compare	= SYM(casefold_d_compare),
};

static const struct dentry_ops revalidate_ops_full = {
	DENTRY_OPS_DEFAULTS,
	.d_revalidate	= SYM(generation_d_revalidate),
};

static const struct dentry_ops all_ops_full = {
	DENTRY_OPS_DEFAULTS,
	.d_revalidate	= SYM(generation_d_revalidate),
	.d_hash		= SYM(casefold_d_hash),
	.d_compare	= SYM(casefold_d_compare),
};
OB_DEFAULTS_END

static const struct dentry_ops *const ops_sparse[PERS_COUNT] __maybe_unused = {
	[PERS_PLAIN]		= NULL,
	[PERS_CASEFOLD]		= &casefold_ops,
	[PERS_REVALIDATE]	= &revalidate_ops,
	[PERS_ALL]		= &all_ops,
};

static const struct dentry_ops *const ops_full[PERS_COUNT] __maybe_unused = {
	[PERS_PLAIN]		= &plain_ops_full,
	[PERS_CASEFOLD]		= &casefold_ops_full,
	[PERS_REVALIDATE]	= &revalidate_ops_full,
	[PERS_ALL]		= &all_ops_full,
};

/* No ops at all (the direct strategy, which refuses custom personalities). */
static const struct dentry_ops *const ops_none[PERS_COUNT] __maybe_unused;

/* IOP_OP_PERMISSION for @op, as d_op_flags() for dentries. */
static inline unsigned int i_op_flags(const struct inode_ops *op)
{
	return op && op->permission ? IOP_OP_PERMISSION : 0;
}

/* DCACHE_OP_* bits for @op, as d_set_d_op() computes them. */
static inline unsigned int d_op_flags(const struct dentry_ops *op)
{
	unsigned int flags = 0;

	if (!op)
		return 0;
	if (op->d_hash)
		flags |= DCACHE_OP_HASH;
	if (op->d_compare)
		flags |= DCACHE_OP_COMPARE;
	if (op->d_revalidate)
		flags |= DCACHE_OP_REVALIDATE;
	return flags;
}

#endif /* OPSBENCH_MODEL_OPS_H */
