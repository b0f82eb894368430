// SPDX-License-Identifier: MIT
/*
 * test_regulator.c - every regulator strategy does what the commits (2011)
 * and today's core (6.x) say, against a plain reference written from their
 * text (below, sharing nothing with src/regulator/ but the register file,
 * the delays and the notifier): the same return code, registers, trace of
 * register accesses, delays and notifications in order, list_voltage
 * calls, warnings and use_count, over every driver, on and off, in use or
 * not, delays around every threshold, ranges in and out of the table, and
 * a read or write fault injected on each register.
 *
 * default_ops is checked against the reference run on the driver's table
 * completed by the defaults (a set_voltage_time_sel and enable_time that
 * every driver then has): that is what it is.  A test of its own shows
 * what that costs the plain driver: the old selector read that the NULL
 * tests avoid.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
	struct reg_trace trace;
	uint64_t list_calls;
	unsigned int warnings, use_count;
};

/* The device's starting state, the fault to inject and the call. */
struct setup {
	const struct regulator_desc *desc;
	enum reg_core core;
	bool enabled;			/* the enable register's bit */
	unsigned int use_count;
	int fail_read, fail_write;
	bool enable;			/* the call: enable, else set_voltage */
	int min_uV, max_uV;
};

#define START_VSEL	3	/* 1.4 V */

struct bench_dev {
	struct reg_file rf;
	struct reg_delay d;
	struct reg_notifier nb;
	struct reg_trace trace;
};

static void prepare(const struct setup *su, struct bench_dev *b)
{
	memset(&b->trace, 0, sizeof(b->trace));
	reg_file_init(&b->rf);
	b->rf.val[REG_VSEL] = START_VSEL;
	b->rf.val[REG_ENABLE] = su->enabled;
	b->rf.fail_read = su->fail_read;
	b->rf.fail_write = su->fail_write;
	b->rf.trace = &b->trace;
	b->d = (struct reg_delay) { .mode = REG_DELAY_COUNT, .trace = &b->trace };
	reg_notifier_init(&b->nb);
	b->nb.trace = &b->trace;
}

static void capture(struct outcome *o, int ret, const struct bench_dev *b, uint64_t list_calls,
		    unsigned int warnings, unsigned int use_count)
{
	memset(o, 0, sizeof(*o));
	o->ret = ret;
	o->vsel = b->rf.val[REG_VSEL];
	o->enable = b->rf.val[REG_ENABLE];
	o->trace = b->trace;
	o->list_calls = list_calls;
	o->warnings = warnings;
	o->use_count = use_count;
}

/* ==================== the reference, from the commits' text ==================== */

/* What the reference knows of a driver: which ops it has, and how each touches the registers. */
struct ref {
	const struct regulator_desc *desc;
	bool completed;		/* default_ops: set_voltage_time_sel and enable_time always there */
	struct bench_dev *b;
	uint64_t list_calls;
	unsigned int warnings;
	unsigned int use_count;
};

enum ref_kind { PLAIN, AB_VAR, AB_FIXED, AB_SEL };

static enum ref_kind kind(const struct ref *r)
{
	const struct regulator_ops *o = r->desc->ops;

	if (o == reg_driver_plain.ops)
		return PLAIN;
	if (o == reg_driver_ab8500.ops)
		return AB_VAR;
	if (o == reg_driver_ab8500_tvout.ops)
		return AB_FIXED;
	return AB_SEL;
}

static bool has_time_sel(const struct ref *r) { return r->completed || kind(r) != PLAIN; }
static bool has_enable_time(const struct ref *r) { return r->completed || kind(r) != PLAIN; }
static bool has_get_sel(const struct ref *r) { return kind(r) == PLAIN || kind(r) == AB_SEL; }
static bool has_set_sel(const struct ref *r) { return kind(r) == PLAIN || kind(r) == AB_SEL; }
static bool has_set_voltage(const struct ref *r) { return kind(r) == AB_VAR; }

static int ref_list(struct ref *r, unsigned int sel)
{
	r->list_calls++;
	if (r->desc->fixed_uV)
		return r->desc->fixed_uV;
	return sel < r->desc->n_voltages ? r->desc->volt_table[sel] : -EINVAL;
}

static int ref_read(struct ref *r, unsigned int reg, uint32_t *v)
{
	return reg_read(&r->b->rf, reg, v);
}

/* ab8500's mask-and-set: a read, then a write. */
static int ref_rmw(struct ref *r, unsigned int reg, uint32_t mask, uint32_t bits)
{
	uint32_t v;
	int ret = ref_read(r, reg, &v);

	return ret < 0 ? ret : reg_write(&r->b->rf, reg, (v & ~mask) | (bits & mask));
}

static int ref_get_sel(struct ref *r)
{
	uint32_t v;
	int ret = ref_read(r, REG_VSEL, &v);

	return ret < 0 ? ret : (int)(v & 0xf);
}

static int ref_set_sel(struct ref *r, unsigned int sel)
{
	if (kind(r) == PLAIN)
		return reg_write(&r->b->rf, REG_VSEL, sel);
	return ref_rmw(r, REG_VSEL, 0xf, sel);
}

