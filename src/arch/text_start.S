/* SPDX-License-Identifier: MIT */
/*
 * text_start.S - where the library's code starts: on a page boundary.
 *
 * The Makefile puts this object first in libopsbench.a and links the whole
 * library before a program's own objects, so that every function of the
 * measured code lies at the same offset within its page whatever the
 * harness around it (opsbench-suite, opsbench-run, a change to either)
 * and whatever the sizes of the sections that precede .text.  The layout,
 * and why it matters: docs/method.md#the-layout.
 */
#if defined(__x86_64__)
#include "x86_64/gnu_property.h"
#elif defined(__aarch64__)
#include "arm64/gnu_property.h"
#endif

	.text
	.p2align 12
	.globl	ob_text_start
	.type	ob_text_start, %function
ob_text_start:
	.size	ob_text_start, 0
/*
 * OB_TEXT_PAD: the code part of a block's layout.  make bench's layout
 * suites (opsbench-suite-layoutN) are linked with a copy of this object
 * assembled with a pad, which moves every function of the measured code by
 * that many bytes (docs/method.md#the-layout); ob_text_pad_end marks its end.
 */
#ifdef OB_TEXT_PAD
	.skip	OB_TEXT_PAD
#endif
	.globl	ob_text_pad_end
	.type	ob_text_pad_end, %function
ob_text_pad_end:
	.size	ob_text_pad_end, 0

	.section .note.GNU-stack, "", %progbits
