/* SPDX-License-Identifier: MIT */
/*
 * text_pad.S - the second half of a layout suite's pad (make bench's
 * layouts, docs/method.md#the-layout): linked after the library and before
 * the suite's own objects, so that the harness moves too.  The library
 * ends on a page-aligned section (the arch thunks), which the pad after
 * text_start.S cannot move.
 */
#if defined(__x86_64__)
#include "x86_64/gnu_property.h"
#elif defined(__aarch64__)
#include "arm64/gnu_property.h"
#endif

	.text
	.skip	OB_TEXT_PAD

	.section .note.GNU-stack, "", %progbits