static int ref_is_enabled(struct ref *r)
{
	uint32_t v;
	int ret = ref_read(r, REG_ENABLE, &v);

	return ret < 0 ? ret : (int)(v & 1);
}

static int ref_enable_op(struct ref *r)
{
	return ref_rmw(r, REG_ENABLE, 1, 1);
}

static int ref_ramp(const struct regulator_desc *d, int old_uV, int new_uV)
{
	long long diff = llabs((long long)new_uV - old_uV);

	return d->ramp_delay ? (int)((diff + d->ramp_delay - 1) / d->ramp_delay) : 0;
}

/* ab8500's (42ab616afe88): info->delay when on, 0 off, is_enabled's error as is; or the default. */
static int ref_time_sel(struct ref *r, unsigned int old_sel, unsigned int new_sel)
{
	if (kind(r) == PLAIN) {
		if (!r->desc->ramp_delay)
			return 0;
		return ref_ramp(r->desc, ref_list(r, old_sel), ref_list(r, new_sel));
	}
	int on = ref_is_enabled(r);

	return on < 0 ? on : on ? (int)r->desc->delay_us : 0;
}

static int ref_enable_time(struct ref *r)
{
	return kind(r) == PLAIN ? (int)r->desc->enable_time : (int)r->desc->delay_us;
}

/* ab8500's own mapping: the first entry in range, then mask-and-set. */
static int ref_set_voltage(struct ref *r, int min_uV, int max_uV, unsigned int *sel)
{
	for (unsigned int i = 0; i < r->desc->n_voltages; i++)
		if (r->desc->volt_table[i] >= min_uV && r->desc->volt_table[i] <= max_uV) {
			*sel = i;
			return ref_rmw(r, REG_VSEL, 0xf, i);
		}
	return -EINVAL;
}

static void ref_notify(struct ref *r, unsigned long event)
{
	r->b->nb.call(&r->b->nb, event, NULL);
}

static int ref_checked(struct ref *r, int delay)
{
	if (delay < 0) {
		r->warnings++;
		return 0;
	}
	return delay;
}

/* 2011's "Insert any necessary delays". */
static void ref_delay_2011(struct ref *r, int delay)
{
	if (delay >= 1000) {
		reg_mdelay(&r->b->d, (unsigned long)delay / 1000);
		reg_udelay(&r->b->d, (unsigned long)delay % 1000);
	} else if (delay > 0) {
		reg_udelay(&r->b->d, (unsigned long)delay);
	}
}

/* 6.x's _regulator_delay_helper(). */
static void ref_delay_6x(struct ref *r, int delay)
{
	unsigned int us = (unsigned int)delay;

	if (us >= 20000) {
		reg_msleep(&r->b->d, us / 1000);
		us %= 1000;
	}
	if (us >= 10)
		reg_usleep_range(&r->b->d, us, us + 100);
	else
		reg_udelay(&r->b->d, us);
}

/* 77af1b2641fa's regulator_set_voltage() -> _regulator_do_set_voltage(). */
static int ref_set_voltage_2011(struct ref *r, int min_uV, int max_uV)
{
	int ret, delay = 0, best = INT_MAX;
	unsigned int sel = 0;

	if (!has_set_voltage(r) && !has_set_sel(r))
		return -EINVAL;
	if (has_set_voltage(r)) {
		ret = ref_set_voltage(r, min_uV, max_uV, &sel);
		ref_list(r, sel);				/* the trace point's voltage */
	} else {
		for (unsigned int i = 0; i < r->desc->n_voltages; i++) {	/* all of them */
			int uV = ref_list(r, i);

			if (uV >= min_uV && uV <= max_uV && uV < best) {
				best = uV;
				sel = i;
			}
		}
		if (has_time_sel(r) && has_get_sel(r)) {
			int old = ref_get_sel(r);

			if (old < 0)
				return old;
			delay = ref_time_sel(r, (unsigned int)old, sel);	/* sel is 0 if nothing matched */
		}
		ret = best == INT_MAX ? -EINVAL : ref_set_sel(r, sel);
	}
	ref_delay_2011(r, ref_checked(r, delay));
	if (!ret)
		ref_notify(r, REGULATOR_EVENT_VOLTAGE_CHANGE);
	return ret;
}

/* Linux 3.1's _regulator_enable(), the core 77af1b2641fa went into. */
static int ref_enable_2011(struct ref *r)
{
	if (r->use_count == 0) {
		int on = ref_is_enabled(r);

		if (on < 0 && on != -EINVAL)
			return on;
		if (on <= 0) {
			int delay = ref_checked(r, has_enable_time(r) ? ref_enable_time(r) : 0);
			int ret = ref_enable_op(r);

			if (ret < 0)
				return ret;
			ref_delay_2011(r, delay);
		}
	}
	r->use_count++;
	return 0;
}

