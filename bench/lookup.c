// SPDX-License-Identifier: MIT
/*
 * lookup.c - the lookup benchmarks: every strategy over a matrix of
 * scenarios sized by the machine's caches.
 *
 * Sizes (dentries of 192 bytes; other working-set parts come on top):
 *   L1    half the L1D        L2    half the L2
 *   LLC   half the LLC        DRAM  four times the LLC
 * Pollution: none, or twice the L1D touched between lookups (one byte per
 * line), enough to evict the parent dentries and the ops tables from L1.
 * Touching it costs far more than a lookup, so each polluted scenario also
 * has "lookup/pollute_only/...": the pollution alone, in the same process,
 * for reports to subtract.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/pmu.h"
#include "opsbench/strategy.h"
#include "suite.h"

#define PAPER_OBJECT	192	/* bytes per dentry used to size the tree */

struct lookup_arg {
	struct scenario *sc;
	const struct strategy *s;
	struct ob_tree *tree;
	struct ob_run run;
	struct ob_mem mem;
	struct pmu_reading pmu;		/* counters of the last run */
};

/*
 * Hardware counters, one group per process, opened at the first lookup
 * benchmark.  The line saying what cannot be counted is printed once per
 * process unless OPSBENCH_PMU_QUIET is set (make bench prints it once).
 */
static struct pmu pmu = { .leader = -1 };
static int pmu_state;			/* 0: not tried, 1: opened (maybe empty) */

static void pmu_once(void)
{
	if (pmu_state)
		return;
	pmu_open(&pmu, getenv("OPSBENCH_PMU_QUIET") ? NULL : stderr);
	pmu_state = 1;
}

