// SPDX-License-Identifier: MIT
/*
 * static_call - beyond the article (Linux 5.10+ static_call): the
 * DCACHE_OP_* bit says whether the parent's filesystem has the op, as in
 * flag_gated, and the op is then reached by a direct call to the op's
 * trampoline, patched to jump to the implementation when a filesystem with
 * that op is attached (src/static_call.c).  No d_op load, no table load, no
 * indirect branch: under retpolines, no thunk.
 *
 * A static call has one target for the whole system, so this works because
 * each op has one implementation here (casefold_d_hash, casefold_d_compare,
 * generation_d_revalidate); a filesystem bringing a second one could not be
 * attached (-EBUSY).  That is why the kernel uses static calls for
 * system-wide hooks, not for per-object methods.
 */
#define STRATEGY_NAME		static_call
#define STRATEGY_SUMMARY	"DCACHE_OP_* bit, then a direct call to the op's trampoline, patched at attach time (one target per op)"
#define STRATEGY_ORIGIN		"Linux 5.10+ include/linux/static_call.h (beyond the article)"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define STRATEGY_ATTACH		static_call_attach
#define STRATEGY_DETACH		static_call_detach

#include "opsbench/dentry.h"
#include "opsbench/static_call.h"

OB_DECLARE_STATIC_CALL(d_hash, d_hash_fn);
OB_DECLARE_STATIC_CALL(d_compare, d_compare_fn);
OB_DECLARE_STATIC_CALL(d_revalidate, d_revalidate_fn);
OB_DECLARE_STATIC_CALL(permission, permission_fn);

#define OP_PRESENT(d, op, flag)	(ob_op_flags(d) & (flag))
#define OP_CALL(d, op, ...)	(ob_static_call(op)(__VA_ARGS__))

struct ob_tree;
struct ob_err;
static int static_call_attach(struct ob_tree *t, struct ob_err *err);
static void static_call_detach(struct ob_tree *t);

#include "model/instance.h"

/* The ops, in the order of the bits of t->strategy_state (4 per personality). */
#define OPS_PER_FS	4

static void *fs_op(int p, int k)
{
	const struct dentry_ops *ops = STRATEGY_OPS[p];

	switch (k) {
	case 0:		return ops ? (void *)ops->d_hash : NULL;
	case 1:		return ops ? (void *)ops->d_compare : NULL;
	case 2:		return ops ? (void *)ops->d_revalidate : NULL;
	default:	return (void *)iops_sparse[p]->permission;
	}
}

static struct ob_static_call_key *op_key(int k)
{
	switch (k) {
	case 0:		return &OB_STATIC_CALL_KEY(d_hash);
	case 1:		return &OB_STATIC_CALL_KEY(d_compare);
	case 2:		return &OB_STATIC_CALL_KEY(d_revalidate);
	default:	return &OB_STATIC_CALL_KEY(permission);
	}
}

/* Attach the ops of every filesystem the tree has (mounted on a directory). */
static int static_call_attach(struct ob_tree *t, struct ob_err *err)
{
	bool mounted[PERS_COUNT] = { false };

	for (size_t i = 0; i < t->n; i++)
		mounted[t->wl->nodes[i].personality] = true;
	for (int p = 0; p < PERS_COUNT; p++) {
		if (!mounted[p])
			continue;
		for (int k = 0; k < OPS_PER_FS; k++) {
			void *fn = fs_op(p, k);
			int ret;

			if (!fn)
				continue;
			ret = ob_static_call_attach(op_key(k), fn, err);
			if (ret) {
				static_call_detach(t);
				return ret;
			}
			t->strategy_state |= 1ul << (p * OPS_PER_FS + k);
		}
	}
	return 0;
}

static void static_call_detach(struct ob_tree *t)
{
	for (int p = 0; p < PERS_COUNT; p++)
		for (int k = 0; k < OPS_PER_FS; k++)
			if (t->strategy_state & (1ul << (p * OPS_PER_FS + k)))
				ob_static_call_detach(op_key(k));
	t->strategy_state = 0;
}