/* regulator_get_voltage_rdev(). */
static int ref_get_voltage(struct ref *r)
{
	if (has_get_sel(r)) {
		int sel = ref_get_sel(r);

		return sel < 0 ? sel : ref_list(r, (unsigned int)sel);
	}
	if (kind(r) == AB_VAR) {
		uint32_t v;
		int ret = ref_read(r, REG_VSEL, &v);

		return ret < 0 ? ret : r->desc->volt_table[v & 0xf];
	}
	return r->desc->fixed_uV;
}

/* The set wrapped in PRE_VOLTAGE_CHANGE (after reading the voltage again) and ABORT. */
static int ref_wrapped_set(struct ref *r, int min_uV, int max_uV, unsigned int *sel, bool by_sel)
{
	int ret;

	ref_get_voltage(r);
	ref_notify(r, REGULATOR_EVENT_PRE_VOLTAGE_CHANGE);
	ret = by_sel ? ref_set_sel(r, *sel) : ref_set_voltage(r, min_uV, max_uV, sel);
	if (ret < 0)
		ref_notify(r, REGULATOR_EVENT_ABORT_VOLTAGE_CHANGE);
	return ret;
}

/* Today's regulator_set_voltage_unlocked()'s check and _regulator_do_set_voltage(). */
static int ref_set_voltage_6x(struct ref *r, int min_uV, int max_uV)
{
	int ret, delay = 0, best_val = 0, old_sel = -1, old_uV;
	unsigned int sel = 0;

	if (!has_set_voltage(r) && !has_set_sel(r))
		return -EINVAL;
	old_uV = ref_get_voltage(r);
	if (ref_is_enabled(r) != 0 && has_time_sel(r) && has_get_sel(r)) {
		old_sel = ref_get_sel(r);
		if (old_sel < 0)
			return old_sel;
	}
	if (has_set_voltage(r)) {
		ret = ref_wrapped_set(r, min_uV, max_uV, &sel, false);
		if (ret >= 0)
			best_val = ref_list(r, sel);
	} else {
		int best = INT_MAX, found = -1;

		for (unsigned int i = 0; i < r->desc->n_voltages; i++) {
			int uV = ref_list(r, i);

			if (uV >= min_uV && uV <= max_uV && uV < best) {
				best = uV;
				found = (int)i;
			}
		}
		ret = found < 0 ? -EINVAL : 0;
		if (!ret) {
			best_val = ref_list(r, (unsigned int)found);
			sel = (unsigned int)found;
			if (old_sel != found)
				ret = ref_wrapped_set(r, 0, 0, &sel, true);
		}
	}
	if (ret)
		return ret;
	if (has_time_sel(r)) {
		if (old_sel >= 0 && (unsigned int)old_sel != sel)
			delay = ref_time_sel(r, (unsigned int)old_sel, sel);
	} else if (old_uV != best_val) {
		delay = ref_ramp(r->desc, old_uV, best_val);
	}
	ref_delay_6x(r, ref_checked(r, delay));
	if (best_val >= 0)
		ref_notify(r, REGULATOR_EVENT_VOLTAGE_CHANGE);
	return 0;
}

/* Today's _regulator_enable() and _regulator_do_enable(). */
static int ref_enable_6x(struct ref *r)
{
	if (r->use_count == 0) {
		int on = ref_is_enabled(r);

		if (on < 0 && on != -EINVAL)
			return on;
		if (on <= 0) {
			int delay = ref_checked(r, has_enable_time(r) ? ref_enable_time(r)
								       : (int)r->desc->enable_time);
			int ret = ref_enable_op(r);

			if (ret < 0)
				return ret;
			ref_delay_6x(r, delay);
			ref_notify(r, REGULATOR_EVENT_ENABLE);
		}
	}
	r->use_count++;
	return 0;
}

static void reference(const struct setup *su, bool completed, struct outcome *o)
{
	struct bench_dev b;
	struct ref r = { .desc = su->desc, .completed = completed, .b = &b, .use_count = su->use_count };
	int ret;

	prepare(su, &b);
	if (su->core == REG_CORE_2011)
		ret = su->enable ? ref_enable_2011(&r) : ref_set_voltage_2011(&r, su->min_uV, su->max_uV);
	else
		ret = su->enable ? ref_enable_6x(&r) : ref_set_voltage_6x(&r, su->min_uV, su->max_uV);
	capture(o, ret, &b, r.list_calls, r.warnings, r.use_count);
}

/* ==================== the strategies ==================== */

static int run(const struct reg_strategy *s, const struct setup *su, struct outcome *o)
{
	struct bench_dev b;
	struct regulator_dev rdev;
	struct ob_err err = { 0 };
	int ret;

	prepare(su, &b);
	ret = regulator_register(s, &rdev, su->desc, &b.rf, &b.d, &b.nb, &err);
	if (ret)
		return ret;
	rdev.use_count = su->use_count;
	ret = su->enable ? s->enable[su->core](&rdev) : s->set_voltage[su->core](&rdev, su->min_uV, su->max_uV);
	capture(o, ret, &b, rdev.list_voltage_calls, rdev.warnings, rdev.use_count);
	regulator_unregister(&rdev);
	return 0;
}

static const char *const ev_names[] = { "read", "write", "udelay", "mdelay", "usleep", "msleep", "notify" };

