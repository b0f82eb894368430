// SPDX-License-Identifier: MIT
/* stack.c - a stack at a fixed address (see include/opsbench/stack.h). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "model/tree.h"
#include "opsbench/compiler.h"
#include "opsbench/stack.h"

#define STACK_BYTES	(1ul << 20)
#define STACK_BASE	(OB_TREE_BASE + (uintptr_t)OB_TREE_SLOTS * OB_TREE_SLOT_BYTES)

#ifdef OB_ASAN
#define OB_NO_STACK_SWITCH 1
#endif

#ifndef OB_NO_STACK_SWITCH
struct call {
	void (*fn)(void *arg);
	void *arg;
};

static ucontext_t caller, callee;
static struct call pending;
#endif

/* How far below the fixed stack's usual top ob_call_on_fixed_stack() starts. */
static size_t stack_offset;

int ob_set_stack_offset(size_t bytes)
{
	if (bytes % 16 || bytes > OB_STACK_OFFSET_MAX)
		return -EINVAL;
	stack_offset = bytes;
	return 0;
}

#ifndef OB_NO_STACK_SWITCH

static void trampoline(void)
{
	pending.fn(pending.arg);
}
#endif

int ob_call_on_fixed_stack(void (*fn)(void *arg), void *arg, struct ob_err *err)
{
#ifdef OB_NO_STACK_SWITCH
	(void)err;
	(void)stack_offset;
	fn(arg);
	return 0;
#else
	void *stack = mmap((void *)STACK_BASE, STACK_BYTES, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);

	if (stack != (void *)STACK_BASE) {
		int e = stack == MAP_FAILED ? errno : EEXIST;

		if (stack != MAP_FAILED)
			munmap(stack, STACK_BYTES);
		return ob_errorf(err, -e, "cannot map a stack at %p: %s", (void *)STACK_BASE,
				 e == EEXIST ? "the address is taken" : strerror(e));
	}
	if (getcontext(&callee)) {
		munmap(stack, STACK_BYTES);
		return ob_errorf(err, -errno, "getcontext: %s", strerror(errno));
	}
	/*
	 * The top page stays mapped but unused: ob_pollute() reads above its
	 * caller.  The layout's offset moves the top further down.
	 */
	callee.uc_stack.ss_sp = stack;
	callee.uc_stack.ss_size = STACK_BYTES - 4096 - stack_offset;
	callee.uc_link = &caller;
	pending = (struct call) { .fn = fn, .arg = arg };
	makecontext(&callee, trampoline, 0);
	if (swapcontext(&caller, &callee)) {
		munmap(stack, STACK_BYTES);
		return ob_errorf(err, -errno, "swapcontext: %s", strerror(errno));
	}
	munmap(stack, STACK_BYTES);
	return 0;
#endif
}
