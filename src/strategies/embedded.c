// SPDX-License-Identifier: MIT
/*
 * embedded - no ops table: the three methods are stored in every dentry,
 * where d_op was (line 1), NULL when absent.  One load less per call, two
 * pointers more per object (208 bytes, no longer a whole number of lines).
 */
#define STRATEGY_NAME		embedded
#define STRATEGY_SUMMARY	"function pointers stored in the dentry itself (line 1), NULL-tested"
#define STRATEGY_ORIGIN		"LWN 'Object-oriented design patterns in the kernel' (2011): methods embedded in the object"
#define STRATEGY_OPS		ops_sparse
#define DENTRY_LAYOUT		DENTRY_LAYOUT_EMBEDDED

#define OP_PRESENT(d, op, flag)	((d)->d_m.op != NULL)
#define OP_CALL(d, op, ...)	((d)->d_m.op(__VA_ARGS__))

#include "model/instance.h"
