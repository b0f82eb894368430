// SPDX-License-Identifier: MIT
/*
 * direct - no dispatch at all: the defaults, inline.  The lower bound for
 * the cost of a lookup; it refuses workloads with custom ops, which it
 * could not run correctly.
 */
#define STRATEGY_NAME		direct
#define STRATEGY_SUMMARY	"no dispatch: inline defaults only (baseline; no custom ops)"
#define STRATEGY_ORIGIN		"baseline"
#define STRATEGY_OPS		ops_none
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define STRATEGY_NO_CUSTOM_OPS	1
#define STRATEGY_BASELINE	1	/* what every strategy is compared with */

#define OP_PRESENT(d, op, flag)	0
#define OP_CALL(d, op, ...)	((void)(d), 0)

#include "model/instance.h"