static void print_trace(const char *who, const struct reg_trace *t)
{
	print_message("  %s:", who);
	for (size_t i = 0; i < t->n && i < REG_TRACE_MAX; i++)
		print_message(" %s(%lu%s)", ev_names[t->ev[i].kind], t->ev[i].arg, t->ev[i].err ? ",err" : "");
	print_message("\n");
}

static bool same(const struct outcome *a, const struct outcome *b)
{
	return a->ret == b->ret && a->vsel == b->vsel && a->enable == b->enable &&
	       a->trace.n == b->trace.n && !memcmp(a->trace.ev, b->trace.ev, sizeof(a->trace.ev)) &&
	       a->list_calls == b->list_calls && a->warnings == b->warnings && a->use_count == b->use_count;
}

static void assert_same(const struct outcome *want, const struct outcome *got, const char *what)
{
	if (same(want, got))
		return;
	print_trace("reference", &want->trace);
	print_trace("strategy ", &got->trace);
	fail_msg("%s: ret %d/%d, vsel %u/%u, enable %u/%u, list_voltage %lu/%lu, warnings %u/%u, "
		 "use_count %u/%u (reference/strategy)", what, want->ret, got->ret, want->vsel, got->vsel,
		 want->enable, got->enable, (unsigned long)want->list_calls, (unsigned long)got->list_calls,
		 want->warnings, got->warnings, want->use_count, got->use_count);
}

/* A driver with other timings: a copy of @d (its ops, so its static-call targets, unchanged). */
static struct regulator_desc *variant(const struct regulator_desc *d, unsigned int delay_us,
				      unsigned int ramp_delay, unsigned int enable_time)
{
	struct regulator_desc *v = malloc(sizeof(*v));

	assert_non_null(v);
	*v = *d;
	v->delay_us = delay_us;
	v->ramp_delay = ramp_delay;
	v->enable_time = enable_time;
	return v;
}

static void test_every_strategy_matches_the_reference(void **state)
{
	static const unsigned int delays[] = { 0, 1, 9, 10, 999, 1000, 1001, 2500, 19999, 20000, 20010 };
	static const int faults[] = { -1, REG_VSEL, REG_ENABLE };
	static const int ranges[][2] = {
		{ 1800000, 1800000 },	/* selector 5 */
		{ 2600000, 2700000 },	/* 9 and 10 inside: the lowest, 9 */
		{ 1400000, 1400000 },	/* 3, the selector already set */
		{ 3300000, 3600000 },	/* 15, the last */
		{ 3400000, 3600000 },	/* none: -EINVAL */
	};
	const struct regulator_desc *descs[64];
	size_t nd = 0, checked = 0;

	(void)state;
	descs[nd++] = &reg_driver_plain;
	descs[nd++] = &reg_driver_ab8500;
	for (size_t i = 0; i < ARRAY_SIZE(delays); i++) {
		descs[nd++] = variant(&reg_driver_ab8500_tvout, delays[i], 0, 0);
		descs[nd++] = variant(&reg_driver_ab8500_sel, delays[i], 0, 0);
	}
	const size_t n2011 = nd;	/* 6.x only: the timings the 2011 core did not have */
	descs[nd++] = variant(&reg_driver_plain, 0, 12500, 150);
	descs[nd++] = variant(&reg_driver_plain, 0, 1000, 25000);
	descs[nd++] = variant(&reg_driver_ab8500, 0, 12500, 150);

	for (int core = 0; core < REG_CORE_COUNT; core++)
	for (size_t a = 0; a < (core == REG_CORE_2011 ? n2011 : nd); a++)
	for (int en = 0; en < 2; en++)
	for (size_t fr = 0; fr < ARRAY_SIZE(faults); fr++)
	for (size_t fw = 0; fw < ARRAY_SIZE(faults); fw++)
	for (size_t r = 0; r < ARRAY_SIZE(ranges) + 2; r++) {	/* the last two: enable, unused and in use */
		const bool enable = r >= ARRAY_SIZE(ranges);
		const struct setup su = {
			.desc = descs[a], .core = (enum reg_core)core, .enabled = en,
			.use_count = enable ? (unsigned int)(r - ARRAY_SIZE(ranges)) : 1,
			.fail_read = faults[fr], .fail_write = faults[fw], .enable = enable,
			.min_uV = enable ? 0 : ranges[r][0], .max_uV = enable ? 0 : ranges[r][1],
		};
		struct outcome want, want_full, got;

		reference(&su, false, &want);
		reference(&su, true, &want_full);
		for (size_t k = 0; ob_reg_strategies[k]; k++) {
			const struct reg_strategy *s = ob_reg_strategies[k];
			char what[256];

			snprintf(what, sizeof(what), "%s, core %s, driver %s (delay %u, ramp %u), %s, use_count %u, "
				 "read fault %d, write fault %d, %s [%d, %d]",
				 s->name, reg_core_names[core], su.desc->name, su.desc->delay_us, su.desc->ramp_delay,
				 en ? "on" : "off", su.use_count, su.fail_read, su.fail_write,
				 enable ? "enable" : "set_voltage", su.min_uV, su.max_uV);
			if (run(s, &su, &got)) {
				/* Only direct refuses, and only the drivers with timing ops. */
				assert_false(s->timing_ops);
				assert_true(su.desc->timing_ops);
				continue;
			}
			checked++;
			assert_same(strcmp(s->name, "default_ops") ? &want : &want_full, &got, what);
		}
	}
	print_message("%zu calls checked against the reference\n", checked);
	for (size_t i = 2; i < nd; i++)
		free((void *)descs[i]);
}

