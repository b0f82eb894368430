// SPDX-License-Identifier: MIT
/*
 * flag_gated - DCACHE_OP_* bits in d_flags (line 0, already in cache) say
 * whether the op exists; d_op and the table are read only when the bit is
 * set.  d_set_d_op() computes the bits once, when ops are attached.  The
 * compare bit is tested for every chain entry, as Linux 2.6.38 .. 5.x did.
 */
#define STRATEGY_NAME		flag_gated
#define STRATEGY_SUMMARY	"DCACHE_OP_* bit in the parent's d_flags gates d_op->op(); compare bit tested per chain entry"
#define STRATEGY_ORIGIN		"Linux 2.6.38, commit fb045adb99d9 'fs: dcache reduce branches in lookup path'"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */

#define OP_PRESENT(d, op, flag)	(ob_op_flags(d) & (flag))
#define OP_CALL(d, op, ...)	(ob_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"
