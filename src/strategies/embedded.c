// SPDX-License-Identifier: MIT
/*
 * embedded - no ops table: the three methods are stored in every dentry,
 * on line 1 (from offset 80), NULL when absent.  One load less per call;
 * the two pointers more come out of the inline name (24 bytes instead of
 * 40), so the object stays at 192 bytes and names of 24 to 39 bytes move
 * out of it, as a kernel with that DNAME_INLINE_LEN would do.
 */
#define STRATEGY_NAME		embedded
#define STRATEGY_SUMMARY	"function pointers stored in the dentry itself (line 1), NULL-tested"
#define STRATEGY_ORIGIN		"LWN 'Object-oriented design patterns in the kernel' (2011): methods embedded in the object"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */
#define DENTRY_LAYOUT		DENTRY_LAYOUT_EMBEDDED

#define OP_PRESENT(d, op, flag)	(ob_methods(d).op != NULL)
#define OP_CALL(d, op, ...)	(ob_methods(d).op(__VA_ARGS__))

#include "model/instance.h"
