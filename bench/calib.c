// SPDX-License-Identifier: MIT
/*
 * calib.c - the machine's own units, so reports can explain a lookup's cost:
 *
 *   calib/empty_loop          the harness and loop overhead per iteration
 *   calib/chase/bytes:N       latency of one dependent load in an N-byte
 *                             working set: one pointer per cache line, linked
 *                             in one random cycle (Sattolo), so neither the
 *                             prefetchers nor the branch history help
 *   calib/branch/ORDER        a data-dependent branch on predictable bits
 *                             (alternating) or random bits: the penalty of a
 *                             mispredict is 2 x (random - predictable), since
 *                             random bits are mispredicted half the time
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "opsbench/compiler.h"
#include "opsbench/rng.h"
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

#define BRANCH_BITS	(64u << 10)

struct branch_arg {
	bool random;
	unsigned char *bits;
};

static int branch_prepare(void *arg, char *msg, size_t len)
{
	struct branch_arg *a = arg;
	struct ob_rng rng;

	if (a->bits)
		return 0;
	a->bits = malloc(BRANCH_BITS);
	if (!a->bits) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	ob_rng_seed(&rng, 3);
	for (unsigned int i = 0; i < BRANCH_BITS; i++)
		a->bits[i] = a->random ? (unsigned char)(ob_rng_next(&rng) & 1) : (unsigned char)(i & 1);
	return 0;
}

static uint64_t branch_body(void *arg, uint64_t iters)
{
	const struct branch_arg *a = arg;
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++) {
		/* Distinct asm in each arm keeps the compiler from a cmov. */
		if (a->bits[i & (BRANCH_BITS - 1)]) {
			__asm__ volatile("" : "+r"(x));
			x += 3;
		} else {
			__asm__ volatile("nop" : "+r"(x));
			x ^= 5;
		}
	}
	return x;
}

void calib_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	static struct branch_arg branch[2] = { { .random = false }, { .random = true } };
	size_t max = cfg->profile == PROFILE_SMOKE ? (1u << 20) : 4 * cfg->caches.llc;
	char name[96];

	bench_add(l, "calib/empty_loop", NULL, empty_body, NULL, NULL);
	for (size_t bytes = 4u << 10; bytes <= max; bytes *= 2) {
		struct chase_arg *a = calloc(1, sizeof(*a));

		if (!a) {
			perror("opsbench-suite");
			exit(1);
		}
		a->bytes = bytes;
		snprintf(name, sizeof(name), "calib/chase/bytes:%zu", bytes);
		bench_add(l, name, chase_prepare, chase_body, chase_report, a);
	}
	for (int r = 0; r < 2; r++) {
		snprintf(name, sizeof(name), "calib/branch/%s", r ? "random" : "predictable");
		bench_add(l, name, branch_prepare, branch_body, NULL, &branch[r]);
	}
}
