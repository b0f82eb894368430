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
 *   STRATEGY_OBJECT_BYTES  sizeof its struct dentry, declared so that a
 *                       reader sees it and checked here at compile time
 *   STRATEGY_HOIST_COMPARE, STRATEGY_NO_CUSTOM_OPS  (optional)
 *   STRATEGY_BASELINE, STRATEGY_CUSTOM_BASELINE     (optional) it is the
 *                       baseline (direct), or the one where direct cannot run
 *   STRATEGY_ATTACH(t, err), STRATEGY_DETACH(t)      (optional) called once
 *                       a tree is built / before it is freed, for a
 *                       strategy with state outside the tree (static_call)
 *
 * and gets the build, lookup and benchmark loop of src/model/walk.h compiled
 * for its layout and seam, and the struct strategy that lists it.  Cold
 * mode's warm-up lookup, which belongs to the timing harness, is in
 * src/model/warmup.h, included here so that every strategy compiles it.
 */
#ifndef OPSBENCH_MODEL_INSTANCE_H
#define OPSBENCH_MODEL_INSTANCE_H

#include <errno.h>
#include <string.h>

#include "opsbench/compiler.h"

#if !defined(STRATEGY_NAME) || !defined(STRATEGY_SUMMARY) || !defined(STRATEGY_OPS) || \
	!defined(STRATEGY_OBJECT_BYTES)
#error "a strategy defines STRATEGY_NAME, STRATEGY_SUMMARY, STRATEGY_OPS and STRATEGY_OBJECT_BYTES"
#endif

#define OB_CONCAT_(a, b)	a##b
#define OB_CONCAT(a, b)		OB_CONCAT_(a, b)
#define STRATEGY_DESC		OB_CONCAT(strategy_, STRATEGY_NAME)
/*
 * SYM(run) is flag_gated_run in flag_gated.c: every strategy's functions
 * have names of their own, so profilers and debuggers say which they are in.
 */
#define SYM(x)			OB_CONCAT(STRATEGY_NAME, OB_CONCAT(_, x))

#include "opsbench/dentry.h"
#include "model/ops.h"
#include "model/tree.h"
#include "model/walk.h"
#include "opsbench/strategy.h"
#include "opsbench/tsc.h"

/*
 * The measured loops' functions start on a line of their own (as the
 * Makefile's -falign-functions=64 does for every function of a strategy);
 * their loops and jump targets are not aligned (ALIGN_MEASURED, Makefile).
 */
#define OB_LOOP_FN		noinline __attribute__((aligned(L1_CACHE_BYTES)))

/* Cold mode's warm-up lookup: its walk, and the copies it walks (SYM(warmup_build)). */
#include "model/warmup.h"

/* The component context, once per kernel generation (KSYM(walk_path), ...). */
#define OB_COMPONENT_KERNEL 612
#include "model/component.h"
#define OB_COMPONENT_KERNEL 61
#include "model/component.h"

/*
 * The inode ops tables of the strategy's set (iops_sparse for ops_sparse,
 * ...) of the kernel of context @ctx: its generic_permission (the bare
 * lookup checks no permission; it gets 6.12's).
 */
#define IOPS_OF(gen, set)	SYM(OB_CONCAT(gen, OB_CONCAT(_i, set)))

static const struct inode_ops *const *SYM(iops)(enum ob_context ctx)
{
	return ctx == OB_CTX_COMPONENT_6_1 ? IOPS_OF(k61, STRATEGY_OPS) : IOPS_OF(k612, STRATEGY_OPS);
}

/* The walk of context @ctx (a constant where it is called). */
static __always_inline struct dentry *ctx_walk_path(enum ob_context ctx, struct dentry *dir,
						    const char *path)
{
	switch (ctx) {
	case OB_CTX_COMPONENT_6_12:	return SYM(k612_walk_path)(dir, path);
	case OB_CTX_COMPONENT_6_1:	return SYM(k61_walk_path)(dir, path);
	default:			return walk_path(dir, path);
	}
}

