// SPDX-License-Identifier: MIT
/*
 * calib.c - the machine's own units, so reports can explain a lookup's cost:
 *
 *   calib/empty_loop          the harness and loop overhead per iteration
 *   calib/chase/bytes:N       latency of one dependent load in an N-byte
 *                             working set: one pointer per cache line, linked
 *                             in one random cycle (Sattolo), so neither the
 *                             prefetchers nor the branch history help
 *   calib/branch/ORDER        a data-dependent branch on a constant bit or on
 *                             a never-repeating pseudo-random stream: the
 *                             penalty of a mispredict is 2 x (random -
 *                             predictable), since random bits are
 *                             mispredicted half the time
 *   calib/cycle               eight dependent adds per iteration: 8 cycles,
 *                             so ns per cycle is the time / 8
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "opsbench/compiler.h"
#include "opsbench/rng.h"
#include "opsbench/tsc.h"
#include "suite.h"

/* ---- empty loop ---- */

static uint64_t empty_body(void *arg, uint64_t iters)
{
	(void)arg;
	for (uint64_t i = 0; i < iters; i++)
		OPTIMIZER_HIDE_VAR(i);
	return iters;
}

/* ---- pointer chase ---- */

struct chase_arg {
	size_t bytes;
	void **start;
	void *mem;
};

static int chase_prepare(void *arg, char *msg, size_t len)
{
	struct chase_arg *a = arg;
	size_t lines = a->bytes / 64, huge = 2u << 20;
	size_t alloc = (a->bytes + huge - 1) & ~(huge - 1);
	uint32_t *order;
	struct ob_rng rng;

	if (a->mem)
		return 0;
	a->mem = aligned_alloc(huge, alloc);
	order = malloc(lines * sizeof(*order));
	if (!a->mem || !order) {
		free(a->mem);
		free(order);
		a->mem = NULL;
		snprintf(msg, len, "out of memory for a %zu-byte pointer chase", a->bytes);
		return -1;
	}
	/* Huge pages where the kernel gives them: measure caches, not the TLB. */
	madvise(a->mem, alloc, MADV_HUGEPAGE);
	memset(a->mem, 0, alloc);
	ob_rng_seed(&rng, a->bytes);
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	for (size_t i = lines - 1; i > 0; i--) {	/* Sattolo: one cycle */
		size_t j = ob_rng_below(&rng, i);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++) {
		void **line = (void **)((char *)a->mem + (size_t)i * 64);

		*line = (char *)a->mem + (size_t)order[i] * 64;
	}
	a->start = a->mem;
	free(order);
	return 0;
}

static uint64_t chase_body(void *arg, uint64_t iters)
{
	struct chase_arg *a = arg;
	void **p = a->start;

	for (uint64_t i = 0; i < iters; i++)
		p = *p;
	a->start = p;
	return (uintptr_t)p;
}

static void chase_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct chase_arg *a = arg;

	(void)iters;
	ob_gb_counter(st, "working_set_bytes", (double)a->bytes, OB_GB_PLAIN);
}

/* ---- branch ---- */

/*
 * Each iteration draws a fresh pseudo-random word (xorshift64, the same work
 * in both variants) and branches on one bit of it ANDed with a mask read
 * from memory: mask 0 gives a branch that always goes one way, mask 1 a
 * branch on a stream that never repeats, so the predictor cannot learn it.
 */
struct branch_arg {
	uint64_t mask;		/* 0: predictable, 1: random */
};

static uint64_t branch_body(void *arg, uint64_t iters)
{
	const struct branch_arg *a = arg;
	uint64_t x = 0, rng = 0x9e3779b97f4a7c15ull;

	for (uint64_t i = 0; i < iters; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		/* Distinct asm in each arm keeps the compiler from a cmov. */
		if (rng & READ_ONCE(a->mask)) {
			__asm__ volatile("" : "+r"(x));
			x += 3;
		} else {
			__asm__ volatile("nop" : "+r"(x));
			x ^= 5;
		}
	}
	return x;
}

