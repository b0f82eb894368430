// SPDX-License-Identifier: MIT
/*
 * embedded - the optional methods copied into the device at registration
 * and NULL-tested there: no load of the ops table on the path.
 */
#define REG_STRATEGY_NAME	embedded
#define REG_STRATEGY_SUMMARY	"the optional methods stored in the device itself, NULL-tested"
#define REG_STRATEGY_ORIGIN	"LWN 'Object-oriented design patterns in the kernel' (2011): function pointers in the object"
#define REG_STRATEGY_ATTACH	reg_embedded_attach

#define REG_OP_PRESENT(rdev, op, flag)	((rdev)->op != NULL)
#define REG_OP_CALL(rdev, op, ...)	((rdev)->op(__VA_ARGS__))

#include "regulator/core.h"

static int reg_embedded_attach(struct regulator_dev *rdev, struct ob_err *err)
{
	const struct regulator_ops *ops = rdev->desc->ops;

	(void)err;
	rdev->set_voltage_time_sel = ops->set_voltage_time_sel;
	rdev->get_voltage_sel = ops->get_voltage_sel;
	rdev->enable_time = ops->enable_time;
	return 0;
}
