/* SPDX-License-Identifier: MIT */
/*
 * core.h - the regulator core's two paths, once, compiled into each
 * regulator strategy (src/regulator/strategies/<name>.c), which defines,
 * then includes this:
 *
 *   REG_STRATEGY_NAME, REG_STRATEGY_SUMMARY, REG_STRATEGY_ORIGIN
 *   REG_OP_PRESENT(rdev, op, flag)  is optional op @op there?  (the seam)
 *   REG_OP_CALL(rdev, op, ...)      call it
 *   REG_OPS(rdev)           (optional) the ops table: rdev->desc->ops by default
 *   REG_CALL(rdev, op, ...) (optional) call a mandatory op: through REG_OPS
 *   REG_STRATEGY_ATTACH(rdev, err), REG_STRATEGY_DETACH(rdev)  (optional)
 *   REG_STRATEGY_NO_TIMING_OPS, REG_STRATEGY_BASELINE           (optional)
 *
 * The paths follow drivers/regulator/core.c after commit 77af1b2641fa:
 * set_voltage maps the range to the first selector of the driver's table
 * inside it, then _regulator_do_set_voltage()'s order exactly: the two NULL
 * tests (here: the seam), get_voltage_sel (its error returned as is),
 * set_voltage_time_sel(old, new), set_voltage_sel, the delay split into
 * mdelay and udelay, and REGULATOR_EVENT_VOLTAGE_CHANGE when the selector
 * was set.  A negative settling time is warned about and taken as no delay
 * (as later kernels do; the commit's core passed it on to udelay).  enable
 * asks enable_time first, if there is one, then enables, then waits, as
 * _regulator_enable() of that time (which notified nothing).
 */
#ifndef OPSBENCH_REGULATOR_CORE_H
#define OPSBENCH_REGULATOR_CORE_H

#include <errno.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "regulator/drivers.h"

#if !defined(REG_STRATEGY_NAME) || !defined(REG_STRATEGY_SUMMARY) || \
	!defined(REG_OP_PRESENT) || !defined(REG_OP_CALL)
#error "a regulator strategy defines REG_STRATEGY_NAME, _SUMMARY, REG_OP_PRESENT and REG_OP_CALL"
#endif

#define REG_CONCAT_(a, b)	a##b
#define REG_CONCAT(a, b)	REG_CONCAT_(a, b)
#define REG_STR_(a)		#a
#define REG_STR(a)		REG_STR_(a)
/* RSYM(set_voltage) is reg_flag_gated_set_voltage in flag_gated.c. */
#define RSYM(x)			REG_CONCAT(reg_, REG_CONCAT(REG_STRATEGY_NAME, REG_CONCAT(_, x)))

#ifndef REG_OPS
#define REG_OPS(rdev)		((rdev)->desc->ops)
#endif
#ifndef REG_CALL
#define REG_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))
#endif
#ifndef REG_STRATEGY_ORIGIN
#define REG_STRATEGY_ORIGIN	""
#endif

/* The REG_OP_* bits of a driver's table (computed once, at registration). */
static inline unsigned int reg_op_flags(const struct regulator_ops *ops)
{
	unsigned int flags = 0;

	if (ops->set_voltage_time_sel && ops->get_voltage_sel)
		flags |= REG_OP_VOLTAGE_TIME;
	if (ops->enable_time)
		flags |= REG_OP_ENABLE_TIME;
	return flags;
}

static void RSYM(notify)(struct regulator_dev *rdev, unsigned long event)
{
	for (struct reg_notifier *nb = rdev->notifier; nb; nb = nb->next)
		nb->call(nb, event, NULL);
}

/* The kernel's "Insert any necessary delays". */
static void RSYM(delay)(struct regulator_dev *rdev, int delay)
{
	if (delay >= 1000) {
		reg_mdelay(rdev->delay, (unsigned long)delay / 1000);
		reg_udelay(rdev->delay, (unsigned long)delay % 1000);
	} else if (delay) {
		reg_udelay(rdev->delay, (unsigned long)delay);
	}
}

static noinline int RSYM(set_voltage)(struct regulator_dev *rdev, int min_uV, int max_uV)
{
	int ret, delay = 0, selector = -1;

	for (unsigned int i = 0; i < rdev->desc->n_voltages; i++) {
		int uV = REG_CALL(rdev, list_voltage, rdev, i);

		if (uV >= min_uV && uV <= max_uV) {
			selector = (int)i;
			break;
		}
	}
	if (selector < 0)
		return -EINVAL;

	if (REG_OP_PRESENT(rdev, set_voltage_time_sel, REG_OP_VOLTAGE_TIME) &&
	    REG_OP_PRESENT(rdev, get_voltage_sel, REG_OP_VOLTAGE_TIME)) {
		int old_selector = REG_OP_CALL(rdev, get_voltage_sel, rdev);

		if (old_selector < 0)
			return old_selector;
		delay = REG_OP_CALL(rdev, set_voltage_time_sel, rdev, (unsigned int)old_selector,
				    (unsigned int)selector);
		if (delay < 0) {
			rdev->warnings++;
			delay = 0;
		}
	}

	ret = REG_CALL(rdev, set_voltage_sel, rdev, (unsigned int)selector);

	RSYM(delay)(rdev, delay);
	if (ret == 0)
		RSYM(notify)(rdev, REGULATOR_EVENT_VOLTAGE_CHANGE);
	return ret;
}

static noinline int RSYM(enable)(struct regulator_dev *rdev)
{
	int ret, delay = 0;

	if (REG_OP_PRESENT(rdev, enable_time, REG_OP_ENABLE_TIME)) {
		delay = REG_OP_CALL(rdev, enable_time, rdev);
		if (delay < 0) {
			rdev->warnings++;
			delay = 0;
		}
	}
	ret = REG_CALL(rdev, enable, rdev);
	if (ret < 0)
		return ret;
	RSYM(delay)(rdev, delay);
	return 0;
}

#ifdef REG_STRATEGY_ATTACH
static int REG_STRATEGY_ATTACH(struct regulator_dev *rdev, struct ob_err *err);
#endif
#ifdef REG_STRATEGY_DETACH
static void REG_STRATEGY_DETACH(struct regulator_dev *rdev);
#endif

const struct reg_strategy REG_CONCAT(reg_strategy_, REG_STRATEGY_NAME) = {
	.name		= REG_STR(REG_STRATEGY_NAME),
	.summary	= REG_STRATEGY_SUMMARY,
	.origin		= REG_STRATEGY_ORIGIN,
#ifdef REG_STRATEGY_NO_TIMING_OPS
	.timing_ops	= false,
#else
	.timing_ops	= true,
#endif
#ifdef REG_STRATEGY_BASELINE
	.baseline	= true,
#endif
#ifdef REG_STRATEGY_ATTACH
	.attach		= REG_STRATEGY_ATTACH,
#endif
#ifdef REG_STRATEGY_DETACH
	.detach		= REG_STRATEGY_DETACH,
#endif
	.set_voltage	= RSYM(set_voltage),
	.enable		= RSYM(enable),
};

#endif /* OPSBENCH_REGULATOR_CORE_H */
