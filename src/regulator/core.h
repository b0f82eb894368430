/* SPDX-License-Identifier: MIT */
/*
 * core.h - the regulator core's paths, two generations, once, compiled
 * into each regulator strategy (src/regulator/strategies/<name>.c), which
 * defines, then includes this:
 *
 *   REG_STRATEGY_NAME, REG_STRATEGY_SUMMARY, REG_STRATEGY_ORIGIN
 *   REG_OP_PRESENT(rdev, op, flag)  is optional op @op there?  (the seam)
 *   REG_OP_CALL(rdev, op, ...)      call it
 *   REG_OPS(rdev)           (optional) the ops table: rdev->desc->ops by default
 *   REG_HAS(rdev, op)       (optional) is a driver op there: REG_OPS(rdev)->op != NULL
 *   REG_CALL(rdev, op, ...) (optional) call a driver op: through REG_OPS
 *   REG_STRATEGY_ATTACH(rdev, err), REG_STRATEGY_DETACH(rdev)  (optional)
 *   REG_STRATEGY_NO_TIMING_OPS, REG_STRATEGY_BASELINE           (optional)
 *
 * Only the optional ops go through the seam: set_voltage_time_sel, the
 * get_voltage_sel that must come with it, and enable_time.  The other
 * NULL tests (which set_voltage a driver has, is_enabled) are the
 * kernel's own and the same under every strategy.
 *
 * Left out of both generations, the same for every strategy: the
 * consumer's locks, constraints and same-range shortcut, supplies,
 * trace points, uV_offset, GPIO enables, and (6.x) coupled regulators,
 * the board's constraints->ramp_delay/settling times/enable_time and the
 * ops no driver here has (map_voltage, set_voltage_time).
 */
#ifndef OPSBENCH_REGULATOR_CORE_H
#define OPSBENCH_REGULATOR_CORE_H

#include <errno.h>
#include <limits.h>

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
/* RSYM(set_voltage_2011) is reg_flag_gated_set_voltage_2011 in flag_gated.c. */
#define RSYM(x)			REG_CONCAT(reg_, REG_CONCAT(REG_STRATEGY_NAME, REG_CONCAT(_, x)))

#ifndef REG_OPS
#define REG_OPS(rdev)		((rdev)->desc->ops)
#endif
#ifndef REG_HAS
#define REG_HAS(rdev, op)	(REG_OPS(rdev)->op != NULL)
#endif
#ifndef REG_CALL
#define REG_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))
#endif
#ifndef REG_STRATEGY_ORIGIN
#define REG_STRATEGY_ORIGIN	""
#endif

/* The optional pair of the set_voltage_sel path: set_voltage_time_sel && get_voltage_sel. */
#define REG_HAS_TIME_SEL_PAIR(rdev)						\
	(REG_OP_PRESENT(rdev, set_voltage_time_sel, REG_OP_TIME_SEL) &&		\
	 REG_OP_PRESENT(rdev, get_voltage_sel, REG_OP_GET_SEL))

/* The REG_OP_* bits of a driver's table (computed once, at registration). */
static inline unsigned int reg_op_flags(const struct regulator_ops *ops)
{
	return (ops->set_voltage_time_sel ? REG_OP_TIME_SEL : 0) |
	       (ops->get_voltage_sel ? REG_OP_GET_SEL : 0) |
	       (ops->enable_time ? REG_OP_ENABLE_TIME : 0);
}

/* ==================== what both generations share ==================== */

/* _notifier_call_chain(): every block, until one answers NOTIFY_STOP_MASK. */
static int RSYM(notify)(struct regulator_dev *rdev, unsigned long event)
{
	int ret = 0;

	for (struct reg_notifier *nb = rdev->notifier; nb; nb = nb->next) {
		ret = nb->call(nb, event, NULL);
		if (ret & NOTIFY_STOP_MASK)
			break;
	}
	return ret;
}

/* _regulator_is_enabled(): without is_enabled the core takes the regulator as on. */
static inline int RSYM(is_enabled)(struct regulator_dev *rdev)
{
	if (!REG_HAS(rdev, is_enabled))
		return 1;
	return REG_CALL(rdev, is_enabled, rdev);
}

/* A settling or ramp-up time that came back negative: warned about, taken as 0. */
static inline int RSYM(checked_delay)(struct regulator_dev *rdev, int delay)
{
	if (delay < 0) {
		rdev->warnings++;
		return 0;
	}
	return delay;
}