/* Cold mode's out-of-line walk of context @ctx. */
static __always_inline void *(*ctx_walk_cold(enum ob_context ctx))(void *dir, const char *path)
{
	switch (ctx) {
	case OB_CTX_COMPONENT_6_12:	return SYM(k612_walk_cold);
	case OB_CTX_COMPONENT_6_1:	return SYM(k61_walk_cold);
	default:			return SYM(walk_cold);
	}
}

extern const struct strategy STRATEGY_DESC;

/* Give @d its filesystem and ops (d_set_d_op), in this layout's way. */
static void SYM(d_set_d_op)(struct dentry *d, struct super_block *sb, const struct dentry_ops *op)
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

/* Give @inode its filesystem and inode ops, in this layout's way. */
static void SYM(i_set_i_op)(struct inode *inode, struct super_block *sb, const struct inode_ops *op)
{
	inode->i_sb = sb;
	inode->i_op = op;
	inode->i_m.permission = op->permission;
	inode->i_opflags = (uint16_t)i_op_flags(op);
}

/* Bytes of distinct ops tables this strategy attaches. */
static size_t SYM(ops_tables_bytes)(void)
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

static void SYM(init_dentry)(struct ob_tree *t, size_t i)
{
	const struct wl_node *n = &t->wl->nodes[i];
	struct dentry *d = tree_object(t, i);
	struct dentry *parent = tree_object(t, n->parent);
	const char *name = workload_name(t->wl, i);
	struct inode *inode = &t->inodes[t->slot[i]];	/* scattered as the dentries */
	char *dname = d->d_iname;

	inode->i_ino = i;
	inode->i_mode = (uint16_t)(n->is_dir ? OB_DIR_MODE : OB_FILE_MODE);
	inode->i_uid = OB_WALKER_UID;
	inode->i_gid = OB_WALKER_GID;
	SYM(i_set_i_op)(inode, &t->sb[n->personality], SYM(iops)(t->ctx)[n->personality]);
	d->d_parent = parent;
	d->d_inode = inode;
	d->d_flags = n->is_dir ? DCACHE_DIRECTORY_TYPE : DCACHE_REGULAR_TYPE;
	d->d_lockref.count = 1;
	SYM(d_set_d_op)(d, &t->sb[n->personality], STRATEGY_OPS[n->personality]);
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

	struct hlist_bl_head *b = d_hash_bucket(q.hash);

	d->d_hash.next = b->first;
	if (b->first)
		b->first->pprev = &d->d_hash.next;
	d->d_hash.pprev = &b->first;
	b->first = &d->d_hash;

	d->d_sib.next = parent->d_children;
	parent->d_children = &d->d_sib;
}

static int SYM(build)(const struct workload *wl, enum ob_context ctx, struct ob_tree **out,
		      struct ob_err *err)
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

	t->ctx = (unsigned int)ctx < OB_CTX_COUNT ? ctx : OB_CTX_BARE;
	t->ops_bytes = SYM(ops_tables_bytes)();
	for (int p = 0; p < PERS_COUNT; p++) {
		t->sb[p].s_d_op = STRATEGY_OPS[p];
		t->sb[p].s_d_flags = d_op_flags(STRATEGY_OPS[p]);
		t->sb[p].s_generation = 1;
		t->sb[p].s_id = personality_name(p);
		t->sb[p].s_i_op = SYM(iops)(ctx)[p];
		t->sb[p].s_user_ns = &ob_init_user_ns;
	}
	for (size_t i = 0; i < t->n; i++)
		SYM(init_dentry)(t, i);
	for (size_t i = 0; i < t->n_prepared; i++) {
		t->prepared[i].start = tree_object(t, wl->lookups[i].start);
		t->prepared[i].path = t->paths + wl->lookups[i].path_off;
	}
#ifdef STRATEGY_ATTACH
	ret = STRATEGY_ATTACH(t, err);
	if (ret) {
		tree_free(t);
		return ret;
	}