/* The scenario's workload and pollution buffer, shared by its strategies. */
static int prepare_scenario(struct scenario *sc, char *msg, size_t len)
{
	struct ob_err err = { 0 };

	if (sc->ready)
		return 0;
	/* Every strategy's tree of this scenario lives at once: check for all of them. */
	if (ob_check_memory(ob_strategy_count() * workload_memory_estimate(&sc->params, 208) +
			    4 * sc->pollute, sc->group, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return err.code;
	}
	if (workload_generate(&sc->params, &sc->wl, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return err.code;
	}
	if (sc->pollute) {
		/* Cycle through 4x the bytes touched, so the pollution itself misses L1. */
		sc->pollute_size = 4 * sc->pollute;
		sc->pollute_buf = calloc(1, sc->pollute_size);
		if (!sc->pollute_buf) {
			snprintf(msg, len, "out of memory for %zu bytes of pollution buffer",
				 sc->pollute_size);
			return -ENOMEM;
		}
	}
	sc->ready = true;
	return 0;
}

static int lookup_prepare(void *arg, char *msg, size_t len)
{
	struct lookup_arg *a = arg;
	struct ob_err err = { 0 };
	int ret = prepare_scenario(a->sc, msg, len);

	if (ret || a->tree)
		return ret;
	pmu_once();
	if (a->s->build(&a->sc->wl, &a->tree, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return err.code;
	}
	a->s->memory(a->tree, &a->mem);
	a->run = (struct ob_run) {
		.pollute_bytes = a->sc->pollute,
		.pollute_buf = a->sc->pollute_buf,
		.pollute_size = a->sc->pollute_size,
	};
	return 0;
}

/* The pollution alone, so that reports can subtract it from the lookups. */
static int pollute_prepare(void *arg, char *msg, size_t len)
{
	struct lookup_arg *a = arg;
	int ret = prepare_scenario(a->sc, msg, len);

	if (ret)
		return ret;
	a->run = (struct ob_run) {
		.pollute_bytes = a->sc->pollute,
		.pollute_buf = a->sc->pollute_buf,
		.pollute_size = a->sc->pollute_size,
	};
	return 0;
}

static uint64_t pollute_body(void *arg, uint64_t iters)
{
	struct lookup_arg *a = arg;

	for (uint64_t i = 0; i < iters; i++)
		ob_pollute(&a->run);
	return a->run.pollute_pos;
}

static uint64_t lookup_body(void *arg, uint64_t iters)
{
	struct lookup_arg *a = arg;
	uint64_t sum;

	pmu_start(&pmu);
	sum = a->s->run(a->tree, &a->run, iters);
	pmu_stop(&pmu, &a->pmu);
	return sum;
}

static void lookup_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct lookup_arg *a = arg;

	ob_gb_counter(st, "lookups_per_second", (double)iters, OB_GB_RATE);
	ob_gb_counter(st, "dentry_bytes", (double)a->mem.object_size, OB_GB_PLAIN);
	ob_gb_counter(st, "total_bytes", (double)a->mem.total, OB_GB_PLAIN);
	ob_gb_counter(st, "dentries", (double)a->sc->wl.n_nodes, OB_GB_PLAIN);
	ob_gb_counter(st, "components_per_lookup", (double)a->sc->params.path_depth, OB_GB_PLAIN);
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		char name[64];

		if (!a->pmu.counted[e])
			continue;
		snprintf(name, sizeof(name), "%s/lookup", pmu_event_name(e));
		ob_gb_counter(st, name, a->pmu.value[e], OB_GB_PER_ITER);
	}
	ob_gb_label(st, a->s->name);
}

void lookup_list(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l)
{
	const struct strategy *s;
	size_t i;

	(void)cfg;
	if (sc->pollute) {
		struct lookup_arg *a = calloc(1, sizeof(*a));
		char name[256];

		if (!a) {
			perror("opsbench-suite");
			exit(1);
		}
		a->sc = sc;
		snprintf(name, sizeof(name), "lookup/pollute_only/%s", sc->group + strlen("lookup/"));
		bench_add(l, name, pollute_prepare, pollute_body, NULL, a);
	}
	for_each_strategy(s, i) {
		struct lookup_arg *a;
		char name[256];

		if (!s->custom_ops && sc->params.custom_share > 0)
			continue;
		a = calloc(1, sizeof(*a));
		if (!a) {
			perror("opsbench-suite");
			exit(1);
		}
		a->sc = sc;
		a->s = s;
		/* "lookup/<strategy>/<scenario args>": the scenario is the group minus "lookup/". */
		snprintf(name, sizeof(name), "lookup/%s/%s", s->name, sc->group + strlen("lookup/"));
		bench_add(l, name, lookup_prepare, lookup_body, lookup_report, a);
	}
}

/* ---- the matrix ---- */

struct size_class {
	const char *name;
	size_t bytes;
};

size_t lookup_scenarios(const struct suite_cfg *cfg, struct scenario **out)
{
	const struct ob_caches *c = &cfg->caches;
	const struct size_class sizes_full[] = {
		{ "L1", c->l1d / 2 }, { "L2", c->l2 / 2 }, { "LLC", c->llc / 2 }, { "DRAM", 4 * c->llc },
	};
	const struct size_class sizes_quick[] = {
		{ "L1", c->l1d / 2 }, { "LLC", c->llc / 2 },
	};
	const struct size_class sizes_smoke[] = { { "tiny", 64 * PAPER_OBJECT } };
	static const unsigned int custom_full[] = { 0, 1, 10, 50, 100 }, custom_quick[] = { 0, 10 };
	static const enum lookup_order order_full[] = { ORDER_SORTED, ORDER_UNIFORM, ORDER_ZIPF };
	static const enum lookup_order order_quick[] = { ORDER_SORTED, ORDER_UNIFORM };
	static const unsigned int depth_full[] = { 1, 4 }, depth_quick[] = { 1 };
	const size_t pollute[] = { 0, 2 * c->l1d };

	const struct size_class *sizes;
	const unsigned int *custom, *depth;
	const enum lookup_order *order;
	size_t n_sizes, n_custom, n_order, n_depth, n_pollute = 2, n = 0;
	struct scenario *v;

	switch (cfg->profile) {
	case PROFILE_FULL:
		sizes = sizes_full, n_sizes = ARRAY_SIZE(sizes_full);
		custom = custom_full, n_custom = ARRAY_SIZE(custom_full);
		order = order_full, n_order = ARRAY_SIZE(order_full);
		depth = depth_full, n_depth = ARRAY_SIZE(depth_full);
		break;
	case PROFILE_SMOKE:
		sizes = sizes_smoke, n_sizes = 1;
		custom = custom_quick, n_custom = ARRAY_SIZE(custom_quick);
		order = order_quick + 1, n_order = 1;	/* uniform */
		depth = depth_quick, n_depth = 1;
		n_pollute = 1;
		break;
	default:
		sizes = sizes_quick, n_sizes = ARRAY_SIZE(sizes_quick);
		custom = custom_quick, n_custom = ARRAY_SIZE(custom_quick);
		order = order_quick, n_order = ARRAY_SIZE(order_quick);
		depth = depth_quick, n_depth = 1;
		break;
	}

	v = calloc(n_sizes * n_custom * n_order * n_depth * n_pollute, sizeof(*v));
	if (!v) {
		perror("opsbench-suite");
		exit(1);
	}
	for (size_t a = 0; a < n_sizes; a++)
	for (size_t d = 0; d < n_depth; d++)
	for (size_t b = 0; b < n_custom; b++)
	for (size_t o = 0; o < n_order; o++)
	for (size_t p = 0; p < n_pollute; p++) {
		struct scenario *sc = &v[n++];
		size_t dentries = sizes[a].bytes / PAPER_OBJECT;

		workload_params_default(&sc->params);
		sc->size_class = sizes[a].name;
		sc->params.dentries = dentries < 64 ? 64 : dentries;
		sc->params.custom_share = custom[b] / 100.0;
		sc->params.order = order[o];
		sc->params.path_depth = depth[d];
		sc->pollute = pollute[p];
		snprintf(sc->group, sizeof(sc->group),
			 "lookup/size:%s/dentries:%zu/custom:%u/order:%s/pollute:%zu/depth:%u",
			 sc->size_class, sc->params.dentries, custom[b],
			 lookup_order_name(order[o]), sc->pollute, depth[d]);
	}
	*out = v;
	return n;
}
