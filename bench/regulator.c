// SPDX-License-Identifier: MIT
/*
 * regulator.c - the second case study's benchmarks: regulator_set_voltage()
 * and regulator_enable() under every regulator strategy, for both core
 * generations (core:2011, core:6.x) and both bus costs (bus:mmio,
 * bus:i2c: every register access then waits its wire time), on the paths
 * in cases[] below.
 *
 * One iteration is one call.  set_voltage runs on a regulator that is on
 * and in use, alternating between two ranges so that every call, run
 * after run, programs a new selector.  enable starts every iteration from
 * off and unused: the loop clears the enable bit and use_count directly
 * (a store each, no bus access), as if a disable had happened, so that
 * each call takes the whole path; an enable of a regulator in use is
 * use_count++ alone (the tests check that skip).
 *
 * Waits follow the kernel's (src/regulator/device.c): the 2011 core's
 * mdelay/udelay spin, the 6.x core's usleep_range/msleep sleep.  So that
 * the sleeps count, every benchmark times itself on the monotonic clock
 * (Google Benchmark's manual time).  Only ab8500_tvout's enable asks a
 * delay, 10 ms: its benchmark exists twice, delay:wait (waited; Google
 * Benchmark then runs a few iterations per repetition, as min_time
 * allows) and delay:count (the same calls, the delay counted and not
 * waited: honest for comparing strategies, since the tests show that
 * every strategy asks the same delay, and it keeps the 10 ms out of the
 * ns-scale comparison).  Every other path asks none (delay:none).
 */
#include <stdio.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "opsbench/tsc.h"
#include "suite.h"

/* The paths measured: which call, on which driver; @delay: it asks a delay to wait or count. */
static const struct reg_case {
	bool enable;
	const struct regulator_desc *desc;
	bool delay;
} cases[] = {
	{ .enable = false, .desc = &reg_driver_plain },
	{ .enable = false, .desc = &reg_driver_ab8500 },	/* the seed: the set_voltage branch */
	{ .enable = false, .desc = &reg_driver_ab8500_sel },	/* the later conversion: time_sel runs */
	{ .enable = true, .desc = &reg_driver_plain },
	{ .enable = true, .desc = &reg_driver_ab8500_tvout, .delay = true },	/* the seed's 10 ms */
};

enum delay_name { DELAY_NONE, DELAY_COUNT, DELAY_WAIT };
static const char *const delay_names[] = { "none", "count", "wait" };

struct reg_bench {
	const struct reg_strategy *s;
	const struct reg_case *c;
	enum reg_core core;
	const struct reg_bus *bus;
	enum delay_name delay_name;
	struct reg_file regs;
	struct reg_delay delay;
	struct reg_notifier nb;
	struct regulator_dev rdev;
	bool registered;
	unsigned int phase;	/* which of the two ranges the next set_voltage asks for */
	/* the counters at the start of the last run, and its time */
	uint64_t reads0, writes0, bus_ns0, delay_us0;
	double elapsed_ns;
	long preempted;		/* involuntary context switches during the last run */
};