/* ---- the core clock: one dependent add a cycle ---- */

/* Eight dependent adds: one cycle each on every core opsbench targets. */
static __always_inline uint64_t add8(uint64_t x)
{
#if defined(__x86_64__)
	__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
			 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
#else
	__asm__ volatile("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
			 "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1" : "+r"(x));
#endif
	return x;
}

static uint64_t cycle_body(void *arg, uint64_t iters)
{
	uint64_t x = 0;

	(void)arg;
	for (uint64_t i = 0; i < iters; i++)
		x = add8(x);
	return x;
}

double ob_cycle_ns(void)
{
	static double ns_per_cycle;

	if (ns_per_cycle > 0)
		return ns_per_cycle;
	/* Five runs of 2^17 x 8 adds (about 0.3 ms at 3 GHz); the fastest. */
	for (int r = 0; r < 5; r++) {
		struct timespec a, b;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		__asm__ volatile("" ::: "memory");	/* the adds stay between the two reads */
		uint64_t x = cycle_body(NULL, 1u << 17);

		OPTIMIZER_HIDE_VAR(x);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
		ns /= 8.0 * (1u << 17);
		if (!(ns_per_cycle > 0) || ns < ns_per_cycle)
			ns_per_cycle = ns;
	}
	return ns_per_cycle;
}

/* ---- the host's level: one fixed loop, timed in every lookup process ---- */

#define LEVEL_WORDS	2048	/* 16 KiB: in the L1D of every machine opsbench targets */

/* @passes passes of independent loads and adds over @v: bound by throughput, like a warm lookup loop. */
static uint64_t level_body(const uint64_t *v, unsigned int passes)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (unsigned int p = 0; p < passes; p++)
		for (size_t i = 0; i < LEVEL_WORDS; i += 4) {
			a += v[i] ^ p;
			b += v[i + 1] + a;
			c ^= v[i + 2] + p;
			d += v[i + 3] ^ c;
		}
	return a ^ b ^ c ^ d;
}

double ob_host_level_ns(void)
{
	static double level;
	static uint64_t v[LEVEL_WORDS];

	if (level > 0)
		return level;
	for (size_t i = 0; i < LEVEL_WORDS; i++)
		v[i] = i * 0x9e3779b97f4a7c15ull;
	/* Seven runs of 16 passes (about 0.1 ms each); the fastest, per word. */
	for (int r = 0; r < 7; r++) {
		double t0 = ob_mono_ns(), ns;
		uint64_t x = level_body(v, 16);

		OPTIMIZER_HIDE_VAR(x);
		ns = (ob_mono_ns() - t0) / (16.0 * LEVEL_WORDS);
		if (!(level > 0) || ns < level)
			level = ns;
	}
	return level;
}

void calib_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	static struct branch_arg branch[2] = { { .mask = 0 }, { .mask = 1 } };
	size_t max = cfg->profile == PROFILE_SMOKE ? (1u << 20) : 4 * cfg->caches.llc;
	char name[96];

	bench_add(l, "calib/empty_loop", NULL, empty_body, NULL, NULL);
	for (size_t bytes = 4u << 10; bytes <= max; bytes *= 2) {
		struct chase_arg *a = xcalloc(1, sizeof(*a));

		a->bytes = bytes;
		snprintf(name, sizeof(name), "calib/chase/bytes:%zu", bytes);
		bench_add(l, name, chase_prepare, chase_body, chase_report, a);
	}
	for (int r = 0; r < 2; r++) {
		snprintf(name, sizeof(name), "calib/branch/%s", r ? "random" : "predictable");
		bench_add(l, name, NULL, branch_body, NULL, &branch[r]);
	}
	bench_add(l, "calib/cycle", NULL, cycle_body, NULL, NULL);
}

long ob_involuntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_nivcsw;
}
