// SPDX-License-Identifier: MIT
/*
 * lookup.c - the lookup benchmarks: every strategy over a matrix of
 * scenarios sized by the machine's caches (opsbench/scenario.h), one group
 * per scenario; --scenario NAME runs one named scenario instead.
 *
 * A group's benchmarks (mode x strategy) each take one sample per round, in
 * an order shuffled anew each round, so that every strategy can be compared
 * with the baseline measured in the same round.  Here: the scenario matrix
 * (lookup_scenarios()), the samples' sizing (sample_iters()), a round's
 * interleaved sub-samples (run_interleaved()), the sample statistics
 * (quantile(), cold_sample_ns()) and the schedule of rounds
 * (lookup_schedule()).  The method: docs/method.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/pmu.h"
#include "opsbench/rng.h"
#include "opsbench/strategy.h"
#include "opsbench/tsc.h"
#include "suite.h"

/*
 * A pass over the list at least this long (ns) is a sub-sample by itself,
 * and so is a part of the list this long where one pass is longer than a
 * sample.  Shorter passes are grouped into sub-samples of the profile's
 * sub_sample_us: each sub-sample re-enters its tree (two mremap calls and a
 * TLB refill, about 30 us here), which longer sub-samples amortise.  Passes
 * of 20 us or more already amortise it; grouping them made the quantile of
 * a sample coarser (docs/method.md#warm-samples).
 */
#define SUB_SAMPLE_PASS_NS	20000.0

/*
 * A warm sample is this quantile of its sub-samples' times (see run_interleaved()):
 * low, so that interrupts and a neighbour's bursts stay out of it, but not
 * the minimum (docs/method.md#warm-samples).
 */
#define SUB_SAMPLE_QUANTILE	0.10

/* Cold lookups per sub-sample, a batch (see run_interleaved(), cold_sample_ns()). */
#define COLD_SUB_SAMPLE	64

/* A cold lookup longer than this many times the sample's median, plus INTERRUPTED_NS, was interrupted. */
#define INTERRUPTED_FACTOR	4
#define INTERRUPTED_NS		1000.0

struct lookup_bench;

/*
 * The benchmarks of one mode of a scenario, measured together once per
 * round, their sub-samples interleaved (run_interleaved()); @round is the
 * round last measured (-1: none yet); @warm_pass (cold mode): an untimed
 * pass over the list before each sub-sample.
 */
struct interleave {
	struct lookup_bench **v;
	size_t n;
	long round;
	bool warm_pass;
};

/* One (mode, strategy) of a scenario: its tree, shared by its samples. */
struct lookup_bench {
	struct scenario *sc;
	const struct strategy *s;
	enum ob_mode mode;
	struct ob_tree *tree;
	struct ob_mem mem;
	unsigned char *pollute_buf;	/* cold mode: the scenario's, shared by its strategies */
	uint32_t *ticks;		/* cold mode: each lookup's ticks in a sample (iters) */
	double interrupted;		/* cold mode: share of the last sample's lookups left out */
	uint64_t iters;			/* lookups per sample */
	uint64_t sub_iters;		/* lookups per sub-sample (a divisor of iters) */
	struct pmu_reading pmu;		/* counters of the last sample */
	double elapsed_ns;		/* the last sample's time (run_interleaved()) */
	double measured_ns;		/* the last sample's timed sub-samples and untimed passes, wall */
	struct interleave *together;	/* the benchmarks measured with it */
	size_t cursor;			/* where its next sub-sample starts */
};

/* One sample: a benchmark in one round. */
struct lookup_sample {
	struct lookup_bench *b;
	unsigned int round;
	unsigned int pass;		/* the process's block of the rounds (--pass K/N: K) */
	size_t start;			/* first entry of the lookup list */
};

/*
 * Hardware counters, one group per process, opened when the group is set
 * up.  The line saying what cannot be counted is printed once per process
 * unless OPSBENCH_PMU_QUIET is set (make bench prints it once).
 */
static struct pmu pmu = { .leader = -1 };