/* ==================== 2011: 77af1b2641fa ==================== */

/*
 * "Insert any necessary delays", as the 2011 core writes it for both
 * paths: busy-waits, mdelay for the milliseconds and udelay for the rest
 * (udelay(0) included) from 1000 us, udelay below.
 */
static void RSYM(delay_2011)(struct regulator_dev *rdev, int delay)
{
	if (delay >= 1000) {
		reg_mdelay(rdev->delay, (unsigned long)delay / 1000);
		reg_udelay(rdev->delay, (unsigned long)delay % 1000);
	} else if (delay) {
		reg_udelay(rdev->delay, (unsigned long)delay);
	}
}

/*
 * The lowest voltage in [@min_uV, @max_uV] of a table driver, asking
 * list_voltage for every selector below n_voltages, never stopping early:
 * the 2011 core's loop, and regulator_map_voltage_iterate() of 6.x.  Its
 * selector, or -EINVAL when none is in range.
 */
static int RSYM(map_voltage)(struct regulator_dev *rdev, int min_uV, int max_uV)
{
	int best_val = INT_MAX, selector = 0;

	for (unsigned int i = 0; i < rdev->desc->n_voltages; i++) {
		int uV = REG_CALL(rdev, list_voltage, rdev, i);

		if (uV < 0)
			continue;
		if (uV < best_val && uV >= min_uV && uV <= max_uV) {
			best_val = uV;
			selector = (int)i;
		}
	}
	return best_val != INT_MAX ? selector : -EINVAL;
}

/*
 * regulator_set_voltage()'s sanity check, then _regulator_do_set_voltage()
 * as 77af1b2641fa left it.  With set_voltage the driver maps the range and
 * returns the selector; the core then lists that selector's voltage for
 * its trace point (kept: it is a call on the path).  With set_voltage_sel
 * the core asks list_voltage for every selector below n_voltages, keeps
 * the lowest voltage in range and never stops early; only this branch
 * has the new time_sel block, which reads the old selector (an error
 * returned as is) and asks for the settling time, before it knows whether
 * anything matched: with nothing in range it asks for selector 0, waits,
 * and fails with -EINVAL.  One difference: a negative settling time is
 * warned about and taken as 0 (as later cores do), where this core handed
 * it to udelay() as an enormous unsigned wait.
 */
static noinline int RSYM(set_voltage_2011)(struct regulator_dev *rdev, int min_uV, int max_uV)
{
	int ret, delay = 0;
	unsigned int selector = 0;	/* the kernel's is unset when the driver fails early */

	if (!REG_HAS(rdev, set_voltage) && !REG_HAS(rdev, set_voltage_sel))
		return -EINVAL;

	if (REG_HAS(rdev, set_voltage)) {
		ret = REG_CALL(rdev, set_voltage, rdev, min_uV, max_uV, &selector);
		if (REG_HAS(rdev, list_voltage))
			(void)REG_CALL(rdev, list_voltage, rdev, selector);
	} else {
		int found = RSYM(map_voltage)(rdev, min_uV, max_uV);

		selector = found < 0 ? 0 : (unsigned int)found;

		if (REG_HAS_TIME_SEL_PAIR(rdev)) {
			int old_selector = REG_OP_CALL(rdev, get_voltage_sel, rdev);

			if (old_selector < 0)
				return old_selector;
			delay = REG_OP_CALL(rdev, set_voltage_time_sel, rdev, (unsigned int)old_selector,
					    selector);
		}

		if (found >= 0)
			ret = REG_CALL(rdev, set_voltage_sel, rdev, selector);
		else
			ret = -EINVAL;
	}

	RSYM(delay_2011)(rdev, RSYM(checked_delay)(rdev, delay));
	if (ret == 0)
		RSYM(notify)(rdev, REGULATOR_EVENT_VOLTAGE_CHANGE);
	return ret;
}

/*
 * regulator_enable() -> _regulator_enable() of that core (Linux 3.1,
 * drivers/regulator/core.c): nothing but use_count++ while the regulator
 * has users; else is_enabled, and only if that says off (0, or -EINVAL)
 * enable_time (a negative one warned about, taken as 0), enable, the
 * delay.  An is_enabled error other than -EINVAL is returned; a
 * regulator found on is only counted.  No notification.  Supplies, DRMS
 * and the status-change permission are left out.
 */
