// SPDX-License-Identifier: MIT
/*
 * static_call - beyond the article (Linux 5.10+ static_call): the
 * DCACHE_OP_* bit, then a direct call of the op's static call
 * (src/model/static_call.h).  On x86-64 the call is patched at the call
 * site to call the implementation itself, as the kernel's inline static
 * calls (HAVE_STATIC_CALL_INLINE): the Makefile builds this file through
 * scripts/static_call_sites.awk, which records every call site.  On arm64,
 * which has only the trampoline form in the kernel too, it calls the
 * trampoline, as static_call_tramp does everywhere.
 */
#define STRATEGY_NAME		static_call
#define STRATEGY_SUMMARY	"DCACHE_OP_* bit, then a direct call patched at the call site to the op (x86-64; arm64: the trampoline), one target per op"
#define STRATEGY_ORIGIN		"Linux 5.10+ include/linux/static_call.h, HAVE_STATIC_CALL_INLINE (beyond the article)"
#define STRATEGY_STATIC_CALL(op)	op

#include "model/static_call.h"