/* The scenario's workload, shared by its strategies.  0 or -errno (@err says why). */
static int prepare_scenario(struct scenario *sc, struct ob_err *err)
{
	if (sc->ready)
		return 0;
	/* Every strategy's tree of this scenario lives at once: check for all of them. */
	if (ob_check_memory(ob_strategy_count() * workload_memory_estimate(&sc->params, ob_sizing_bytes()) +
			    sc->pollute, sc->group, err))
		return err->code;
	if (workload_generate(&sc->params, &sc->wl, err))
		return err->code;
	sc->ready = true;
	return 0;
}

/* @b's tree (and cold mode's pollution buffer).  0 or -errno (@err says why). */
static int bench_build(struct lookup_bench *b, struct ob_err *err)
{
	if (b->s->build(&b->sc->wl, b->sc->context, &b->tree, err))
		return err->code;
	b->s->memory(b->tree, &b->mem);
	if (b->mode == OB_COLD) {
		if (!b->sc->pollute_buf)
			b->sc->pollute_buf = ob_pollute_alloc(b->sc->pollute);
		if (!b->sc->pollute_buf)
			return ob_errorf(err, -ENOMEM, "out of memory for the pollution buffer");
		b->pollute_buf = b->sc->pollute_buf;
	}
	return 0;
}

/* A benchmark of a scenario that could not be set up: skipped, saying why. */
static int refuse_prepare(void *arg, char *msg, size_t len)
{
	snprintf(msg, len, "%s", (const char *)arg);
	return -1;
}

static struct ob_run bench_run_state(const struct lookup_bench *b, size_t start)
{
	return (struct ob_run) {
		.cursor = start,
		.mode = b->mode,
		.context = b->sc->context,
		.pollute_bytes = b->mode == OB_COLD ? b->sc->pollute : 0,
		.pollute_buf = b->pollute_buf,
		.pollute_size = b->sc->pollute,
	};
}

/* Wall time of @n lookups of @b from list entry 0, in ns (sizing only). */
static double time_once(struct lookup_bench *b, uint64_t n)
{
	struct ob_run r = bench_run_state(b, 0);
	double t0 = ob_mono_ns();
	uint64_t sum = b->s->run(b->tree, &r, n);

	OPTIMIZER_HIDE_VAR(sum);
	return ob_mono_ns() - t0;
}

/*
 * Lookups per sample (and per sub-sample) for the benchmarks of @base's
 * mode, @base being that mode's baseline.
 */
