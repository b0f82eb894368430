/* SPDX-License-Identifier: MIT */
/*
 * static_call.S - the trampolines of include/opsbench/static_call.h, arm64.
 *
 * Each is two instructions, "mov w0, #0; ret" (return 0) until
 * src/static_call.c patches the first to "b <target>" (+-128 MiB, so the
 * target is in this executable).  They are reached by direct "bl" only, so
 * they need no BTI landing pad, and a "b" to a target needs none either.
 * They fill a region aligned to 64 KiB, the largest arm64 page, so that
 * making their page writable for a patch touches no other code.
 */
#include "gnu_property.h"

	.pushsection .text.ob_static_call, "ax", %progbits
	.balign	65536

#define OB_STATIC_CALL(name)						\
	.globl	ob_static_call_tramp_##name ;				\
	.type	ob_static_call_tramp_##name, %function ;		\
	.balign	8 ;							\
ob_static_call_tramp_##name: ;						\
	mov	w0, #0 ;						\
	ret ;								\
	.size	ob_static_call_tramp_##name, 8 ;
#include "opsbench/static_call_list.h"

	.balign	65536
	.popsection

	.section .note.GNU-stack, "", %progbits
