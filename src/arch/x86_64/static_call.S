/* SPDX-License-Identifier: MIT */
/*
 * static_call.S - the trampolines of include/opsbench/static_call.h, x86-64.
 *
 * Each is 8 bytes, 8-aligned, and starts as "return 0"; src/static_call.c
 * patches its first 5 bytes to "jmp rel32" to a target (like Linux's
 * ARCH_DEFINE_STATIC_CALL_TRAMP, whose "ret" variant is a NULL target).
 * They fill a page of their own, so that making it writable for a patch
 * touches no other code.  In the rethunk and srso builds their return is
 * the kernel's there, "jmp __x86_return_thunk" (the kernel's RET static
 * calls and __static_call_return0 return through it too).
 */
#include "gnu_property.h"

#ifdef OB_RETHUNK
#define TRAMP_RET	.byte 0xe9 ; .long __x86_return_thunk - . - 4 ; int3	/* jmp rel32 */
#else
#define TRAMP_RET	ret ; int3 ; int3 ; int3 ; int3 ; int3
#endif

	.pushsection .text.ob_static_call, "ax", @progbits
	.balign	4096

#define OB_STATIC_CALL(name)						\
	.globl	ob_static_call_tramp_##name ;				\
	.type	ob_static_call_tramp_##name, @function ;		\
	.balign	8 ;							\
ob_static_call_tramp_##name: ;						\
	xorl	%eax, %eax ;						\
	TRAMP_RET ;							\
	.size	ob_static_call_tramp_##name, 8 ;
#include "opsbench/static_call_list.h"

	.balign	4096
	.popsection

	.section .note.GNU-stack, "", @progbits
