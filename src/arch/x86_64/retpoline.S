/* SPDX-License-Identifier: MIT */
/*
 * retpoline.S - this project's own retpoline thunks, for the VARIANT=retpoline
 * build (gcc -mindirect-branch=thunk-extern -mindirect-branch-register,
 * clang -mretpoline-external-thunk).
 *
 * The compiler turns "call *%reg" into "call __x86_indirect_thunk_<reg>".
 * Written after the construction of Linux's __x86_indirect_thunk_* (arch/x86/
 * lib/retpoline.S, the generic RETPOLINE_CALL, not its alternatives): the
 * inner call pushes a return address that the "mov" overwrites with the
 * target, so "ret" goes to the target while the return stack buffer predicts
 * the speculation trap after the call, which spins harmlessly on
 * "pause; lfence".  A correctly predicted indirect call becomes a
 * mispredicted return every time: that is the cost being measured.
 */
#include "gnu_property.h"

	.text

.macro THUNK reg
	.globl	__x86_indirect_thunk_\reg
	.type	__x86_indirect_thunk_\reg, @function
	.p2align 5
__x86_indirect_thunk_\reg:
	call	1f
2:	pause
	lfence
	jmp	2b
	.p2align 4
1:	mov	%\reg, (%rsp)
	ret
	.size	__x86_indirect_thunk_\reg, . - __x86_indirect_thunk_\reg
.endm

	THUNK rax
	THUNK rbx
	THUNK rcx
	THUNK rdx
	THUNK rsi
	THUNK rdi
	THUNK rbp
	THUNK r8
	THUNK r9
	THUNK r10
	THUNK r11
	THUNK r12
	THUNK r13
	THUNK r14
	THUNK r15

/*
 * The return thunk of the VARIANT=rethunk build (-mfunction-return=
 * thunk-extern): every "ret" of compiled code becomes "jmp
 * __x86_return_thunk".  This is the kernel's plain one ("ret; int3", for
 * CPUs needing no return mitigation), the cheapest case: what remains is the
 * extra jump.  The kernel's AMD variants (retbleed's untrain_ret, SRSO's
 * srso_return_thunk / srso_alias_return_thunk) also flush or retrain the
 * return predictor on every return and cost far more; they are not
 * reproduced here.
 */
	.globl	__x86_return_thunk
	.type	__x86_return_thunk, @function
	.p2align 5
__x86_return_thunk:
	ret
	int3
	.size	__x86_return_thunk, . - __x86_return_thunk

	.section .note.GNU-stack, "", @progbits