static void sample_iters(const struct suite_cfg *cfg, struct lookup_bench *base,
			 uint64_t *iters, uint64_t *sub_iters)
{
	size_t len = base->sc->wl.n_lookups;
	double best = 0;

	*iters = *sub_iters = 1;
	if (!len)
		return;
	if (base->mode == OB_COLD) {
		/* Cold lookups are dominated by the pollution; size on 256 of them. */
		for (int i = 0; i < 3; i++) {
			double ns = time_once(base, 256) / 256;

			if (!i || ns < best)
				best = ns;
		}
		uint64_t subs = (uint64_t)(cfg->sample_ns / ((best > 1 ? best : 1) * COLD_SUB_SAMPLE) + 0.5);

		*sub_iters = COLD_SUB_SAMPLE;
		*iters = (subs ? subs : 1) * COLD_SUB_SAMPLE;
		return;
	}
	for (int i = 0; i < 5; i++) {		/* warm, then the fastest pass */
		double ns = time_once(base, len);

		if (!i || ns < best)
			best = ns;
	}
	if (best < 1)
		best = 1;
	if (best > cfg->sample_ns) {
		/* A pass is longer than a sample: part of the list, in sub-samples. */
		double per_lookup = best / (double)len;
		uint64_t sub = (uint64_t)(SUB_SAMPLE_PASS_NS / per_lookup) + 1;
		uint64_t subs = (uint64_t)(cfg->sample_ns / (per_lookup * (double)sub) + 0.5);

		*sub_iters = sub;
		*iters = (subs ? subs : 1) * sub;
		return;
	}
	uint64_t per_sub = best >= SUB_SAMPLE_PASS_NS ? 1 :			/* passes */
			   (uint64_t)(cfg->sub_sample_ns / best) + 1;
	uint64_t subs = (uint64_t)(cfg->sample_ns / (best * (double)per_sub) + 0.5);

	if (!subs)
		subs = 1;
	*sub_iters = per_sub * len;
	*iters = subs * *sub_iters;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank @q quantile of the @n values at @v (sorts them). */
static double quantile(double *v, size_t n, double q)
{
	size_t rank = (size_t)(q * (double)n + 0.999999);

	qsort(v, n, sizeof(*v), cmp_double);
	return v[rank ? rank - 1 : 0];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The cold sample of @n lookups whose ticks are @ticks, in COLD_SUB_SAMPLE
 * batches (the sub-samples, in the order they ran): the SUB_SAMPLE_QUANTILE
 * quantile of the batches' mean times, minus the timer's overhead, in ns.
 * *@left_out is the share of the lookups an interrupt or the host stopped
 * (longer than INTERRUPTED_FACTOR times the median plus INTERRUPTED_NS):
 * a batch holding one has a high mean and stays out of the low quantile.
 */
static double cold_sample_ns(const uint32_t *ticks, uint64_t n, double *left_out)
{
	double ns_per_tick = ob_ts_ns_per_tick(), limit;
	uint64_t batches = n / COLD_SUB_SAMPLE, slow = 0;
	uint32_t *sorted = xcalloc(n, sizeof(*sorted));
	double *mean = xcalloc(batches ? batches : 1, sizeof(*mean)), q;

	memcpy(sorted, ticks, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u32);
	limit = INTERRUPTED_FACTOR * (double)sorted[n / 2] + INTERRUPTED_NS / ns_per_tick;
	for (uint64_t i = 0; i < n; i++)
		slow += ticks[i] > limit;
	*left_out = (double)slow / (double)n;
	for (uint64_t k = 0; k < batches; k++) {
		uint64_t sum = 0;

		for (uint64_t i = 0; i < COLD_SUB_SAMPLE; i++)
			sum += ticks[k * COLD_SUB_SAMPLE + i];
		mean[k] = (double)sum / COLD_SUB_SAMPLE;
	}
	q = batches ? quantile(mean, batches, SUB_SAMPLE_QUANTILE) : (double)sorted[n / 2];
	free(mean);
	free(sorted);
	return (q - ob_ts_overhead_ticks()) * ns_per_tick;
}

/* @acc += @r, event by event (an event counts only if it counted every time). */
static void pmu_add(struct pmu_reading *acc, const struct pmu_reading *r, bool first)
{
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		acc->value[e] = (first ? 0 : acc->value[e]) + r->value[e];
		acc->counted[e] = (first || acc->counted[e]) && r->counted[e];
	}
	acc->running_share = first ? r->running_share :
			     (acc->running_share < r->running_share ? acc->running_share : r->running_share);
}

/* @n lookups of @b from its cursor, untimed in throughput mode (no pollution). */
static uint64_t untimed_pass(struct lookup_bench *b, size_t n)
{
	struct ob_run r = bench_run_state(b, 0);

	r.mode = OB_THROUGHPUT;
	r.pollute_bytes = 0;
	return b->s->run(b->tree, &r, n);
}

/*
 * Round @smp->round of @sw: every benchmark's sub-samples, interleaved.
 * Sub-sample j of every strategy runs before sub-sample j + 1 of any, in
 * an order shuffled anew for each j, so that the strategies of a round see
 * the same states of the machine (its fast and slow phases, its clock)
 * within about a sub-sample times the number of strategies, instead of one
 * sample each after the other.  Where the list is short (warm: one
 * pass fits in a sample; cold: a tree of up to twice the L2), each timed
 * sub-sample follows one untimed pass over the list, which brings the
 * strategy's tree back into the caches and its branches into the
 * predictors after the others' sub-samples (and, cold, after their
 * pollution: a cold lookup then misses in L1 alone, as when a strategy's
 * lookups ran back to back); otherwise the sub-samples continue through the
 * list from the round's start.  A warm benchmark's sample is the
 * SUB_SAMPLE_QUANTILE quantile of its sub-samples' times; a cold one's, that
 * quantile of its batches' mean lookup times (cold_sample_ns()).  The counters
 * are the sum over the timed sub-samples.
 */
static uint64_t run_interleaved(struct interleave *sw, const struct lookup_sample *smp)
{
	struct lookup_bench *first = sw->v[0];
	bool cold = first->mode == OB_COLD;
	size_t len = first->sc->wl.n_lookups;
	bool pass = cold ? sw->warm_pass :
		       !smp->start && first->sub_iters % (len ? len : 1) == 0;
	uint64_t subs = first->iters / first->sub_iters, sum = 0;
	uint32_t *order = xcalloc(sw->n, sizeof(*order));
	double *sub_ns = cold ? NULL : xcalloc(sw->n * subs, sizeof(*sub_ns));

	for (size_t k = 0; k < sw->n; k++) {
		sw->v[k]->cursor = smp->start;
		sw->v[k]->measured_ns = 0;
	}
	for (uint64_t j = 0; j < subs; j++) {
		struct ob_rng rng;

		ob_rng_seed(&rng, ((uint64_t)smp->round << 32) ^ (j << 8) ^ (uint64_t)first->mode);
		for (size_t k = 0; k < sw->n; k++)
			order[k] = (uint32_t)k;
		ob_rng_shuffle(&rng, order, sw->n);
		for (size_t k = 0; k < sw->n; k++) {
			struct lookup_bench *b = sw->v[order[k]];
			struct ob_run r = bench_run_state(b, b->cursor);
			struct pmu_reading reading;
			double t0, ns;

			double p0 = ob_mono_ns();

			if (pass)
				sum += untimed_pass(b, len);
			if (cold)
				r.lookup_ticks = b->ticks + j * b->sub_iters;
			pmu_start(&pmu);
			t0 = ob_mono_ns();
			sum += b->s->run(b->tree, &r, b->sub_iters);
			ns = ob_mono_ns() - t0;
			b->measured_ns += ob_mono_ns() - p0;
			pmu_stop(&pmu, &reading);
			pmu_add(&b->pmu, &reading, j == 0);
			if (sub_ns)
				sub_ns[order[k] * subs + j] = ns;
			b->cursor = r.cursor;
		}
	}
	for (size_t k = 0; k < sw->n; k++) {
		struct lookup_bench *b = sw->v[k];

		b->elapsed_ns = cold ? cold_sample_ns(b->ticks, b->iters, &b->interrupted) * (double)b->iters :
				       quantile(sub_ns + k * subs, subs, SUB_SAMPLE_QUANTILE) * (double)subs;
	}
	free(sub_ns);
	free(order);
	sw->round = (long)smp->round;
	return sum;
}

static uint64_t sample_body(void *arg, uint64_t iters)
{
	struct lookup_sample *smp = arg;
	struct interleave *sw = smp->b->together;

	(void)iters;	/* smp->b->iters: run_interleaved() times them */
	/* The round's first sample of the mode measures them all. */
	return sw->round != (long)smp->round ? run_interleaved(sw, smp) : 0;
}

static double sample_elapsed(void *arg)
{
	return ((struct lookup_sample *)arg)->b->elapsed_ns;
}

static void sample_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct lookup_sample *smp = arg;
	struct lookup_bench *b = smp->b;

	(void)iters;
	ob_gb_counter(st, "round", smp->round, OB_GB_PLAIN);
	ob_gb_counter(st, "pass", smp->pass, OB_GB_PLAIN);
	ob_gb_counter(st, "layout_code_bytes", ob_layout_code_bytes(), OB_GB_PLAIN);
	ob_gb_counter(st, "layout_stack_bytes", ob_layout_stack_bytes, OB_GB_PLAIN);
	ob_gb_counter(st, "dentry_bytes", (double)b->mem.object_size, OB_GB_PLAIN);
	ob_gb_counter(st, "total_bytes", (double)b->mem.total, OB_GB_PLAIN);
	ob_gb_counter(st, "huge_page_share", b->mem.mapped ?
		      (double)b->mem.huge_pages / (double)b->mem.mapped : 0.0, OB_GB_PLAIN);
	ob_gb_counter(st, "dentries", (double)b->sc->wl.n_nodes, OB_GB_PLAIN);
	ob_gb_counter(st, "components_per_lookup", (double)b->sc->params.path_depth, OB_GB_PLAIN);
	ob_gb_counter(st, "ns_per_cycle", ob_cycle_ns(), OB_GB_PLAIN);
	ob_gb_counter(st, "host_level_ns", ob_host_level_ns(), OB_GB_PLAIN);
	ob_gb_counter(st, "measured_ns", b->measured_ns, OB_GB_PLAIN);
	ob_gb_counter(st, "nivcsw", (double)ob_involuntary_switches(), OB_GB_PLAIN);
	if (b->mode == OB_COLD) {
		ob_gb_counter(st, "timer_overhead_ns", ob_ts_overhead_ticks() * ob_ts_ns_per_tick(),
			      OB_GB_PLAIN);
		ob_gb_counter(st, "interrupted_share", b->interrupted, OB_GB_PLAIN);
	}
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		char name[64];

		if (!b->pmu.counted[e])
			continue;
		snprintf(name, sizeof(name), "%s/lookup", pmu_event_name(e));
		ob_gb_counter(st, name, b->pmu.value[e], OB_GB_PER_ITER);
	}
	ob_gb_label(st, b->s->name);
}

