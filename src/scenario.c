// SPDX-License-Identifier: MIT
/*
 * scenario.c - the named lookup scenarios and how scenarios are sized.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/scenario.h"
#include "opsbench/strategy.h"

/*
 * The named scenarios: what `make cachesim`, `make perf` and `make hyperfine`
 * run (the suite's profiles are products of the same size classes, custom
 * shares, orders, depths and coldness; bench/lookup.c).  The L1 and L2
 * ones at 0 and 10% custom, warm and cold, are the quick profile's uniform
 * scenarios: the report's cost model joins their simulated counts to the
 * timings of the same scenario.
 */
const struct ob_scenario ob_scenarios[] = {
	{ "L1-0pct-warm", "small tree, no custom ops, caches warm",
	  OB_SIZE_L1, 0, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "L1-0pct-coldops", "small tree, no custom ops, 2x L1D touched between lookups (ops tables and parents evicted)",
	  OB_SIZE_L1, 0, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L1-10pct-coldops", "as above, 10% of directories with custom ops",
	  OB_SIZE_L1, 10, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L1-50pct-coldops", "as above, 50% of directories with custom ops",
	  OB_SIZE_L1, 50, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L1-100pct-coldops", "as above, every directory with custom ops",
	  OB_SIZE_L1, 100, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L1-100pct-warm", "small tree, every directory with custom ops, caches warm",
	  OB_SIZE_L1, 100, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "L1-10pct-warm", "small tree, 10% of directories with custom ops, caches warm",
	  OB_SIZE_L1, 10, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "L2-0pct-warm", "tree filling half the L2, no custom ops, caches warm",
	  OB_SIZE_L2, 0, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "L2-10pct-warm", "tree filling half the L2, 10% of directories with custom ops",
	  OB_SIZE_L2, 10, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "L2-0pct-coldops", "tree filling half the L2, no custom ops, 2x L1D touched between lookups",
	  OB_SIZE_L2, 0, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L2-10pct-coldops", "as above, 10% of directories with custom ops",
	  OB_SIZE_L2, 10, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	{ "L2-0pct-depth4", "4-component paths, tree filling half the L2, no custom ops",
	  OB_SIZE_L2, 0, ORDER_UNIFORM, 4, false, OB_CTX_BARE },
	{ "LLC-0pct", "tree filling half the last level, no custom ops",
	  OB_SIZE_LLC, 0, ORDER_UNIFORM, 1, false, OB_CTX_BARE },
	{ "tiny-0pct-coldops", "smoke test: 64 dentries, cold ops",
	  OB_SIZE_TINY, 0, ORDER_UNIFORM, 1, true, OB_CTX_BARE },
	/* The component context (docs/model.md#context): a whole path component per lookup. */
	{ "L1-0pct-component-6.12", "small tree, no custom ops, caches warm; a whole path component as Linux 6.12 runs it",
	  OB_SIZE_L1, 0, ORDER_UNIFORM, 1, false, OB_CTX_COMPONENT_6_12 },
	{ "L1-0pct-component-6.1", "as above, as Linux 6.1 runs it (LSM hook called indirectly, hash table base and shift loaded)",
	  OB_SIZE_L1, 0, ORDER_UNIFORM, 1, false, OB_CTX_COMPONENT_6_1 },
	{ "L1-10pct-component-6.12", "small tree, 10% of directories with custom ops, caches warm; a whole path component, Linux 6.12",
	  OB_SIZE_L1, 10, ORDER_UNIFORM, 1, false, OB_CTX_COMPONENT_6_12 },
	{ NULL, NULL, 0, 0, 0, 0, false, OB_CTX_BARE },
};

const struct ob_scenario *ob_scenario_find(const char *name)
{
	for (const struct ob_scenario *sc = ob_scenarios; sc->name; sc++)
		if (!strcmp(sc->name, name))
			return sc;
	return NULL;
}

const char *ob_size_class_name(enum ob_size_class size)
{
	static const char *const names[OB_SIZE_COUNT] = {
		[OB_SIZE_L1] = "L1", [OB_SIZE_L2] = "L2", [OB_SIZE_LLC] = "LLC",
		[OB_SIZE_DRAM] = "DRAM", [OB_SIZE_TINY] = "tiny",
	};

	return (unsigned int)size < OB_SIZE_COUNT ? names[size] : "?";
}

size_t ob_sizing_bytes(void)
{
	const struct strategy *s;
	size_t i, largest = 0;

	for_each_strategy(s, i)
		if (s->object_size > largest)
			largest = s->object_size;
	return (largest + L1_CACHE_BYTES - 1) / L1_CACHE_BYTES * L1_CACHE_BYTES + L1_CACHE_BYTES;
}

size_t ob_size_class_bytes(enum ob_size_class size, const struct ob_caches *c)
{
	switch (size) {
	case OB_SIZE_L1:	return c->l1d / 2;
	case OB_SIZE_L2:	return c->l2 / 2;
	case OB_SIZE_LLC:	return c->llc / 2;
	case OB_SIZE_DRAM:	return 4 * c->llc;
	default:		return 64 * ob_sizing_bytes();
	}
}

size_t ob_size_class_dentries(enum ob_size_class size, const struct ob_caches *c)
{
	size_t n = ob_size_class_bytes(size, c) / ob_sizing_bytes();

	return n < 64 ? 64 : n;
}

size_t ob_cold_pollute_bytes(const struct ob_caches *c)
{
	return 2 * c->l1d;
}

void ob_scenario_params(const struct ob_scenario *sc, const struct ob_caches *c,
			struct workload_params *p, size_t *pollute)
{
	workload_params_default(p);
	p->dentries = ob_size_class_dentries(sc->size, c);
	p->custom_share = sc->custom_pct / 100.0;
	p->order = sc->order;
	p->path_depth = sc->depth;
	*pollute = sc->cold ? ob_cold_pollute_bytes(c) : 0;
}

/* One size: digits, then nothing, K or M.  0 on a bad one. */
static size_t parse_size(const char *s, const char **end)
{
	char *e;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno || v > (1ull << 40))
		return 0;
	if (*e == 'K')
		v <<= 10, e++;
	else if (*e == 'M')
		v <<= 20, e++;
	*end = e;
	return (size_t)v;
}

int ob_parse_caches(const char *s, struct ob_caches *c, struct ob_err *err)
{
	size_t v[3];
	const char *p = s;

	for (int i = 0; i < 3; i++) {
		v[i] = parse_size(p, &p);
		if (!v[i] || *p != (i < 2 ? ',' : '\0'))
			return ob_errorf(err, -EINVAL, "--caches '%s': expected L1D,L2,LLC in bytes "
					  "(K and M suffixes), e.g. 32K,1M,32M", s);
		p++;
	}
	/* A cache level smaller than a page, or larger than the level below it, is a typo. */
	if (v[0] < 1024 || v[0] > v[1] || v[1] > v[2])
		return ob_errorf(err, -EINVAL, "--caches '%s': expected 1K <= L1D <= L2 <= LLC", s);
	c->l1d = v[0];
	c->l2 = v[1];
	c->llc = v[2];
	c->l1d_ways = c->l2_ways = c->llc_ways = 0;
	c->from_sysfs = false;
	c->source = "--caches";
	return 0;
}
