// SPDX-License-Identifier: MIT
/*
 * static_call - the REG_OP_* bit, then a direct call to the op's
 * trampoline, patched at registration to the driver's method (one target
 * per op for the whole system: a second driver with another
 * set_voltage_time_sel could not register, -EBUSY).
 */
#define REG_STRATEGY_NAME	static_call
#define REG_STRATEGY_SUMMARY	"REG_OP_* bit, then a direct call to the op's trampoline (one target per op)"
#define REG_STRATEGY_ORIGIN	"Linux 5.10+ include/linux/static_call.h (beyond the article)"
#define REG_STRATEGY_ATTACH	reg_static_call_attach
#define REG_STRATEGY_DETACH	reg_static_call_detach

#include "opsbench/static_call.h"
#include "opsbench/regulator.h"

typedef int reg_time_sel_fn(struct regulator_dev *, unsigned int, unsigned int);
typedef int reg_dev_fn(struct regulator_dev *);
OB_DECLARE_STATIC_CALL(reg_set_voltage_time_sel, reg_time_sel_fn);
OB_DECLARE_STATIC_CALL(reg_get_voltage_sel, reg_dev_fn);
OB_DECLARE_STATIC_CALL(reg_enable_time, reg_dev_fn);

#define REG_OP_PRESENT(rdev, op, flag)	((rdev)->flags & (flag))
#define REG_OP_CALL(rdev, op, ...)	(ob_static_call(reg_##op)(__VA_ARGS__))

#include "regulator/core.h"

static void reg_static_call_detach(struct regulator_dev *rdev)
{
	if (rdev->flags & REG_OP_TIME_SEL) {
		ob_static_call_detach(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel));
		if (rdev->flags & REG_OP_GET_SEL)
			ob_static_call_detach(&OB_STATIC_CALL_KEY(reg_get_voltage_sel));
	}
	if (rdev->flags & REG_OP_ENABLE_TIME)
		ob_static_call_detach(&OB_STATIC_CALL_KEY(reg_enable_time));
	rdev->flags = 0;
}

/*
 * get_voltage_sel is reached through its trampoline only behind
 * set_voltage_time_sel (the pair), so its trampoline is patched only with
 * it: the plain driver's get_voltage_sel, never called there, does not
 * take the one target.
 */
static int reg_static_call_attach(struct regulator_dev *rdev, struct ob_err *err)
{
	const struct regulator_ops *ops = rdev->desc->ops;
	unsigned int want = reg_op_flags(ops);

	rdev->flags = 0;
	if (want & REG_OP_TIME_SEL) {
		if (ob_static_call_attach(&OB_STATIC_CALL_KEY(reg_set_voltage_time_sel),
					  (void *)ops->set_voltage_time_sel, err))
			return err->code;
		rdev->flags |= REG_OP_TIME_SEL;
		if (want & REG_OP_GET_SEL) {
			if (ob_static_call_attach(&OB_STATIC_CALL_KEY(reg_get_voltage_sel),
						  (void *)ops->get_voltage_sel, err)) {
				reg_static_call_detach(rdev);
				return err->code;
			}
			rdev->flags |= REG_OP_GET_SEL;
		}
	}
	if (want & REG_OP_ENABLE_TIME) {
		if (ob_static_call_attach(&OB_STATIC_CALL_KEY(reg_enable_time),
					  (void *)ops->enable_time, err)) {
			reg_static_call_detach(rdev);
			return err->code;
		}
		rdev->flags |= REG_OP_ENABLE_TIME;
	}
	return 0;
}