/* Run @s on @su and return what happened (registration must succeed). */
static struct outcome outcome_of(const char *strategy, const struct setup *su)
{
	struct outcome o;

	assert_int_equal(run(ob_reg_strategy_find(strategy), su, &o), 0);
	return o;
}

/* 2011's set_voltage_sel branch lists every voltage, matched or not, under every strategy. */
static void test_2011_lists_every_voltage_once_per_set(void **state)
{
	static const int ranges[][2] = { { 1100000, 1100000 }, { 1800000, 3300000 }, { 3400000, 3600000 } };
	const struct regulator_desc *descs[] = { &reg_driver_plain, &reg_driver_ab8500_sel };

	(void)state;
	for (size_t a = 0; a < ARRAY_SIZE(descs); a++)
	for (size_t r = 0; r < ARRAY_SIZE(ranges); r++)
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		const struct setup su = { .desc = descs[a], .core = REG_CORE_2011, .enabled = true,
					  .use_count = 1, .fail_read = -1, .fail_write = -1,
					  .min_uV = ranges[r][0], .max_uV = ranges[r][1] };
		struct outcome o;

		if (run(ob_reg_strategies[k], &su, &o))
			continue;
		assert_int_equal(o.list_calls, descs[a]->n_voltages);
	}
}

/* The lowest voltage in range, wherever it is in the table: not the first match. */
static void test_2011_keeps_the_lowest_voltage_in_range(void **state)
{
	static const int unordered[] = { 3000000, 2500000, 1800000, 2700000 };
	struct regulator_desc d = reg_driver_plain;
	const struct setup su = { .desc = &d, .core = REG_CORE_2011, .enabled = true, .use_count = 1,
				  .fail_read = -1, .fail_write = -1, .min_uV = 1500000, .max_uV = 3100000 };

	(void)state;
	d.volt_table = unordered;
	d.n_voltages = ARRAY_SIZE(unordered);
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		struct outcome o;

		assert_int_equal(run(ob_reg_strategies[k], &su, &o), 0);
		assert_int_equal(o.ret, 0);
		assert_int_equal(o.vsel, 2);
		assert_int_equal(o.list_calls, ARRAY_SIZE(unordered));
	}
}

/* What set_voltage_time_sel was asked, by a driver whose op records it. */
static unsigned int asked, asked_old, asked_new;

static int recording_time_sel(struct regulator_dev *rdev, unsigned int old_sel, unsigned int new_sel)
{
	(void)rdev;
	asked++;
	asked_old = old_sel;
	asked_new = new_sel;
	return 700;
}

/* Nothing in range: the old selector is still read, the time for selector 0 asked and waited, then -EINVAL. */
static void test_2011_no_match_still_waits_then_fails(void **state)
{
	struct regulator_ops ops = *reg_driver_ab8500_sel.ops;
	struct regulator_desc d = reg_driver_ab8500_sel;
	const struct setup su = { .desc = &d, .core = REG_CORE_2011, .enabled = true, .use_count = 1,
				  .fail_read = -1, .fail_write = -1, .min_uV = 3400000, .max_uV = 3600000 };

	(void)state;
	ops.set_voltage_time_sel = recording_time_sel;
	d.ops = &ops;
	d.ops_full = &ops;
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		struct outcome o;

		asked = 0;
		if (run(ob_reg_strategies[k], &su, &o))
			continue;
		assert_int_equal(o.ret, -EINVAL);
		assert_int_equal(asked, 1);
		assert_int_equal(asked_old, START_VSEL);
		assert_int_equal(asked_new, 0);
		/* 16 list_voltage calls, then: the old selector read, udelay(700), nothing written or notified */
		assert_int_equal(o.trace.n, 2);
		assert_int_equal(o.trace.ev[0].kind, REG_EV_READ);
		assert_int_equal(o.trace.ev[0].arg, REG_VSEL);
		assert_int_equal(o.trace.ev[1].kind, REG_EV_UDELAY);
		assert_int_equal(o.trace.ev[1].arg, 700);
		assert_int_equal(o.vsel, START_VSEL);
	}
}

