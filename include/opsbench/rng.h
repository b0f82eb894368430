/* SPDX-License-Identifier: MIT */
/*
 * rng.h - the deterministic random numbers behind every workload.
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64, so that a
 * seed names one workload on every machine and compiler.
 */
#ifndef OPSBENCH_RNG_H
#define OPSBENCH_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ob_rng {
	uint64_t s[4];
};

/* Seed @r from @seed; any seed, 0 included, gives a good state. */
void ob_rng_seed(struct ob_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t ob_rng_next(struct ob_rng *r);
/* A uniform integer in [0, @bound); @bound must be at least 1. */
uint64_t ob_rng_below(struct ob_rng *r, uint64_t bound);
/* A uniform double in [0, 1). */
double ob_rng_unit(struct ob_rng *r);
/*
 * Shuffle the @n values at @v in place, every order equally likely
 * (Fisher-Yates: from the last place down, swap each with a place drawn
 * at or below it).  Draws n - 1 numbers, so a seed names one order.
 */
void ob_rng_shuffle(struct ob_rng *r, uint32_t *v, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_RNG_H */
