/* SPDX-License-Identifier: MIT */
/*
 * static_call.h - the seam and the attach/detach of the static_call
 * strategies (src/strategies/static_call.c, static_call_tramp.c), which
 * differ only in how the Makefile builds them: on x86-64 static_call's
 * calls are patched at the call site, static_call_tramp's stay calls of
 * the trampolines (include/opsbench/static_call.h).
 *
 * The DCACHE_OP_* bit says whether the parent's filesystem has the op, as
 * in flag_gated, and the op is then reached by a direct call of its static
 * call, patched when a filesystem with that op is attached
 * (src/static_call.c).  No d_op load, no table load, no indirect branch:
 * under retpolines, no thunk.
 *
 * A static call has one target for the whole system, so this works because
 * each op has one implementation here (casefold_d_hash, casefold_d_compare,
 * generation_d_revalidate); a filesystem bringing a second one could not be
 * attached (-EBUSY).  That is why the kernel uses static calls for
 * system-wide hooks, not for per-object methods.
 *
 * A strategy file defines STRATEGY_NAME, STRATEGY_SUMMARY, STRATEGY_ORIGIN
 * and STRATEGY_STATIC_CALL(op), the name of its static call for @op
 * (include/opsbench/static_call_list.h: each strategy has its own, as each
 * has its own copy of the ops and a static call has one target), then
 * includes this (in place of model/instance.h).
 */
#ifndef OPSBENCH_MODEL_STATIC_CALL_H
#define OPSBENCH_MODEL_STATIC_CALL_H

#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */

#include "opsbench/dentry.h"
#include "opsbench/static_call.h"

/* The static_call.h macros, given STRATEGY_STATIC_CALL(op) expanded first. */
#define SC_DECLARE_(name, fn)	OB_DECLARE_STATIC_CALL(name, fn)
#define SC_DECLARE(op, fn)	SC_DECLARE_(STRATEGY_STATIC_CALL(op), fn)
#define SC_KEY_(name)		&OB_STATIC_CALL_KEY(name)
#define SC_KEY(op)		SC_KEY_(STRATEGY_STATIC_CALL(op))
#define SC_CALL_(name)		ob_static_call(name)
#define SC_CALL(op)		SC_CALL_(STRATEGY_STATIC_CALL(op))

SC_DECLARE(d_hash, d_hash_fn);
SC_DECLARE(d_compare, d_compare_fn);
SC_DECLARE(d_revalidate, d_revalidate_fn);
SC_DECLARE(permission, permission_fn);

#define OP_PRESENT(d, op, flag)	(ob_op_flags(d) & (flag))
#define OP_CALL(d, op, ...)	(SC_CALL(op)(__VA_ARGS__))

/* static_call_attach, static_call_tramp_attach, ...: names of their own. */
#define SC_SYM_(s, x)		s##_##x
#define SC_SYM(s, x)		SC_SYM_(s, x)
#define STRATEGY_ATTACH		SC_SYM(STRATEGY_NAME, attach)
#define STRATEGY_DETACH		SC_SYM(STRATEGY_NAME, detach)

struct ob_tree;
struct ob_err;
static int STRATEGY_ATTACH(struct ob_tree *t, struct ob_err *err);
static void STRATEGY_DETACH(struct ob_tree *t);

#include "model/instance.h"

/* The ops, in the order of the bits of t->strategy_state (4 per personality). */
#define OPS_PER_FS	4

/* Op @k of personality @p's filesystem in context @ctx's kernel (NULL: it has none). */
static void *SYM(fs_op)(enum ob_context ctx, int p, int k)
{
	const struct dentry_ops *ops = STRATEGY_OPS[p];

	switch (k) {
	case 0:		return ops ? (void *)ops->d_hash : NULL;
	case 1:		return ops ? (void *)ops->d_compare : NULL;
	case 2:		return ops ? (void *)ops->d_revalidate : NULL;
	default:	return (void *)(ctx == OB_CTX_COMPONENT_6_1 ? SYM(k61_iops_sparse)
						: SYM(k612_iops_sparse))[p]->permission;
	}
}

static struct ob_static_call_key *SYM(op_key)(int k)
{
	switch (k) {
	case 0:		return SC_KEY(d_hash);
	case 1:		return SC_KEY(d_compare);
	case 2:		return SC_KEY(d_revalidate);
	default:	return SC_KEY(permission);
	}
}

/* Attach the ops of every filesystem the tree has (mounted on a directory). */
static int STRATEGY_ATTACH(struct ob_tree *t, struct ob_err *err)
{
	bool mounted[PERS_COUNT] = { false };

	for (size_t i = 0; i < t->n; i++)
		mounted[t->wl->nodes[i].personality] = true;
	for (int p = 0; p < PERS_COUNT; p++) {
		if (!mounted[p])
			continue;
		for (int k = 0; k < OPS_PER_FS; k++) {
			void *fn = SYM(fs_op)(t->ctx, p, k);
			int ret;

			if (!fn)
				continue;
			ret = ob_static_call_attach(SYM(op_key)(k), fn, err);
			if (ret) {
				STRATEGY_DETACH(t);
				return ret;
			}
			t->strategy_state |= 1ul << (p * OPS_PER_FS + k);
		}
	}
	return 0;
}

static void STRATEGY_DETACH(struct ob_tree *t)
{
	for (int p = 0; p < PERS_COUNT; p++)
		for (int k = 0; k < OPS_PER_FS; k++)
			if (t->strategy_state & (1ul << (p * OPS_PER_FS + k)))
				ob_static_call_detach(SYM(op_key)(k));
	t->strategy_state = 0;
}

#endif /* OPSBENCH_MODEL_STATIC_CALL_H */