/* With both commits, ab8500's variable regulators (set_voltage ops) never reach set_voltage_time_sel. */
static void test_seed_ab8500_never_reaches_set_voltage_time_sel(void **state)
{
	struct regulator_ops ops = *reg_driver_ab8500.ops;
	struct regulator_desc d = reg_driver_ab8500;

	(void)state;
	ops.set_voltage_time_sel = recording_time_sel;
	d.ops = &ops;
	d.ops_full = &ops;
	asked = 0;
	for (int core = 0; core < REG_CORE_COUNT; core++)
	for (int en = 0; en < 2; en++)
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		const struct setup su = { .desc = &d, .core = (enum reg_core)core, .enabled = en, .use_count = 1,
					  .fail_read = -1, .fail_write = -1, .min_uV = 1800000, .max_uV = 1800000 };
		struct outcome o;

		if (run(ob_reg_strategies[k], &su, &o))
			continue;
		assert_int_equal(o.ret, 0);
		assert_int_equal(o.vsel, 5);
		assert_int_equal(o.trace.ev[o.trace.n - 1].arg, REGULATOR_EVENT_VOLTAGE_CHANGE);
	}
	assert_int_equal(asked, 0);
}

/* An enable of a regulator in use touches nothing; one found on is only read and counted. */
static void test_enable_skips_an_enabled_regulator(void **state)
{
	(void)state;
	for (int core = 0; core < REG_CORE_COUNT; core++)
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		const struct reg_strategy *s = ob_reg_strategies[k];
		struct setup su = { .desc = &reg_driver_ab8500_tvout, .core = (enum reg_core)core,
				    .enabled = true, .use_count = 1, .fail_read = -1, .fail_write = -1,
				    .enable = true };
		struct outcome o;

		if (!s->timing_ops)
			su.desc = &reg_driver_plain;
		assert_int_equal(run(s, &su, &o), 0);
		assert_int_equal(o.ret, 0);
		assert_int_equal(o.use_count, 2);
		assert_int_equal(o.trace.n, 0);
		su.use_count = 0;
		assert_int_equal(run(s, &su, &o), 0);
		assert_int_equal(o.use_count, 1);
		assert_int_equal(o.trace.n, 1);		/* is_enabled's read, no enable_time wait */
		assert_int_equal(o.trace.ev[0].kind, REG_EV_READ);
		assert_int_equal(o.trace.ev[0].arg, REG_ENABLE);
	}
}

/* The seed's fixed LDO: 10 ms on enable, mdelay(10) + udelay(0) in 2011, usleep_range(10000) in 6.x. */
static void test_the_fixed_ldo_waits_10_ms_on_enable(void **state)
{
	struct setup su = { .desc = &reg_driver_ab8500_tvout, .core = REG_CORE_2011, .fail_read = -1,
			    .fail_write = -1, .enable = true };
	struct outcome o;

	(void)state;
	o = outcome_of("null_tested", &su);
	assert_int_equal(o.ret, 0);
	assert_int_equal(o.trace.n, 5);	/* is_enabled, mask-and-set (read, write), mdelay, udelay */
	assert_int_equal(o.trace.ev[3].kind, REG_EV_MDELAY);
	assert_int_equal(o.trace.ev[3].arg, 10);
	assert_int_equal(o.trace.ev[4].kind, REG_EV_UDELAY);
	assert_int_equal(o.trace.ev[4].arg, 0);
	su.core = REG_CORE_6X;
	o = outcome_of("null_tested", &su);
	assert_int_equal(o.trace.n, 5);	/* ..., usleep_range, REGULATOR_EVENT_ENABLE */
	assert_int_equal(o.trace.ev[3].kind, REG_EV_USLEEP);
	assert_int_equal(o.trace.ev[3].arg, 10000);
	assert_int_equal(o.trace.ev[4].arg, REGULATOR_EVENT_ENABLE);
}

static void expect(const struct reg_trace *t, size_t i, enum reg_event_kind kind, unsigned long arg)
{
	assert_true(i < t->n);
	if (t->ev[i].kind != kind || t->ev[i].arg != arg) {
		print_trace("got", t);
		fail_msg("event %zu: %s(%lu), expected %s(%lu)", i, ev_names[t->ev[i].kind], t->ev[i].arg,
			 ev_names[kind], arg);
	}
}