static int reg_prepare(void *arg, char *msg, size_t len)
{
	struct reg_bench *b = arg;
	struct ob_err err = { 0 };

	ob_ts_ns_per_tick();	/* the spin's calibration, before anything is timed */
	if (b->registered)
		return 0;
	reg_file_init(&b->regs);
	b->regs.bus = b->bus;
	b->regs.bus_wait = true;
	b->delay = (struct reg_delay) {
		.mode = b->delay_name == DELAY_COUNT ? REG_DELAY_COUNT : REG_DELAY_WAIT,
	};
	reg_notifier_init(&b->nb);
	if (regulator_register(b->s, &b->rdev, b->c->desc, &b->regs, &b->delay, &b->nb, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return -1;
	}
	if (!b->c->enable) {		/* on and in use */
		b->regs.val[REG_ENABLE] = 1;
		b->rdev.use_count = 1;
	}
	b->registered = true;
	return 0;
}

static uint64_t reg_body(void *arg, uint64_t iters)
{
	struct reg_bench *b = arg;
	struct regulator_dev *rdev = &b->rdev;
	int (*set_voltage)(struct regulator_dev *, int, int) = b->s->set_voltage[b->core];
	int (*enable)(struct regulator_dev *) = b->s->enable[b->core];
	uint64_t sum = 0;
	double t0;

	b->reads0 = b->regs.reads;
	b->writes0 = b->regs.writes;
	b->bus_ns0 = b->regs.bus_ns;
	b->delay_us0 = b->delay.requested_us;
	b->preempted = ob_involuntary_switches();
	t0 = ob_mono_ns();
	if (b->c->enable) {
		for (uint64_t i = 0; i < iters; i++) {
			WRITE_ONCE(b->regs.val[REG_ENABLE], 0);
			rdev->use_count = 0;
			sum += (uint64_t)enable(rdev) + rdev->use_count;
		}
	} else {
		for (uint64_t i = 0; i < iters; i++) {
			const bool hi = b->phase ^= 1;	/* kept across runs: the next always differs */
			int ret = set_voltage(rdev, hi ? 2600000 : 1800000, hi ? 2700000 : 1800000);

			sum += (uint64_t)ret + b->regs.val[REG_VSEL];
		}
	}
	b->elapsed_ns = ob_mono_ns() - t0;
	b->preempted = ob_involuntary_switches() - b->preempted;
	return sum;
}

static double reg_elapsed(void *arg)
{
	return ((struct reg_bench *)arg)->elapsed_ns;
}

/* Per call: register reads and writes, the bus time and the delay they asked for. */
static void reg_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct reg_bench *b = arg;
	double n = iters ? (double)iters : 1.0;

	ob_gb_items(st, iters);
	ob_gb_counter(st, "reads", (double)(b->regs.reads - b->reads0) / n, OB_GB_PLAIN);
	ob_gb_counter(st, "writes", (double)(b->regs.writes - b->writes0) / n, OB_GB_PLAIN);
	ob_gb_counter(st, "bus_us", (double)(b->regs.bus_ns - b->bus_ns0) / 1e3 / n, OB_GB_PLAIN);
	ob_gb_counter(st, "delay_us", (double)(b->delay.requested_us - b->delay_us0) / n, OB_GB_PLAIN);
	/* The host took the CPU during this sample: a waited path's time then says nothing. */
	ob_gb_counter(st, "preempted", (double)b->preempted, OB_GB_PLAIN);
	ob_gb_label(st, b->s->name);
}

void regulator_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	static struct reg_bench *benches;
	static size_t cap;
	size_t n = 0;
	char name[192];

	(void)cfg;
	if (!benches) {
		size_t strategies = 0;

		while (ob_reg_strategies[strategies])
			strategies++;
		cap = strategies * REG_CORE_COUNT * 2 * ARRAY_SIZE(cases) * 2;
		benches = xcalloc(cap, sizeof(*benches));
	}
	for (int core = 0; core < REG_CORE_COUNT; core++)
	for (size_t bus = 0; reg_buses[bus]; bus++)
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++)
	for (int d = cases[c].delay ? DELAY_COUNT : DELAY_NONE; d <= (cases[c].delay ? DELAY_WAIT : DELAY_NONE); d++)
	for (size_t k = 0; ob_reg_strategies[k] && n < cap; k++) {
		struct reg_bench *b = &benches[n];

		if (cases[c].desc->timing_ops && !ob_reg_strategies[k]->timing_ops)
			continue;
		if (!b->s)
			*b = (struct reg_bench) {
				.s = ob_reg_strategies[k], .c = &cases[c], .core = (enum reg_core)core,
				.bus = reg_buses[bus], .delay_name = (enum delay_name)d,
			};
		n++;
		snprintf(name, sizeof(name), "regulator/%s/core:%s/bus:%s/path:%s/driver:%s/delay:%s",
			 b->s->name, reg_core_names[core], b->bus->name,
			 cases[c].enable ? "enable" : "set_voltage", cases[c].desc->name, delay_names[d]);
		bench_push(l, &(struct ob_gb_bench) {
			.name = name, .prepare = reg_prepare, .body = reg_body, .report = reg_report,
			.elapsed_ns = reg_elapsed, .arg = b,
		});
	}
}