/* "lookup/<strategy>/mode:<mode>/<scenario args>". */
static void bench_name(char *buf, size_t len, const struct scenario *sc, const struct strategy *s,
		       enum ob_mode mode)
{
	snprintf(buf, len, "lookup/%s/mode:%s/%s", s->name, ob_mode_name(mode),
		 sc->group + strlen("lookup/"));
}

/* The timing modes of @sc: throughput and latency, or cold alone where it pollutes. */
static size_t scenario_modes(const struct scenario *sc, const enum ob_mode **modes)
{
	static const enum ob_mode warm_modes[] = { OB_THROUGHPUT, OB_LATENCY };
	static const enum ob_mode cold_modes[] = { OB_COLD };

	*modes = sc->pollute ? cold_modes : warm_modes;
	return sc->pollute ? ARRAY_SIZE(cold_modes) : ARRAY_SIZE(warm_modes);
}

/* @sc's benchmarks, mode by mode, every strategy that can run it; their number in *@n. */
static struct lookup_bench *scenario_benches(struct scenario *sc, size_t *n)
{
	const enum ob_mode *modes;
	size_t n_modes = scenario_modes(sc, &modes);
	struct lookup_bench *benches = xcalloc(n_modes * ob_strategy_count(), sizeof(*benches));
	const struct strategy *s;
	size_t i;