static noinline int RSYM(enable_2011)(struct regulator_dev *rdev)
{
	int ret, delay = 0;

	if (rdev->use_count == 0) {
		ret = RSYM(is_enabled)(rdev);
		if (ret == -EINVAL || ret == 0) {
			if (!REG_HAS(rdev, enable))
				return -EINVAL;
			if (REG_OP_PRESENT(rdev, enable_time, REG_OP_ENABLE_TIME))
				delay = REG_OP_CALL(rdev, enable_time, rdev);
			delay = RSYM(checked_delay)(rdev, delay);
			ret = REG_CALL(rdev, enable, rdev);
			if (ret < 0)
				return ret;
			RSYM(delay_2011)(rdev, delay);
		} else if (ret < 0) {
			return ret;
		}
	}
	rdev->use_count++;
	return 0;
}

/* ==================== 6.x ==================== */

/*
 * _regulator_delay_helper(): below 20 ms the milliseconds join the
 * microseconds; from 20 ms msleep; then usleep_range(us, us + 100) from
 * 10 us, udelay below (udelay(0) included).  (Newer trees call fsleep(),
 * which draws its lines at the same places.)
 */
static void RSYM(delay_6x)(struct regulator_dev *rdev, unsigned int delay)
{
	unsigned int ms = delay / 1000, us = delay % 1000;

	if (ms > 0) {
		if (ms < 20)
			us += ms * 1000;
		else
			reg_msleep(rdev->delay, ms);
	}
	if (us >= 10)
		reg_usleep_range(rdev->delay, us, us + 100);
	else
		reg_udelay(rdev->delay, us);
}

/* regulator_get_voltage_rdev(): get_voltage_sel and its voltage, or get_voltage. */
static int RSYM(get_voltage_rdev)(struct regulator_dev *rdev)
{
	if (REG_HAS(rdev, get_voltage_sel)) {
		int sel = REG_CALL(rdev, get_voltage_sel, rdev);

		if (sel < 0)
			return sel;
		return REG_CALL(rdev, list_voltage, rdev, (unsigned int)sel);
	}
	if (REG_HAS(rdev, get_voltage))
		return REG_CALL(rdev, get_voltage, rdev);
	if (REG_HAS(rdev, list_voltage))
		return REG_CALL(rdev, list_voltage, rdev, 0);
	return -EINVAL;
}

/*
 * _regulator_call_set_voltage_sel() and _regulator_call_set_voltage(): the
 * voltage read again for the PRE_VOLTAGE_CHANGE notification, the op, and
 * ABORT_VOLTAGE_CHANGE if it failed.
 */
static int RSYM(call_set_voltage_sel)(struct regulator_dev *rdev, unsigned int selector)
{
	int ret;

	(void)RSYM(get_voltage_rdev)(rdev);
	if (RSYM(notify)(rdev, REGULATOR_EVENT_PRE_VOLTAGE_CHANGE) & NOTIFY_STOP_MASK)
		return -EINVAL;
	ret = REG_CALL(rdev, set_voltage_sel, rdev, selector);
	if (ret >= 0)
		return ret;
	RSYM(notify)(rdev, REGULATOR_EVENT_ABORT_VOLTAGE_CHANGE);
	return ret;
}

static int RSYM(call_set_voltage)(struct regulator_dev *rdev, int min_uV, int max_uV,
				  unsigned int *selector)
{
	int ret;

	(void)RSYM(get_voltage_rdev)(rdev);
	if (RSYM(notify)(rdev, REGULATOR_EVENT_PRE_VOLTAGE_CHANGE) & NOTIFY_STOP_MASK)
		return -EINVAL;
	ret = REG_CALL(rdev, set_voltage, rdev, min_uV, max_uV, selector);
	if (ret >= 0)
		return ret;
	RSYM(notify)(rdev, REGULATOR_EVENT_ABORT_VOLTAGE_CHANGE);
	return ret;
}

/*
 * regulator_set_voltage_unlocked()'s sanity check, then today's
 * _regulator_do_set_voltage(): the old voltage read first; the old
 * selector only if the regulator is on (is_enabled is asked first,
 * whatever the ops; an error counts as on) and both optional ops are
 * there; the set (a selector equal to the old one is not written); on
 * failure nothing more.  Then set_voltage_time_sel if the driver has it,
 * only for a selector that changed, else the mandatory default from the
 * ramp delay for a voltage that changed; the delay helper; the
 * notification.
 */
