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
 *
 * In the rethunk and srso builds (OB_RETHUNK) the thunk's return is the
 * kernel's RET there, "jmp __x86_return_thunk" (5 bytes, as the kernel's,
 * wherever the thunk lies): under SRSO the indirect call then also returns
 * through the Safe RET helper.
 */
#include "gnu_property.h"

#ifdef OB_RETHUNK
#define THUNK_RET	.byte 0xe9 ; .long __x86_return_thunk - . - 4	/* jmp rel32 */
#else
#define THUNK_RET	ret
#endif

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
	THUNK_RET
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
 * The return thunk of the VARIANT=rethunk and VARIANT=srso builds
 * (-mfunction-return=thunk-extern): every "ret" of compiled code becomes
 * "jmp __x86_return_thunk".
 *
 * rethunk: the kernel's plain one ("ret; int3", for CPUs needing no return
 * mitigation), the cheapest case: what remains is the extra jump.
 *
 * srso (OB_SRSO): the construction of the kernel's "Safe RET" mitigation of
 * AMD's Speculative Return Stack Overflow (srso_return_thunk and
 * srso_safe_ret, Linux 6.5+), which this machine's own kernel reports using.
 * The thunk calls a two-instruction helper that drops the return address
 * its call just pushed and returns through the caller's: the return stack
 * buffer's top entry, pushed by that call, points after the call, so every
 * return is mispredicted and resolves late, by design.  (The kernel's Zen
 * 1/2 "alias" flavour places the pair at aliasing addresses; its cost is
 * the same shape.  retbleed's untrain_ret runs on kernel entry, not on
 * every return, and is not modelled.)
 */
	.globl	__x86_return_thunk
	.type	__x86_return_thunk, @function
	.p2align 5
__x86_return_thunk:
#ifdef OB_SRSO
	call	ob_srso_safe_ret
	int3				/* never reached; speculation stops here */
	.p2align 4
ob_srso_safe_ret:
	lea	8(%rsp), %rsp		/* drop the helper's own return address */
	ret				/* to the caller's: a mispredicted return */
	int3
#else
	ret
	int3
#endif
	.size	__x86_return_thunk, . - __x86_return_thunk

	.section .note.GNU-stack, "", @progbits
