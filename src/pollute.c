// SPDX-License-Identifier: MIT
/*
 * pollute.c - unrelated memory traffic between lookups, standing in for the
 * rest of the kernel: it evicts ops tables and cold dentry lines the way a
 * real workload does between two path walks.
 */
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
