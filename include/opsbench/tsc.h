/* SPDX-License-Identifier: MIT */
/*
 * tsc.h - serialised timestamps around one short piece of code.
 *
 *   t0 = ob_ts_begin();  ...code...;  t1 = ob_ts_end();
 *
 * x86-64: "lfence; rdtsc; lfence" on both sides: the first lfence lets the
 * read start only when everything before it has finished (the code, after;
 * earlier work, before), the second lets nothing later start before the
 * read.  Not rdtscp: a hypervisor may run it without advertising it (a Zen 5
 * KVM guest here: no rdtscp in /proc/cpuinfo), and valgrind, which goes by
 * CPUID, then stops the program at it (SIGILL).  The TSC ticks at a
 * constant rate, not the core clock.
 *
 * arm64: "isb; mrs cntvct_el0; isb" on both sides.  The generic timer ticks
 * at cntfrq_el0, often 24-100 MHz (10-40 ns a tick), so single lookups are
 * resolved only statistically: many samples, averaged.
 *
 * Elsewhere (or under an emulator) the same calls work but mean nothing;
 * callers say so and report no timing.
 */
#ifndef OPSBENCH_TSC_H
#define OPSBENCH_TSC_H

#include <stdint.h>

#include "opsbench/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__x86_64__)
static __always_inline uint64_t ob_ts_begin(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static __always_inline uint64_t ob_ts_end(void)
{
	return ob_ts_begin();
}
#elif defined(__aarch64__)
static __always_inline uint64_t ob_ts_begin(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
	return v;
}

static __always_inline uint64_t ob_ts_end(void)
{
	return ob_ts_begin();
}
#else
#error "opsbench times on x86-64 and arm64 only"
#endif

/* ob_mono_ns - CLOCK_MONOTONIC in nanoseconds (for spans of microseconds and more). */
double ob_mono_ns(void);

/*
 * ob_ts_ns_per_tick - nanoseconds per timestamp tick, measured once per
 * process against CLOCK_MONOTONIC over about 20 ms (arm64: 1e9/cntfrq_el0).
 */
double ob_ts_ns_per_tick(void);

/*
 * ob_ts_overhead_ticks - what an empty ob_ts_begin()/ob_ts_end() pair
 * measures, in ticks: the median of 10,001 back-to-back pairs, measured once
 * per process.  Cold-path timings subtract it.
 */
double ob_ts_overhead_ticks(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_TSC_H */