/* 6.x: the old voltage first, is_enabled, the old selector, the set, the time, the wait, the notification. */
static void test_6x_reads_the_old_voltage_first_and_asks_time_sel_last(void **state)
{
	struct regulator_desc *d = variant(&reg_driver_ab8500_sel, 30, 0, 0);
	struct setup su = { .desc = d, .core = REG_CORE_6X, .enabled = true, .use_count = 1,
			    .fail_read = -1, .fail_write = -1, .min_uV = 1800000, .max_uV = 1800000 };
	struct outcome o;

	(void)state;
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		if (!ob_reg_strategies[k]->timing_ops)
			continue;
		o = outcome_of(ob_reg_strategies[k]->name, &su);
		assert_int_equal(o.ret, 0);
		expect(&o.trace, 0, REG_EV_READ, REG_VSEL);		/* old_uV */
		expect(&o.trace, 1, REG_EV_READ, REG_ENABLE);		/* _regulator_is_enabled */
		expect(&o.trace, 2, REG_EV_READ, REG_VSEL);		/* old selector */
		expect(&o.trace, 3, REG_EV_READ, REG_VSEL);		/* the voltage for PRE_VOLTAGE_CHANGE */
		expect(&o.trace, 4, REG_EV_NOTIFY, REGULATOR_EVENT_PRE_VOLTAGE_CHANGE);
		expect(&o.trace, 5, REG_EV_READ, REG_VSEL);		/* mask-and-set */
		expect(&o.trace, 6, REG_EV_WRITE, REG_VSEL);
		expect(&o.trace, 7, REG_EV_READ, REG_ENABLE);		/* set_voltage_time_sel's is_enabled */
		expect(&o.trace, 8, REG_EV_USLEEP, 30);
		expect(&o.trace, 9, REG_EV_NOTIFY, REGULATOR_EVENT_VOLTAGE_CHANGE);
		assert_int_equal(o.trace.n, 10);
	}
	/* Off: no old selector, no time asked, no fallback (the op is there): udelay(0). */
	su.enabled = false;
	o = outcome_of("null_tested", &su);
	expect(&o.trace, 2, REG_EV_READ, REG_VSEL);		/* straight to the PRE_VOLTAGE_CHANGE read */
	expect(&o.trace, 3, REG_EV_NOTIFY, REGULATOR_EVENT_PRE_VOLTAGE_CHANGE);
	expect(&o.trace, 6, REG_EV_UDELAY, 0);
	/* On, the selector already set: not written, no time asked. */
	su.enabled = true;
	su.min_uV = su.max_uV = 1400000;
	o = outcome_of("null_tested", &su);
	assert_int_equal(o.trace.n, 5);	/* old_uV, is_enabled, old selector, udelay(0), notify */
	expect(&o.trace, 3, REG_EV_UDELAY, 0);
	free(d);
}

/* 6.x without set_voltage_time_sel: the ramp-delay default, on or off. */
static void test_6x_falls_back_to_the_ramp_delay(void **state)
{
	struct regulator_desc *d = variant(&reg_driver_plain, 0, 12500, 0);
	struct setup su = { .desc = d, .core = REG_CORE_6X, .enabled = false, .use_count = 1,
			    .fail_read = -1, .fail_write = -1, .min_uV = 2600000, .max_uV = 2700000 };
	struct outcome o;

	(void)state;
	o = outcome_of("null_tested", &su);	/* 1.4 V to 2.65 V at 12.5 mV/us: 100 us */
	assert_int_equal(o.ret, 0);
	expect(&o.trace, o.trace.n - 2, REG_EV_USLEEP, 100);
	o = outcome_of("direct", &su);
	expect(&o.trace, o.trace.n - 2, REG_EV_USLEEP, 100);
	d->ramp_delay = 0;
	o = outcome_of("null_tested", &su);
	expect(&o.trace, o.trace.n - 2, REG_EV_UDELAY, 0);
	free(d);
}

/* _regulator_delay_helper's lines: udelay below 10 us, usleep_range from 10 us, msleep from 20 ms. */
static void test_6x_delay_helper_thresholds(void **state)
{
	static const struct { unsigned int us; enum reg_event_kind k1; unsigned long a1; int k2; unsigned long a2; } t[] = {
		{ 9, REG_EV_UDELAY, 9, -1, 0 },
		{ 10, REG_EV_USLEEP, 10, -1, 0 },
		{ 19999, REG_EV_USLEEP, 19999, -1, 0 },
		{ 20000, REG_EV_MSLEEP, 20, REG_EV_UDELAY, 0 },
		{ 20010, REG_EV_MSLEEP, 20, REG_EV_USLEEP, 10 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct regulator_desc *d = variant(&reg_driver_ab8500_tvout, t[i].us, 0, 0);
		const struct setup su = { .desc = d, .core = REG_CORE_6X, .fail_read = -1, .fail_write = -1,
					  .enable = true };
		struct outcome o = outcome_of("flag_gated", &su);

		expect(&o.trace, 3, t[i].k1, t[i].a1);
		if (t[i].k2 >= 0)
			expect(&o.trace, 4, (enum reg_event_kind)t[i].k2, t[i].a2);
		free(d);
	}
}

/* default_ops' default set_voltage_time_sel needs the old selector: a read the NULL tests skip. */
static void test_default_ops_reads_the_old_selector_the_null_tests_skip(void **state)
{
	struct setup su = { .desc = &reg_driver_plain, .core = REG_CORE_2011, .enabled = true, .use_count = 1,
			    .fail_read = -1, .fail_write = -1, .min_uV = 1800000, .max_uV = 1800000 };
	struct outcome nt, dfl;

	(void)state;
	for (int core = 0; core < REG_CORE_COUNT; core++) {
		su.core = (enum reg_core)core;
		su.fail_read = -1;
		nt = outcome_of("null_tested", &su);
		dfl = outcome_of("default_ops", &su);
		assert_int_equal(nt.ret, 0);
		assert_int_equal(dfl.ret, 0);
		assert_int_equal(dfl.trace.n, nt.trace.n + 1);		/* one register read more */
		su.fail_read = REG_VSEL;				/* and a failing one fails the set */
		nt = outcome_of("null_tested", &su);
		dfl = outcome_of("default_ops", &su);
		assert_int_equal(dfl.ret, -EIO);
		if (core == REG_CORE_2011)
			assert_int_equal(nt.ret, 0);
	}
}

/* The direct strategy refuses what it cannot run; nothing is attached. */
static void test_direct_refuses_the_timing_drivers(void **state)
{
	const struct reg_strategy *s = ob_reg_strategy_find("direct");
	struct reg_file rf;
	struct reg_delay d = { .mode = REG_DELAY_COUNT };
	struct regulator_dev rdev;
	struct ob_err err = { 0 };

	(void)state;
	assert_non_null(s);
	reg_file_init(&rf);
	for (size_t i = 0; reg_drivers[i]; i++) {
		int ret = regulator_register(s, &rdev, reg_drivers[i], &rf, &d, NULL, &err);

		assert_int_equal(ret, reg_drivers[i]->timing_ops ? -EINVAL : 0);
	}
	assert_non_null(strstr(err.msg, "timing ops"));
}

/* static_call: the trampolines point at ab8500's ops while one is registered, return 0 after. */
static void test_static_call_attaches_and_detaches(void **state)
{
	const struct reg_strategy *s = ob_reg_strategy_find("static_call");
	struct reg_file rf;
	struct reg_delay d = { .mode = REG_DELAY_COUNT };
	struct regulator_dev a, b, c;
	struct ob_err err = { 0 };

	(void)state;
	reg_file_init(&rf);
	assert_int_equal(regulator_register(s, &a, &reg_driver_ab8500_sel, &rf, &d, NULL, &err), 0);
	assert_int_equal(regulator_register(s, &b, &reg_driver_ab8500_tvout, &rf, &d, NULL, &err), 0);
	assert_int_equal(regulator_register(s, &c, &reg_driver_plain, &rf, &d, NULL, &err), 0);
	assert_int_equal(OB_STATIC_CALL_KEY(reg_enable_time).users, 2);
	assert_int_equal(OB_STATIC_CALL_KEY(reg_get_voltage_sel).users, 1);	/* not the plain driver's */
	regulator_unregister(&a);
	assert_non_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel)));
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_get_voltage_sel)));
	regulator_unregister(&b);
	regulator_unregister(&c);
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel)));
	assert_null(ob_static_call_query(&OB_STATIC_CALL_KEY(reg_enable_time)));
}

