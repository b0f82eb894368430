// SPDX-License-Identifier: MIT
/*
 * pollute.c - unrelated memory traffic between lookups, standing in for the
 * rest of the kernel: it evicts ops tables and cold dentry lines the way a
 * real workload does between two path walks.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "opsbench/compiler.h"
#include "opsbench/strategy.h"

/*
 * The stack around the lookup that follows, which ob_pollute() leaves in the
 * cache, last: its caller's frame (where the benchmark loop keeps what it
 * spills; up to about 380 bytes in any build here) and the stack below it,
 * where the lookup makes its calls.  The kernel's stack is hot during a path
 * walk (the system call has been running on it); evicted with the rest,
 * whether a lookup's stack accesses miss would depend on the stack
 * pointer's offset in its line, which moves with every change to the frames
 * above (opsbench-run --stack-offset shows it).  Why:
 * docs/method.md#pollution.
 */
#define STACK_WARM_BELOW	1024
#define STACK_WARM_ABOVE	512

/* It reads above its frame (the caller's, redzones too): not a bug. */
__no_sanitize_address noinline static void warm_stack(void)
{
	unsigned char below[STACK_WARM_BELOW];
	unsigned char *p = below;
	const volatile unsigned char *above = __builtin_frame_address(0);

	/* Hidden, so that the compiler keeps the whole array (clang kept 256 bytes). */
	OPTIMIZER_HIDE_VAR(p);
	for (size_t i = 0; i < sizeof(below); i += L1_CACHE_BYTES)
		((volatile unsigned char *)p)[i] = 0;
	((volatile unsigned char *)p)[sizeof(below) - 1] = 0;
	/*
	 * Combined and stored: a load whose value nothing uses may be dropped
	 * (valgrind's translation dropped these, leaving the frame cold in
	 * make cachesim's counts).
	 */
	unsigned char sum = 0;

	for (size_t i = 0; i < STACK_WARM_ABOVE; i += L1_CACHE_BYTES)
		sum ^= above[i];
	((volatile unsigned char *)p)[0] = sum;
}

void ob_pollute(struct ob_run *r)
{
	size_t pos = r->pollute_pos;

	for (size_t done = 0; done < r->pollute_bytes; done += L1_CACHE_BYTES) {
		r->pollute_buf[pos]++;
		pos += L1_CACHE_BYTES;
		if (pos >= r->pollute_size)
			pos = 0;
	}
	r->pollute_pos = pos;
	if (r->warmup_walk) {
		/* Before the stack is warmed: whatever lines its frames take, the stack is as always. */
		void *d = r->warmup_walk(r->warmup_dir, r->warmup_path);

		OPTIMIZER_HIDE_VAR(d);
	}
	warm_stack();
}

unsigned char *ob_pollute_alloc(size_t bytes)
{
	const size_t huge = 2ul << 20;
	size_t rounded = (bytes + huge - 1) & ~(huge - 1);
	void *p;

	if (!rounded || posix_memalign(&p, huge, rounded))
		return NULL;
	madvise(p, rounded, MADV_HUGEPAGE);
	memset(p, 0, rounded);
	return p;
}
