// SPDX-License-Identifier: MIT
/*
 * icall_wrapper - default_ops, called through INDIRECT_CALL_2: the pointer
 * is compared with the two targets the caller knows (the default and the
 * one custom implementation each op has in this model) and a match is
 * called directly, so no indirect branch is taken.  Note that this model's
 * call sites know every target; a kernel's rarely do.
 */
#define STRATEGY_NAME		icall_wrapper
#define STRATEGY_SUMMARY	"default_ops via INDIRECT_CALL_2: compare with known targets, call directly on a match"
#define STRATEGY_ORIGIN		"Linux 4.20+ include/linux/indirect_call_wrapper.h (retpoline era)"
#define STRATEGY_OPS		ops_full
#define STRATEGY_OBJECT_BYTES	192	/* sizeof(struct dentry) in this layout, checked */

#include "opsbench/indirect_call.h"

#define ICALL_d_hash(f, ...)	\
	INDIRECT_CALL_2(f, SYM(default_d_hash), SYM(casefold_d_hash), __VA_ARGS__)
#define ICALL_d_compare(f, ...)	\
	INDIRECT_CALL_2(f, SYM(default_d_compare), SYM(casefold_d_compare), __VA_ARGS__)
#define ICALL_d_revalidate(f, ...) \
	INDIRECT_CALL_2(f, SYM(default_d_revalidate), SYM(generation_d_revalidate), __VA_ARGS__)
#define ICALL_permission(f, ...) \
	INDIRECT_CALL_2(f, KSYM(generic_permission), KSYM(nfs_permission), __VA_ARGS__)

#define OP_PRESENT(d, op, flag)	1
#define OP_CALL(d, op, ...)	ICALL_##op(ob_ops(d)->op, __VA_ARGS__)

#include "model/instance.h"
