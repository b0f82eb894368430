// SPDX-License-Identifier: MIT
/*
 * flag_hoisted - flag_gated, with the compare bit tested once per lookup:
 * a directory with d_compare is searched by a separate out-of-line chain
 * walk, so the common loop has no op test at all.
 */
#define STRATEGY_NAME		flag_hoisted
#define STRATEGY_SUMMARY	"as flag_gated, compare bit tested once per lookup; out-of-line chain walk for d_compare"
#define STRATEGY_ORIGIN		"Linux 6.0, commit ae2a823643d7: __d_lookup_rcu() tests DCACHE_OP_COMPARE once, then __d_lookup_rcu_op_compare()"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define STRATEGY_HOIST_COMPARE	1

#define OP_PRESENT(d, op, flag)	(ob_op_flags(d) & (flag))
#define OP_CALL(d, op, ...)	(ob_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"