	*n = 0;
	for (size_t m = 0; m < n_modes; m++)
		for_each_strategy(s, i) {
			if (!s->custom_ops && sc->params.custom_share > 0)
				continue;
			benches[(*n)++] = (struct lookup_bench) { .sc = sc, .s = s, .mode = modes[m] };
		}
	return benches;
}

void lookup_list(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l)
{
	size_t n;
	struct lookup_bench *benches = scenario_benches(sc, &n);
	char name[256];

	(void)cfg;
	for (size_t k = 0; k < n; k++) {
		bench_name(name, sizeof(name), sc, benches[k].s, benches[k].mode);
		bench_add(l, name, NULL, NULL, NULL, NULL);
	}
	free(benches);
}

/*
 * The scenario and every tree of @benches built.  0, or -errno: then
 * nothing is left built, and every benchmark is listed in @l as skipped
 * with the reason (the group goes on).
 */
static int build_all(struct scenario *sc, struct lookup_bench *benches, size_t n, struct bench_list *l)
{
	struct ob_err err = { 0 };
	int ret = prepare_scenario(sc, &err);
	char name[256], *why;

	for (size_t k = 0; k < n && !ret; k++)
		ret = bench_build(&benches[k], &err);
	if (!ret)
		return 0;
	why = strdup(err.msg);
	fprintf(stderr, "opsbench-suite: %s: %s\n", sc->group, err.msg);
	for (size_t k = 0; k < n; k++) {
		if (benches[k].tree)
			benches[k].s->destroy(benches[k].tree);
		bench_name(name, sizeof(name), sc, benches[k].s, benches[k].mode);
		bench_push(l, &(struct ob_gb_bench) {
			.name = name, .prepare = refuse_prepare, .iterations = 1,
			.arg = why ? why : (char *)"cannot set up",
		});
	}
	free(sc->pollute_buf);
	sc->pollute_buf = NULL;
	return ret;
}