/* The waits: the spin at least what was asked, the sleep too, and an I2C access its wire time. */
static void test_waits_take_at_least_what_was_asked(void **state)
{
	struct reg_delay d = { .mode = REG_DELAY_WAIT };
	struct reg_file rf;
	uint32_t v;
	double t0, us;

	(void)state;
	ob_ts_ns_per_tick();	/* the counter's calibration (once per process, ~20 ms) first */
	t0 = ob_mono_ns();
	reg_udelay(&d, 300);
	us = (ob_mono_ns() - t0) / 1e3;
	assert_true(us >= 300 * 0.99);
	assert_true(us < 300 + 50000);	/* a loaded machine may preempt, not more */
	t0 = ob_mono_ns();
	reg_mdelay(&d, 2);
	assert_true((ob_mono_ns() - t0) / 1e3 >= 2000 * 0.99);
	t0 = ob_mono_ns();
	reg_usleep_range(&d, 500, 600);
	assert_true((ob_mono_ns() - t0) / 1e3 >= 500);
	t0 = ob_mono_ns();
	reg_msleep(&d, 1);
	assert_true((ob_mono_ns() - t0) / 1e3 >= 1000);
	assert_int_equal(d.requested_us, 300 + 2000 + 500 + 1000);
	assert_int_equal(d.mdelay_calls + d.udelay_calls + d.usleep_calls + d.msleep_calls, 4);

	reg_file_init(&rf);
	rf.bus = &reg_bus_i2c;
	rf.bus_wait = true;
	t0 = ob_mono_ns();
	assert_int_equal(reg_read(&rf, REG_VSEL, &v), 0);
	assert_int_equal(reg_write(&rf, REG_VSEL, 1), 0);
	us = (ob_mono_ns() - t0) / 1e3;
	assert_true(us >= (97.5 + 72.5) * 0.99);
	assert_int_equal(rf.bus_ns, 97500 + 72500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_strategy_matches_the_reference),
		cmocka_unit_test(test_2011_lists_every_voltage_once_per_set),
		cmocka_unit_test(test_2011_keeps_the_lowest_voltage_in_range),
		cmocka_unit_test(test_2011_no_match_still_waits_then_fails),
		cmocka_unit_test(test_seed_ab8500_never_reaches_set_voltage_time_sel),
		cmocka_unit_test(test_enable_skips_an_enabled_regulator),
		cmocka_unit_test(test_the_fixed_ldo_waits_10_ms_on_enable),
		cmocka_unit_test(test_6x_reads_the_old_voltage_first_and_asks_time_sel_last),
		cmocka_unit_test(test_6x_falls_back_to_the_ramp_delay),
		cmocka_unit_test(test_6x_delay_helper_thresholds),
		cmocka_unit_test(test_default_ops_reads_the_old_selector_the_null_tests_skip),
		cmocka_unit_test(test_direct_refuses_the_timing_drivers),
		cmocka_unit_test(test_static_call_attaches_and_detaches),
		cmocka_unit_test(test_waits_take_at_least_what_was_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
