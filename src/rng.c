// SPDX-License-Identifier: MIT
/* rng.c - xoshiro256** seeded with splitmix64. */
#include "opsbench/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void ob_rng_seed(struct ob_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t ob_rng_next(struct ob_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Lemire's multiply-and-reject: unbiased, one division only on rejection. */
uint64_t ob_rng_below(struct ob_rng *r, uint64_t bound)
{
	unsigned __int128 m = (unsigned __int128)ob_rng_next(r) * bound;
	uint64_t low = (uint64_t)m;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (unsigned __int128)ob_rng_next(r) * bound;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double ob_rng_unit(struct ob_rng *r)
{
	return (double)(ob_rng_next(r) >> 11) * 0x1.0p-53;
}

void ob_rng_shuffle(struct ob_rng *r, uint32_t *v, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = ob_rng_below(r, i);
		uint32_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}
