/* SPDX-License-Identifier: MIT */
/*
 * instance.h - turns a strategy file into a strategy.
 *
 * A strategy file (src/strategies/<name>.c) defines, then includes this:
 *
 *   STRATEGY_NAME       C identifier, also its command-line name
 *   STRATEGY_SUMMARY    one line: how an optional op is reached
 *   STRATEGY_ORIGIN     where the pattern comes from
 *   DENTRY_LAYOUT       DENTRY_LAYOUT_OPS_POINTER (default), _EMBEDDED, _NO_OPS
 *   STRATEGY_OPS        which tables it attaches: ops_sparse, ops_full, ops_none
 *   OP_PRESENT, OP_CALL the seam (see src/model/walk.h)
 *   STRATEGY_HOIST_COMPARE, STRATEGY_NO_CUSTOM_OPS  (optional)
 *
 * and gets the build, lookup and benchmark loop of src/model/walk.h compiled
 * for its layout and seam, and the struct strategy that lists it.
 */
#ifndef OPSBENCH_MODEL_INSTANCE_H
#define OPSBENCH_MODEL_INSTANCE_H

#include <errno.h>
#include <string.h>

#include "opsbench/dentry.h"
#include "model/ops.h"
#include "model/tree.h"
#include "model/walk.h"
#include "opsbench/strategy.h"

#if !defined(STRATEGY_NAME) || !defined(STRATEGY_SUMMARY) || !defined(STRATEGY_OPS)
#error "a strategy defines STRATEGY_NAME, STRATEGY_SUMMARY and STRATEGY_OPS"
#endif

#define OB_CONCAT_(a, b)	a##b
#define OB_CONCAT(a, b)		OB_CONCAT_(a, b)
#define OB_STR_(a)		#a
#define OB_STR(a)		OB_STR_(a)
#define STRATEGY_DESC		OB_CONCAT(strategy_, STRATEGY_NAME)

extern const struct strategy STRATEGY_DESC;

/* Give @d its filesystem and ops (d_set_d_op), in this layout's way. */
static void d_set_d_op(struct dentry *d, struct super_block *sb, const struct dentry_ops *op)
{
	d->d_sb = sb;
#if DENTRY_LAYOUT == DENTRY_LAYOUT_OPS_POINTER
	d->d_op = op;
#elif DENTRY_LAYOUT == DENTRY_LAYOUT_EMBEDDED
	if (op)
		d->d_m = (struct dentry_methods) {
			.d_revalidate	= op->d_revalidate,
			.d_hash		= op->d_hash,
			.d_compare	= op->d_compare,
		};
#endif
	d->d_flags |= d_op_flags(op);
}

/* Bytes of distinct ops tables this strategy attaches. */
static size_t ops_tables_bytes(void)
{
	size_t bytes = 0;

	for (int p = 0; p < PERS_COUNT; p++) {
		bool seen = !STRATEGY_OPS[p];

		for (int q = 0; q < p && !seen; q++)
			seen = STRATEGY_OPS[q] == STRATEGY_OPS[p];
		if (!seen)
			bytes += sizeof(struct dentry_ops);
	}
	return bytes;
}

static void init_dentry(struct ob_tree *t, size_t i)
{
	const struct wl_node *n = &t->wl->nodes[i];
	struct dentry *d = tree_object(t, i);
	struct dentry *parent = tree_object(t, n->parent);
	const char *name = workload_name(t->wl, i);
	struct inode *inode = &t->inodes[i];
	char *dname = d->d_iname;

	inode->i_ino = i;
	inode->i_mode = n->is_dir ? 0040755 : 0100644;
	d->d_parent = parent;
	d->d_inode = inode;
	d->d_flags = n->is_dir ? DCACHE_DIRECTORY_TYPE : DCACHE_REGULAR_TYPE;
	d->d_lockref.count = 1;
	d_set_d_op(d, &t->sb[n->personality], STRATEGY_OPS[n->personality]);
	d->d_time = n->stale ? 0 : d->d_sb->s_generation;

	if (n->name_len >= DNAME_INLINE_LEN) {
		/* Long names live outside the object, like external_name. */
		dname = t->ext_names + t->ext_names_used;
		t->ext_names_used += n->name_len + 1u;
	}
	memcpy(dname, name, n->name_len);
	d->d_name.name = dname;
	d->d_name.len = n->name_len;
	if (i == 0)
		return;			/* the root is in no hash chain */

	/*
	 * The hash the parent's filesystem gives the name: computed with the
	 * personality's own op, not through the strategy's seam, so that a
	 * broken seam cannot hide itself by building a matching table.
	 */
	struct qstr q = { .name = dname, .len = n->name_len };

	q.hash = full_name_hash(parent, dname, n->name_len);
	ops_full[t->wl->nodes[n->parent].personality]->d_hash(parent, &q);
	d->d_name.hash = q.hash;

	struct hlist_bl_head *b = d_hash_bucket(t, q.hash);

	d->d_hash.next = b->first;
	if (b->first)
		b->first->pprev = &d->d_hash.next;
	d->d_hash.pprev = &b->first;
	b->first = &d->d_hash;

	d->d_sib.next = parent->d_children;
	parent->d_children = &d->d_sib;
}

