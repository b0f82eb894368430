// SPDX-License-Identifier: MIT
/*
 * default_ops - every op is always there: each table starts from
 * DENTRY_OPS_DEFAULTS and overrides what it has, so the caller never tests
 * and always makes the indirect call (through d_op, line 1, then the table).
 */
#define STRATEGY_NAME		default_ops
#define STRATEGY_SUMMARY	"d_op->op() always; tables built from a *_DEFAULTS initializer, never NULL"
#define STRATEGY_ORIGIN		"LWN 'Object-oriented design patterns in the kernel' (2011): mandatory default methods"
#define STRATEGY_OPS		ops_full
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */

#define OP_PRESENT(d, op, flag)	1
#define OP_CALL(d, op, ...)	(ob_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"