static noinline int RSYM(set_voltage_6x)(struct regulator_dev *rdev, int min_uV, int max_uV)
{
	int ret, delay = 0, best_val = 0, old_selector = -1, old_uV;
	unsigned int selector = 0;

	if (!REG_HAS(rdev, set_voltage) && !REG_HAS(rdev, set_voltage_sel))
		return -EINVAL;

	old_uV = RSYM(get_voltage_rdev)(rdev);

	if (RSYM(is_enabled)(rdev) && REG_HAS_TIME_SEL_PAIR(rdev)) {
		old_selector = REG_OP_CALL(rdev, get_voltage_sel, rdev);
		if (old_selector < 0)
			return old_selector;
	}

	if (REG_HAS(rdev, set_voltage)) {
		ret = RSYM(call_set_voltage)(rdev, min_uV, max_uV, &selector);
		if (ret >= 0)
			best_val = REG_HAS(rdev, list_voltage) ?
				   REG_CALL(rdev, list_voltage, rdev, selector) :
				   RSYM(get_voltage_rdev)(rdev);
	} else {
		ret = RSYM(map_voltage)(rdev, min_uV, max_uV);
		if (ret >= 0) {
			best_val = REG_CALL(rdev, list_voltage, rdev, (unsigned int)ret);
			if (min_uV <= best_val && max_uV >= best_val) {
				selector = (unsigned int)ret;
				if (old_selector == ret)
					ret = 0;
				else
					ret = RSYM(call_set_voltage_sel)(rdev, selector);
			} else {
				ret = -EINVAL;
			}
		}
	}
	if (ret)
		return ret;

	if (REG_OP_PRESENT(rdev, set_voltage_time_sel, REG_OP_TIME_SEL)) {
		if (old_selector >= 0 && (unsigned int)old_selector != selector)
			delay = REG_OP_CALL(rdev, set_voltage_time_sel, rdev,
					    (unsigned int)old_selector, selector);
	} else if (old_uV != best_val) {
		delay = reg_ramp_time_us(rdev->desc, old_uV, best_val);
	}

	RSYM(delay_6x)(rdev, (unsigned int)RSYM(checked_delay)(rdev, delay));
	if (best_val >= 0)
		RSYM(notify)(rdev, REGULATOR_EVENT_VOLTAGE_CHANGE);
	return ret;
}

/*
 * regulator_enable() -> _regulator_enable() -> _regulator_do_enable(): as
 * in 2011, nothing but use_count++ while the regulator has users, and
 * is_enabled decides; then enable_time, or desc->enable_time without the
 * op (a negative time warned about, taken as 0), before enable; the delay
 * helper; REGULATOR_EVENT_ENABLE.
 */
static noinline int RSYM(enable_6x)(struct regulator_dev *rdev)
{
	int ret, delay;

	if (rdev->use_count == 0) {
		ret = RSYM(is_enabled)(rdev);
		if (ret == -EINVAL || ret == 0) {
			if (REG_OP_PRESENT(rdev, enable_time, REG_OP_ENABLE_TIME))
				delay = REG_OP_CALL(rdev, enable_time, rdev);
			else
				delay = (int)rdev->desc->enable_time;
			delay = RSYM(checked_delay)(rdev, delay);
			if (!REG_HAS(rdev, enable))
				return -EINVAL;
			ret = REG_CALL(rdev, enable, rdev);
			if (ret < 0)
				return ret;
			RSYM(delay_6x)(rdev, (unsigned int)delay);
			RSYM(notify)(rdev, REGULATOR_EVENT_ENABLE);
		} else if (ret < 0) {
			return ret;
		}
	}
	rdev->use_count++;
	return 0;
}

/* ==================== registration ==================== */

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
	.set_voltage	= { [REG_CORE_2011] = RSYM(set_voltage_2011), [REG_CORE_6X] = RSYM(set_voltage_6x) },
	.enable		= { [REG_CORE_2011] = RSYM(enable_2011), [REG_CORE_6X] = RSYM(enable_6x) },
};

#endif /* OPSBENCH_REGULATOR_CORE_H */