static int build(const struct workload *wl, struct ob_tree **out, struct ob_err *err)
{
	struct ob_tree *t;
	int ret;

	*out = NULL;
	if (!STRATEGY_DESC.custom_ops && workload_has_custom_ops(wl))
		return ob_errorf(err, -EINVAL,
				 "strategy %s has no dispatch and cannot run a workload with custom ops (use a 0%% custom share)",
				 STRATEGY_DESC.name);
	ret = tree_alloc(wl, &STRATEGY_DESC, &t, err);
	if (ret)
		return ret;

	t->ops_bytes = ops_tables_bytes();
	for (int p = 0; p < PERS_COUNT; p++) {
		t->sb[p].s_d_op = STRATEGY_OPS[p];
		t->sb[p].s_d_flags = d_op_flags(STRATEGY_OPS[p]);
		t->sb[p].s_generation = 1;
		t->sb[p].s_id = personality_name(p);
	}
	for (size_t i = 0; i < t->n; i++)
		init_dentry(t, i);
	for (size_t i = 0; i < t->n_prepared; i++) {
		t->prepared[i].start = tree_object(t, wl->lookups[i].start);
		t->prepared[i].path = workload_path(wl, i);
	}
	*out = t;
	return 0;
}

static long lookup(const struct ob_tree *t, uint32_t start, const char *path)
{
	struct dentry *d;

	if (start >= t->n)
		return WL_NONE;
	d = walk_path(t, tree_object(t, start), path);
	return d ? (long)d->d_inode->i_ino : WL_NONE;
}

/*
 * The benchmark loop, specialised on @pollute so that a batch without
 * pollution pays nothing for it: per lookup, two loads from the list, the
 * walk, and a compare to wrap around.
 */
static __always_inline uint64_t run_loop(struct ob_tree *t, struct ob_run *r, uint64_t n,
					 bool pollute)
{
	const struct ob_prepared *p = t->prepared + r->cursor;
	const struct ob_prepared *end = t->prepared + t->n_prepared;
	uint64_t sum = 0;

	for (; n; n--) {
		sum += (uintptr_t)walk_path(t, p->start, p->path);
		if (++p == end)
			p = t->prepared;
		if (pollute)
			ob_pollute(r);
	}
	r->cursor = (size_t)(p - t->prepared);
	return sum;
}

static uint64_t run(struct ob_tree *t, struct ob_run *r, uint64_t n)
{
	if (!t->n_prepared)
		return 0;
	return r->pollute_bytes ? run_loop(t, r, n, true) : run_loop(t, r, n, false);
}

#ifndef STRATEGY_ORIGIN
#define STRATEGY_ORIGIN ""
#endif

const struct strategy STRATEGY_DESC = {
	.name		= OB_STR(STRATEGY_NAME),
	.summary	= STRATEGY_SUMMARY,
	.origin		= STRATEGY_ORIGIN,
	.object_size	= sizeof(struct dentry),
#ifdef STRATEGY_NO_CUSTOM_OPS
	.custom_ops	= false,
#else
	.custom_ops	= true,
#endif
	.build		= build,
	.destroy	= tree_free,
	.lookup		= lookup,
	.run		= run,
	.memory		= tree_memory,
};

#endif /* OPSBENCH_MODEL_INSTANCE_H */