#endif
	SYM(warmup_build)(t);
	*out = t;
	return 0;
}

static long SYM(lookup)(const struct ob_tree *t, uint32_t start, const char *path)
{
	struct dentry *d;

	if (start >= t->n)
		return WL_NONE;
	tree_enter(t);
	d = walk_path(tree_object(t, start), path);
	return d ? (long)d->d_inode->i_ino : WL_NONE;
}

static long SYM(lookup_in)(const struct ob_tree *t, enum ob_context ctx, uint32_t start,
			   const char *path)
{
	struct dentry *d;

	if (start >= t->n || (unsigned int)ctx >= OB_CTX_COUNT)
		return WL_NONE;
	tree_enter(t);
	switch (ctx) {
	case OB_CTX_COMPONENT_6_12:
		d = SYM(k612_walk_path)(tree_object(t, start), path);
		break;
	case OB_CTX_COMPONENT_6_1:
		d = SYM(k61_walk_path)(tree_object(t, start), path);
		break;
	default:
		d = walk_path(tree_object(t, start), path);
		break;
	}
	return d ? (long)d->d_inode->i_ino : WL_NONE;
}

/*
 * The benchmark loop, specialised on how it times (@mode, @pollute), so that
 * each variant pays only for what it does: per lookup, two loads from the
 * list, the walk, and a compare to wrap around; in latency mode a shift and
 * two adds on the critical path (the dependency on the last result); in
 * cold mode the pollution, the warm-up lookup and the two serialised
 * timestamps (and, untimed, the store of the lookup's ticks where the caller
 * wants each), the timed walk being a call of SYM(walk_cold), the code the
 * warm-up ran.
 */
static __always_inline uint64_t run_loop(struct ob_tree *t, struct ob_run *r, uint64_t n,
					 enum ob_mode mode, bool pollute, enum ob_context ctx)
{
	const struct ob_prepared *p = t->prepared + r->cursor;
	const struct ob_prepared *end = t->prepared + t->n_prepared;
	uint64_t sum = 0, ticks = 0;
	uint32_t *each = r->lookup_ticks;
	uintptr_t dep = 0;

	/* Cold mode's warm-up lookup, which ob_pollute() makes (model/warmup.h). */
	r->warmup_walk = mode == OB_COLD && t->warmup_dir ? ctx_walk_cold(ctx) : NULL;
	r->warmup_dir = t->warmup_dir;
	r->warmup_path = t->warmup_path;

	for (; n; n--) {
		struct dentry *start = p->start, *d;
		const char *path = p->path;
		uint64_t t0 = 0;

		if (mode == OB_LATENCY) {
			/* dep is 0, but only once the last lookup has finished. */
			start = (struct dentry *)((uintptr_t)start + dep);
			path += dep;
		}
		if (mode == OB_COLD) {
			ob_pollute(r);		/* and the warm-up lookup */
			t0 = ob_ts_begin();
			d = ctx_walk_cold(ctx)(start, path);
		} else {
			d = ctx_walk_path(ctx, start, path);
		}
		if (mode == OB_COLD) {
			uint64_t dt = ob_ts_end() - t0;

			ticks += dt;
			if (each)
				*each++ = dt > UINT32_MAX ? UINT32_MAX : (uint32_t)dt;
		}
		if (mode == OB_LATENCY) {
			uintptr_t z = (uintptr_t)d;

			OPTIMIZER_HIDE_VAR(z);
			dep = z >> 63;	/* user-space pointers and NULL: 0 */
		}
		sum += (uintptr_t)d;
		if (++p == end)
			p = t->prepared;
		if (mode == OB_THROUGHPUT && pollute)
			ob_pollute(r);
	}
	r->cursor = (size_t)(p - t->prepared);
	r->timed_ticks += ticks;
	return sum;
}

/*
 * The measured loops, one per mode and context: SYM(run_throughput) is the
 * bare lookup's, SYM(k612_run_throughput) the 6.12 component context's.
 */
