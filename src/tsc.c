// SPDX-License-Identifier: MIT
/* tsc.c - the calibration of include/opsbench/tsc.h's timestamps. */
#include <stdlib.h>
#include <time.h>

#include "opsbench/tsc.h"

double ob_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double ob_ts_ns_per_tick(void)
{
	static double ns_per_tick;

	if (ns_per_tick > 0)
		return ns_per_tick;
#if defined(__aarch64__)
	uint64_t freq;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(freq));
	if (freq) {
		ns_per_tick = 1e9 / (double)freq;
		return ns_per_tick;
	}
#endif
	/* Three 20 ms windows; the middle ratio (robust to one preemption). */
	double r[3];

	for (int i = 0; i < 3; i++) {
		double n0 = ob_mono_ns(), n1;
		uint64_t t0 = ob_ts_begin(), t1;

		do
			n1 = ob_mono_ns();
		while (n1 - n0 < 20e6);
		t1 = ob_ts_end();
		r[i] = (n1 - n0) / (double)(t1 - t0 ? t1 - t0 : 1);
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2 - i; j++)
			if (r[j] > r[j + 1]) {
				double x = r[j];

				r[j] = r[j + 1];
				r[j + 1] = x;
			}
	ns_per_tick = r[1];
	return ns_per_tick;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double ob_ts_overhead_ticks(void)
{
	enum { PAIRS = 10001 };
	static double overhead = -1;
	static uint64_t d[PAIRS];

	if (overhead >= 0)
		return overhead;
	for (int i = 0; i < PAIRS; i++) {
		uint64_t t0 = ob_ts_begin();

		d[i] = ob_ts_end() - t0;
	}
	qsort(d, PAIRS, sizeof(d[0]), cmp_u64);
	overhead = (double)d[PAIRS / 2];
	return overhead;
}