/* Lookups per sample and per sub-sample of every benchmark, sized on its mode's baseline. */
static void size_samples(const struct suite_cfg *cfg, struct scenario *sc,
			 struct lookup_bench *benches, size_t n)
{
	const enum ob_mode *modes;
	size_t n_modes = scenario_modes(sc, &modes);

	for (size_t m = 0; m < n_modes; m++) {
		struct lookup_bench *base = NULL;
		uint64_t iters, sub_iters;

		/* The baseline where it runs, else the first strategy. */
		for (size_t k = 0; k < n; k++)
			if (benches[k].mode == modes[m] && (!base || benches[k].s->baseline))
				base = &benches[k];
		sample_iters(cfg, base, &iters, &sub_iters);
		for (size_t k = 0; k < n; k++)
			if (benches[k].mode == modes[m]) {
				benches[k].iters = iters;
				benches[k].sub_iters = sub_iters;
				if (modes[m] == OB_COLD)
					benches[k].ticks = xcalloc(iters, sizeof(*benches[k].ticks));
			}
	}
}

/* The interleaves: each mode's benchmarks, measured together; @small: trees up to twice the L2. */
static void make_interleaves(struct scenario *sc, struct lookup_bench *benches, size_t n, bool small)
{
	const enum ob_mode *modes;
	size_t n_modes = scenario_modes(sc, &modes);

	for (size_t m = 0; m < n_modes; m++) {
		struct interleave *sw = xcalloc(1, sizeof(*sw));

		sw->v = xcalloc(n, sizeof(*sw->v));
		sw->round = -1;
		sw->warm_pass = modes[m] == OB_COLD && small;
		for (size_t k = 0; k < n; k++)
			if (benches[k].mode == modes[m]) {
				sw->v[sw->n++] = &benches[k];
				benches[k].together = sw;
			}
	}
}

/*
 * The rounds of this process's block (--pass), numbered as in the whole
 * run: every benchmark once per round, in an order shuffled anew each
 * round.  The trees are built once per process, so each of make bench's
 * blocks (a process each) measures its own placement of them in physical
 * memory.  The method: docs/method.md#rounds and #blocks.
 */
static void push_rounds(const struct suite_cfg *cfg, struct scenario *sc,
			struct lookup_bench *benches, size_t n, struct bench_list *l)
{
	uint32_t *order = xcalloc(n, sizeof(*order));
	unsigned int rounds = sc->pollute ? cfg->cold_rounds : cfg->rounds;
	unsigned int first = (unsigned int)((uint64_t)rounds * (cfg->pass - 1) / cfg->passes);
	unsigned int last = (unsigned int)((uint64_t)rounds * cfg->pass / cfg->passes);
	size_t len = sc->wl.n_lookups ? sc->wl.n_lookups : 1;
	char name[256];

	for (unsigned int round = first; round < last; round++) {
		struct ob_rng rng;

		ob_rng_seed(&rng, 0x726f756e64ull + round);
		for (size_t k = 0; k < n; k++)
			order[k] = (uint32_t)k;
		ob_rng_shuffle(&rng, order, n);
		for (size_t k = 0; k < n; k++) {
			struct lookup_bench *b = &benches[order[k]];
			struct lookup_sample *smp = xcalloc(1, sizeof(*smp));

			smp->b = b;
			smp->round = round;
			smp->pass = cfg->pass;
			/* Whole passes start at 0; anything else where the last round left off. */
			smp->start = (size_t)(((uint64_t)round * b->iters) % len);
			bench_name(name, sizeof(name), sc, b->s, b->mode);
			bench_push(l, &(struct ob_gb_bench) {
				.name = name, .body = sample_body,
				.report = sample_report,
				.elapsed_ns = sample_elapsed,
				.iterations = b->iters, .arg = smp,
			});
		}
	}
	free(order);
}

