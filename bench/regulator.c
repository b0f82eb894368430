// SPDX-License-Identifier: MIT
/*
 * regulator.c - the second case study's benchmarks: regulator_set_voltage()
 * and regulator_enable() under every regulator strategy, on a driver
 * without the timing ops (plain: the optional op absent) and on the
 * ab8500-like driver (present), the latter with its settling delay waited
 * for (delay:spin, a calibrated spin of REG_BENCH_DELAY_US) and counted
 * only (delay:none).  One iteration is one call; set_voltage alternates
 * between two voltages so that every call programs a new selector.  The
 * report sets the differences between strategies against the path's time:
 * where the path waits microseconds, dispatch is in the noise.
 */
#include <stdio.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "opsbench/tsc.h"
#include "suite.h"

/* ab8500's fixed settling delay in the benchmarks, in us (its LDOs' are tens to hundreds). */
#define REG_BENCH_DELAY_US	50

struct reg_bench {
	const struct reg_strategy *s;
	const struct regulator_desc *desc;
	bool enable;		/* the enable path; else set_voltage */
	bool spin;		/* wait the delay; else count it */
	struct reg_file regs;
	struct reg_delay delay;
	struct reg_notifier nb;
	struct regulator_dev rdev;
	bool registered;
};

static int reg_prepare(void *arg, char *msg, size_t len)
{
	struct reg_bench *b = arg;
	struct ob_err err = { 0 };

	ob_ts_ns_per_tick();	/* the spin's calibration, before anything is timed */
	if (b->registered)
		return 0;
	reg_file_init(&b->regs);
	b->regs.val[REG_ENABLE] = 1;	/* on: ab8500 asks for its delay */
	b->delay = (struct reg_delay) { .mode = b->spin ? REG_DELAY_SPIN : REG_DELAY_COUNT };
	reg_notifier_init(&b->nb);
	if (regulator_register(b->s, &b->rdev, b->desc, &b->regs, &b->delay, &b->nb,
			       REG_BENCH_DELAY_US, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return -1;
	}
	b->registered = true;
	return 0;
}

static uint64_t reg_body(void *arg, uint64_t iters)
{
	struct reg_bench *b = arg;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < iters; i++) {
		int ret = b->enable ? b->s->enable(&b->rdev) :
			  b->s->set_voltage(&b->rdev, (i & 1) ? 2600000 : 1800000,
					    (i & 1) ? 2700000 : 1800000);

		sum += (uint64_t)ret + b->regs.val[REG_VSEL];
	}
	return sum;
}

static void reg_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct reg_bench *b = arg;

	ob_gb_items(st, iters);
	ob_gb_counter(st, "delay_us", b->spin && b->desc->timing_ops ? REG_BENCH_DELAY_US : 0,
		      OB_GB_PLAIN);
	ob_gb_label(st, b->s->name);
}

void regulator_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	static struct reg_bench benches[16 * 2 * 3];
	size_t n = 0;
	char name[160];

	(void)cfg;
	for (int path = 0; path < 2; path++)
		for (int d = 0; d < 3; d++) {	/* plain; ab8500 counted; ab8500 waited */
			const struct regulator_desc *desc = d ? &reg_driver_ab8500 : &reg_driver_plain;

			for (size_t k = 0; ob_reg_strategies[k] && n < ARRAY_SIZE(benches); k++) {
				struct reg_bench *b = &benches[n];

				if (desc->timing_ops && !ob_reg_strategies[k]->timing_ops)
					continue;
				if (!b->s)
					*b = (struct reg_bench) {
						.s = ob_reg_strategies[k], .desc = desc, .enable = path,
						.spin = d == 2,
					};
				n++;
				snprintf(name, sizeof(name), "regulator/%s/path:%s/driver:%s/delay:%s",
					 b->s->name, path ? "enable" : "set_voltage", desc->name,
					 d == 2 ? "spin" : "none");
				bench_add(l, name, reg_prepare, reg_body, reg_report, b);
			}
		}
}
