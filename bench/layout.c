// SPDX-License-Identifier: MIT
/*
 * layout.c - where this process's measured code and stack lie, as make
 * bench draws them per block (docs/method.md#the-layout): the code moved by
 * the pad this binary was linked with (src/arch/text_start.S), the stack by
 * --stack-offset.
 */
#include <stdint.h>

#include "suite.h"

extern const char ob_text_start[], ob_text_pad_end[];

unsigned int ob_layout_stack_bytes;

unsigned int ob_layout_code_bytes(void)
{
	return (unsigned int)((uintptr_t)ob_text_pad_end - (uintptr_t)ob_text_start);
}