#define OB_RUN_LOOPS(pfx, ctx)									\
static OB_LOOP_FN uint64_t SYM(pfx##run_throughput)(struct ob_tree *t, struct ob_run *r, uint64_t n)	\
{												\
	return run_loop(t, r, n, OB_THROUGHPUT, false, ctx);					\
}												\
												\
static OB_LOOP_FN uint64_t SYM(pfx##run_polluted)(struct ob_tree *t, struct ob_run *r, uint64_t n)	\
{												\
	return run_loop(t, r, n, OB_THROUGHPUT, true, ctx);					\
}												\
												\
static OB_LOOP_FN uint64_t SYM(pfx##run_latency)(struct ob_tree *t, struct ob_run *r, uint64_t n)	\
{												\
	return run_loop(t, r, n, OB_LATENCY, false, ctx);					\
}												\
												\
static OB_LOOP_FN uint64_t SYM(pfx##run_cold)(struct ob_tree *t, struct ob_run *r, uint64_t n)	\
{												\
	return run_loop(t, r, n, OB_COLD, true, ctx);						\
}												\
												\
static uint64_t SYM(pfx##run_mode)(struct ob_tree *t, struct ob_run *r, uint64_t n)		\
{												\
	switch (r->mode) {									\
	case OB_LATENCY:									\
		return SYM(pfx##run_latency)(t, r, n);						\
	case OB_COLD:										\
		return SYM(pfx##run_cold)(t, r, n);						\
	default:										\
		return r->pollute_bytes ? SYM(pfx##run_polluted)(t, r, n) :			\
					  SYM(pfx##run_throughput)(t, r, n);			\
	}											\
}

OB_RUN_LOOPS(, OB_CTX_BARE)
OB_RUN_LOOPS(k612_, OB_CTX_COMPONENT_6_12)
OB_RUN_LOOPS(k61_, OB_CTX_COMPONENT_6_1)

static uint64_t SYM(run)(struct ob_tree *t, struct ob_run *r, uint64_t n)
{
	if (!t->n_prepared)
		return 0;
	tree_enter(t);
	switch (r->context) {
	case OB_CTX_COMPONENT_6_12:
		return SYM(k612_run_mode)(t, r, n);
	case OB_CTX_COMPONENT_6_1:
		return SYM(k61_run_mode)(t, r, n);
	default:
		return SYM(run_mode)(t, r, n);
	}
}

#ifdef STRATEGY_DETACH
static void SYM(destroy)(struct ob_tree *t)
{
	if (t)
		STRATEGY_DETACH(t);
	tree_free(t);
}
#endif

#ifndef STRATEGY_ORIGIN
#define STRATEGY_ORIGIN ""
#endif

_Static_assert(sizeof(struct dentry) == STRATEGY_OBJECT_BYTES,
	       "STRATEGY_OBJECT_BYTES is not the size of this strategy's struct dentry");

const struct strategy STRATEGY_DESC = {
	.name		= OB_STR(STRATEGY_NAME),
	.summary	= STRATEGY_SUMMARY,
	.origin		= STRATEGY_ORIGIN,
	.object_size	= STRATEGY_OBJECT_BYTES,
	.inline_name_len = DNAME_INLINE_LEN,
#ifdef STRATEGY_NO_CUSTOM_OPS
	.custom_ops	= false,
#else
	.custom_ops	= true,
#endif
#ifdef STRATEGY_BASELINE
	.baseline	= true,
#endif
#ifdef STRATEGY_CUSTOM_BASELINE
	.custom_baseline = true,
#endif
	.build		= SYM(build),
#ifdef STRATEGY_DETACH
	.destroy	= SYM(destroy),
#else
	.destroy	= tree_free,
#endif
	.lookup		= SYM(lookup),
	.lookup_in	= SYM(lookup_in),
	.run		= SYM(run),
	.memory		= tree_memory,
};

#endif /* OPSBENCH_MODEL_INSTANCE_H */
