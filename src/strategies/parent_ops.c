// SPDX-License-Identifier: MIT
/*
 * parent_ops - no ops pointer in the dentry: the ops belong to the
 * filesystem and are reached through d_sb->s_d_op (three dependent loads:
 * d_sb on line 1, s_d_op in the superblock, the op in the table).  The
 * pointer saved goes to the inline name (48 bytes instead of 40): the object
 * stays at 192 bytes, as the kernel keeps it.
 */
#define STRATEGY_NAME		parent_ops
#define STRATEGY_SUMMARY	"no d_op in the dentry; d_sb->s_d_op->op(), NULL-tested"
#define STRATEGY_ORIGIN		"LWN 'Object-oriented design patterns in the kernel' (2011): ops in a parent object"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define DENTRY_LAYOUT		DENTRY_LAYOUT_NO_OPS

#define OP_PRESENT(d, op, flag)	(ob_sb_ops(d) && ob_sb_ops(d)->op)
#define OP_CALL(d, op, ...)	(ob_sb_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"
