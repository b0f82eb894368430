// SPDX-License-Identifier: MIT
/*
 * test_regulator.c - every regulator strategy does what the commits say,
 * as a plain reference written from their text (below, sharing nothing
 * with src/regulator/core.h but the register file): the same return code,
 * selector, register writes in order, delays asked for (mdelay/udelay
 * split), notifications and warnings, over both drivers, enabled and
 * disabled, delays around the 1000 us split, ranges in and out of the
 * table, and a read or write fault injected on each register.
 *
 * One difference is expected and checked as such: default_ops reads the
 * old selector on every set_voltage, so on the plain driver it makes one
 * register read more, and a failing selector read fails its set (the
 * reference, like the commit's core, never reads it there).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "opsbench/static_call.h"
#include "opsbench/tsc.h"

typedef int reg_time_sel_fn(struct regulator_dev *, unsigned int, unsigned int);
typedef int reg_dev_fn(struct regulator_dev *);
OB_DECLARE_STATIC_CALL(reg_set_voltage_time_sel, reg_time_sel_fn);
OB_DECLARE_STATIC_CALL(reg_get_voltage_sel, reg_dev_fn);
OB_DECLARE_STATIC_CALL(reg_enable_time, reg_dev_fn);

/* Everything a call leaves behind. */
struct outcome {
	int ret;
	uint32_t vsel, enable;
	size_t n_log;
	struct reg_write log[REG_LOG_MAX];
	uint64_t requested_us, udelay_calls, mdelay_calls;
	uint64_t notifications;
	unsigned long last_event;
	unsigned int warnings;
	uint64_t reads;
};

/* The device's starting state and the fault to inject. */
struct setup {
	const struct regulator_desc *desc;
	bool enabled;
	unsigned int delay_us;
	int fail_read, fail_write;
	int min_uV, max_uV;
};

static void capture(struct outcome *o, int ret, const struct reg_file *rf, const struct reg_delay *d,
		    const struct reg_notifier *nb, unsigned int warnings)
{
	memset(o, 0, sizeof(*o));
	o->ret = ret;
	o->vsel = rf->val[REG_VSEL];
	o->enable = rf->val[REG_ENABLE];
	o->n_log = rf->n_log;
	memcpy(o->log, rf->log, sizeof(o->log));
	o->requested_us = d->requested_us;
	o->udelay_calls = d->udelay_calls;
	o->mdelay_calls = d->mdelay_calls;
	o->notifications = nb->calls;
	o->last_event = nb->last_event;
	o->warnings = warnings;
	o->reads = rf->reads;
}

static void prepare(const struct setup *su, struct reg_file *rf, struct reg_delay *d, struct reg_notifier *nb)
{
	reg_file_init(rf);
	rf->val[REG_VSEL] = 3;
	rf->val[REG_ENABLE] = su->enabled;
	rf->fail_read = su->fail_read;
	rf->fail_write = su->fail_write;
	*d = (struct reg_delay) { .mode = REG_DELAY_COUNT };
	reg_notifier_init(nb);
}

/* ---- the reference, from the commits' text ---- */

static void ref_delay(struct reg_delay *d, int delay)
{
	if (delay >= 1000) {
		reg_mdelay(d, (unsigned long)delay / 1000);
		reg_udelay(d, (unsigned long)delay % 1000);
	} else if (delay) {
		reg_udelay(d, (unsigned long)delay);
	}
}

static void ref_set_voltage(const struct setup *su, struct outcome *o)
{
	struct reg_file rf;
	struct reg_delay d;
	struct reg_notifier nb;
	unsigned int warnings = 0;
	int sel = -1, delay = 0, ret;
	uint32_t v;

	prepare(su, &rf, &d, &nb);
	for (unsigned int i = 0; i < su->desc->n_voltages && sel < 0; i++)
		if (su->desc->volt_table[i] >= su->min_uV && su->desc->volt_table[i] <= su->max_uV)
			sel = (int)i;
	if (sel < 0) {
		capture(o, -EINVAL, &rf, &d, &nb, warnings);
		return;
	}
	if (su->desc->timing_ops) {
		/* get_voltage_sel, its error as is; then ab8500's time: is_enabled's error is a warning */
		ret = reg_read(&rf, REG_VSEL, &v);
		if (ret < 0) {
			capture(o, ret, &rf, &d, &nb, warnings);
			return;
		}
		ret = reg_read(&rf, REG_ENABLE, &v);
		if (ret < 0)
			warnings++;
		else
			delay = (v & 1) ? (int)su->delay_us : 0;
	}
	ret = reg_write(&rf, REG_VSEL, (uint32_t)sel);
	ref_delay(&d, delay);
	if (ret == 0) {
		nb.calls++;
		nb.last_event = REGULATOR_EVENT_VOLTAGE_CHANGE;
	}
	capture(o, ret, &rf, &d, &nb, warnings);
}

