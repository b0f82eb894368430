/* SPDX-License-Identifier: MIT */
/*
 * stack.h - run a function on a stack at a fixed address.
 *
 * Where a process's stack starts depends on its environment, argv and the
 * path it was started from (they are copied onto the top of the stack), so
 * the cache sets of the stack lines a measured loop spills to move with
 * them.  Run on this stack, the loop's stack addresses are the same in every
 * run: simulated cache counts (make cachesim) do not depend on where or how
 * the binary was started.
 */
#ifndef OPSBENCH_STACK_H
#define OPSBENCH_STACK_H

#include <stddef.h>

#include "opsbench/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ob_call_on_fixed_stack - call @fn(@arg) on a 1 MiB stack mapped at a fixed
 * address (above the trees of src/model/tree.h), and return when it does.
 * Returns 0, or a negative errno if the stack cannot be had (@err says why;
 * @fn was not called).  Builds with AddressSanitizer, which does not follow
 * stack switches, call @fn on the ordinary stack.
 */
int ob_call_on_fixed_stack(void (*fn)(void *arg), void *arg, struct ob_err *err);

/* The largest offset ob_set_stack_offset() takes, in bytes. */
#define OB_STACK_OFFSET_MAX	65536u

/*
 * ob_set_stack_offset - start the stacks of later ob_call_on_fixed_stack()
 * calls @bytes below their usual top (a multiple of 16, at most
 * OB_STACK_OFFSET_MAX): the stack part of a block's layout
 * (docs/method.md#the-layout).  0, or -EINVAL for another value.
 * opsbench-run never calls it: simulated counts keep offset 0.
 */
int ob_set_stack_offset(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_STACK_H */
