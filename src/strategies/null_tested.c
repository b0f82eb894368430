// SPDX-License-Identifier: MIT
/*
 * null_tested - the optional op is a NULL pointer the caller tests:
 *	if (d->d_op && d->d_op->d_hash) d->d_op->d_hash(...); else default inline
 * Every component reads the parent's d_op (line 1) and, when a table is
 * there, the table; a plain filesystem has no table (d_op == NULL, ext4).
 */
#define STRATEGY_NAME		null_tested
#define STRATEGY_SUMMARY	"d_op->op ? d_op->op() : inline default (d_op NULL on plain fs)"
#define STRATEGY_ORIGIN		"LWN 'Object-oriented design patterns in the kernel' (2011); Linux before 2.6.38"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define STRATEGY_CUSTOM_BASELINE 1	/* the baseline where direct cannot run (custom ops) */

#define OP_PRESENT(d, op, flag)	(ob_ops(d) && ob_ops(d)->op)
#define OP_CALL(d, op, ...)	(ob_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"