static void ref_enable(const struct setup *su, struct outcome *o)
{
	struct reg_file rf;
	struct reg_delay d;
	struct reg_notifier nb;
	int delay = su->desc->timing_ops ? (int)su->delay_us : 0, ret;
	uint32_t v;

	prepare(su, &rf, &d, &nb);
	ret = reg_read(&rf, REG_ENABLE, &v);
	if (ret == 0)
		ret = reg_write(&rf, REG_ENABLE, v | 1);
	if (ret == 0)
		ref_delay(&d, delay);
	capture(o, ret, &rf, &d, &nb, 0);
}

/* ---- the strategies ---- */

static int run(const struct reg_strategy *s, const struct setup *su, bool enable, struct outcome *o)
{
	struct reg_file rf;
	struct reg_delay d;
	struct reg_notifier nb;
	struct regulator_dev rdev;
	struct ob_err err = { 0 };
	int ret;

	prepare(su, &rf, &d, &nb);
	ret = regulator_register(s, &rdev, su->desc, &rf, &d, &nb, su->delay_us, &err);
	if (ret)
		return ret;
	ret = enable ? s->enable(&rdev) : s->set_voltage(&rdev, su->min_uV, su->max_uV);
	capture(o, ret, &rf, &d, &nb, rdev.warnings);
	regulator_unregister(&rdev);
	return 0;
}

static void assert_same(const struct outcome *want, const struct outcome *got, const char *what)
{
	if (want->ret != got->ret || want->vsel != got->vsel || want->enable != got->enable ||
	    want->n_log != got->n_log || memcmp(want->log, got->log, sizeof(want->log)) ||
	    want->requested_us != got->requested_us || want->udelay_calls != got->udelay_calls ||
	    want->mdelay_calls != got->mdelay_calls || want->notifications != got->notifications ||
	    want->last_event != got->last_event || want->warnings != got->warnings)
		fail_msg("%s: ret %d/%d, vsel %u/%u, writes %zu/%zu, delay %lu us (%lu udelay, %lu mdelay)"
			 " / %lu us (%lu, %lu), notified %lu/%lu, warnings %u/%u (reference/strategy)",
			 what, want->ret, got->ret, want->vsel, got->vsel, want->n_log, got->n_log,
			 (unsigned long)want->requested_us, (unsigned long)want->udelay_calls,
			 (unsigned long)want->mdelay_calls, (unsigned long)got->requested_us,
			 (unsigned long)got->udelay_calls, (unsigned long)got->mdelay_calls,
			 (unsigned long)want->notifications, (unsigned long)got->notifications,
			 want->warnings, got->warnings);
}