void lookup_schedule(const struct suite_cfg *cfg, struct scenario *sc, struct bench_list *l)
{
	size_t n;
	struct lookup_bench *benches = scenario_benches(sc, &n);
	bool small = sc->params.dentries * ob_sizing_bytes() <= 2 * cfg->caches.l2;

	if (build_all(sc, benches, n, l)) {
		free(benches);
		return;
	}
	pmu_open(&pmu, getenv("OPSBENCH_PMU_QUIET") ? NULL : stderr);
	ob_cycle_ns();
	ob_host_level_ns();
	ob_ts_ns_per_tick();
	ob_ts_overhead_ticks();
	size_samples(cfg, sc, benches, n);
	make_interleaves(sc, benches, n, small);
	push_rounds(cfg, sc, benches, n, l);
}

/* ---- the matrix ---- */

/* Fill @sc's name from its parameters: the group name says every one of them. */
static void scenario_name(struct scenario *sc, enum ob_size_class size)
{
	int n;

	sc->size_class = ob_size_class_name(size);
	n = snprintf(sc->group, sizeof(sc->group),
		     "lookup/size:%s/dentries:%zu/custom:%u/order:%s/pollute:%zu/depth:%u",
		     sc->size_class, sc->params.dentries, (unsigned int)(sc->params.custom_share * 100 + 0.5),
		     lookup_order_name(sc->params.order), sc->pollute, sc->params.path_depth);
	/* The bare lookup names no context (its names are those of earlier runs). */
	if (sc->context != OB_CTX_BARE && n > 0 && (size_t)n < sizeof(sc->group))
		snprintf(sc->group + n, sizeof(sc->group) - (size_t)n, "/context:%s/kernel:%s",
			 ob_context_name(sc->context), ob_context_kernel(sc->context));
}

/* @sc from the named scenario @one on the machine's caches. */
static void scenario_from(struct scenario *sc, const struct ob_scenario *one, const struct ob_caches *c)
{
	ob_scenario_params(one, c, &sc->params, &sc->pollute);
	sc->context = one->context;
	scenario_name(sc, one->size);
}

size_t lookup_scenarios(const struct suite_cfg *cfg, struct scenario **out)
{
	const struct profile_info *pr = &profiles[cfg->profile];
	size_t n = 0;
	struct scenario *v;

	if (cfg->scenario) {	/* --scenario NAME: that one */
		v = xcalloc(1, sizeof(*v));
		scenario_from(v, cfg->scenario, &cfg->caches);
		*out = v;
		return 1;
	}
	v = xcalloc(pr->sizes.n * pr->custom_pct.n * pr->orders.n * pr->depths.n * pr->cold.n +
		    pr->named.n, sizeof(*v));
	for (size_t a = 0; a < pr->sizes.n; a++)
	for (size_t d = 0; d < pr->depths.n; d++)
	for (size_t b = 0; b < pr->custom_pct.n; b++)
	for (size_t o = 0; o < pr->orders.n; o++)
	for (size_t p = 0; p < pr->cold.n; p++) {
		const struct ob_scenario one = {
			.size = pr->sizes.v[a], .custom_pct = pr->custom_pct.v[b], .order = pr->orders.v[o],
			.depth = pr->depths.v[d], .cold = pr->cold.v[p],
		};

		scenario_from(&v[n++], &one, &cfg->caches);
	}
	for (size_t k = 0; k < pr->named.n; k++) {
		const struct ob_scenario *one = ob_scenario_find(pr->named.v[k]);

		if (!one) {
			fprintf(stderr, "opsbench-suite: profile %s names no such scenario: %s\n",
				pr->name, pr->named.v[k]);
			exit(1);
		}
		scenario_from(&v[n++], one, &cfg->caches);
	}
	*out = v;
	return n;
}
