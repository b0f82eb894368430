// SPDX-License-Identifier: MIT
/*
 * static_call_tramp - static_call with the out-of-line form of static
 * calls (src/model/static_call.h): the call site calls the op's trampoline,
 * whose jump is patched to the implementation, as the kernel's static calls
 * on architectures without HAVE_STATIC_CALL_INLINE (arm64, and x86-64
 * before 5.10's inline form): one more direct jump per call than
 * static_call on x86-64.
 */
#define STRATEGY_NAME		static_call_tramp
#define STRATEGY_SUMMARY	"DCACHE_OP_* bit, then a direct call to the op's trampoline, patched at attach time (one target per op)"
#define STRATEGY_ORIGIN		"Linux 5.10+ include/linux/static_call.h, the trampoline form (beyond the article)"
#define STRATEGY_STATIC_CALL(op)	ool_##op

#include "model/static_call.h"