static void test_every_strategy_matches_the_reference(void **state)
{
	static const unsigned int delays[] = { 0, 1, 20, 999, 1000, 1001, 2500 };
	static const int faults[] = { -1, REG_VSEL, REG_ENABLE };
	static const int ranges[][2] = {
		{ 1800000, 1800000 },	/* selector 5 */
		{ 2600000, 2700000 },	/* 9: the first inside */
		{ 3300000, 3600000 },	/* 15, the last */
		{ 3400000, 3600000 },	/* none: -EINVAL */
	};
	const struct regulator_desc *descs[] = { &reg_driver_plain, &reg_driver_ab8500 };
	size_t checked = 0, expected_deviations = 0;

	(void)state;
	for (size_t a = 0; a < ARRAY_SIZE(descs); a++)
	for (int en = 0; en < 2; en++)
	for (size_t b = 0; b < ARRAY_SIZE(delays); b++)
	for (size_t fr = 0; fr < ARRAY_SIZE(faults); fr++)
	for (size_t fw = 0; fw < ARRAY_SIZE(faults); fw++)
	for (size_t r = 0; r <= ARRAY_SIZE(ranges); r++) {	/* the last: enable */
		const bool enable = r == ARRAY_SIZE(ranges);
		const struct setup su = {
			.desc = descs[a], .enabled = en, .delay_us = delays[b],
			.fail_read = faults[fr], .fail_write = faults[fw],
			.min_uV = enable ? 0 : ranges[r][0], .max_uV = enable ? 0 : ranges[r][1],
		};
		struct outcome want, got;

		if (enable)
			ref_enable(&su, &want);
		else
			ref_set_voltage(&su, &want);
		for (size_t k = 0; ob_reg_strategies[k]; k++) {
			const struct reg_strategy *s = ob_reg_strategies[k];
			char what[192];

			snprintf(what, sizeof(what), "%s, driver %s, %s, delay %u us, read fault %d, write fault %d, %s",
				 s->name, su.desc->name, en ? "on" : "off", su.delay_us, su.fail_read,
				 su.fail_write, enable ? "enable" : "set_voltage");
			if (run(s, &su, enable, &got)) {
				/* Only direct refuses, and only the driver with timing ops. */
				assert_false(s->timing_ops);
				assert_true(su.desc->timing_ops);
				continue;
			}
			checked++;
			if (!strcmp(s->name, "default_ops") && !su.desc->timing_ops && !enable &&
			    want.ret != -EINVAL) {
				/* It reads the old selector the plain driver's path never needs. */
				assert_int_equal(got.reads, want.reads + 1);
				if (su.fail_read == REG_VSEL) {
					assert_int_equal(got.ret, -EIO);
					assert_int_equal(got.n_log, 0);
					expected_deviations++;
					continue;
				}
			}
			assert_same(&want, &got, what);
		}
	}
	print_message("%zu calls checked against the reference; %zu expected default_ops failures\n",
		      checked, expected_deviations);
	assert_true(expected_deviations > 0);
}

/* The direct strategy refuses what it cannot run; nothing is attached. */
static void test_direct_refuses_the_timing_driver(void **state)
{
	const struct reg_strategy *s = ob_reg_strategy_find("direct");
	struct reg_file rf;
	struct reg_delay d = { .mode = REG_DELAY_COUNT };
	struct regulator_dev rdev;
	struct ob_err err = { 0 };

	(void)state;
	assert_non_null(s);
	reg_file_init(&rf);
	assert_int_equal(regulator_register(s, &rdev, &reg_driver_ab8500, &rf, &d, NULL, 10, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "timing ops"));
}

/* static_call: the trampolines point at ab8500's ops while one is registered, return 0 after. */
static void test_static_call_attaches_and_detaches(void **state)
{
	const struct reg_strategy *s = ob_reg_strategy_find("static_call");
	struct reg_file rf;
	struct reg_delay d = { .mode = REG_DELAY_COUNT };
	struct regulator_dev a, b;
	struct ob_err err = { 0 };

	(void)state;
	reg_file_init(&rf);
	assert_int_equal(regulator_register(s, &a, &reg_driver_ab8500, &rf, &d, NULL, 10, &err), 0);
	assert_int_equal(regulator_register(s, &b, &reg_driver_ab8500, &rf, &d, NULL, 10, &err), 0);
	assert_int_equal(OB_STATIC_CALL_KEY(reg_enable_time).users, 2);
	assert_non_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_enable_time)));
	regulator_unregister(&a);
	assert_non_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel)));
	regulator_unregister(&b);
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel)));
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_get_voltage_sel)));
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_enable_time)));
}

/* The spin waits at least what was asked, and not wildly more. */
static void test_spin_delay_waits(void **state)
{
	struct reg_delay d = { .mode = REG_DELAY_SPIN };
	double t0, us;

	(void)state;
	ob_ts_ns_per_tick();	/* the counter's calibration (once per process, ~20 ms) first */
	t0 = ob_mono_ns();
	reg_udelay(&d, 300);
	us = (ob_mono_ns() - t0) / 1e3;
	assert_true(us >= 300 * 0.99);
	assert_true(us < 300 + 50000);	/* a loaded machine may preempt, not more */
	assert_int_equal(d.requested_us, 300);
	t0 = ob_mono_ns();
	reg_mdelay(&d, 2);
	us = (ob_mono_ns() - t0) / 1e3;
	assert_true(us >= 2000 * 0.99);
	assert_int_equal(d.requested_us, 2300);
	assert_int_equal(d.mdelay_calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_strategy_matches_the_reference),
		cmocka_unit_test(test_direct_refuses_the_timing_driver),
		cmocka_unit_test(test_static_call_attaches_and_detaches),
		cmocka_unit_test(test_spin_delay_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
