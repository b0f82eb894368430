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
}

unsigned char *ob_pollute_alloc(size_t bytes)
{
	const size_t huge = 2ul << 20;
	size_t size = ob_pollute_buffer_size(bytes);
	size_t rounded = (size + huge - 1) & ~(huge - 1);
	void *p;

	if (!rounded || posix_memalign(&p, huge, rounded))
		return NULL;
	madvise(p, rounded, MADV_HUGEPAGE);
	memset(p, 0, rounded);
	return p;
}
