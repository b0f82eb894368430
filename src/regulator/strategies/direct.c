// SPDX-License-Identifier: MIT
/*
 * direct - no dispatch at all: the plain driver's methods called by name,
 * no optional op looked for, and the plain driver's answers to the
 * kernel's own NULL tests known at compile time.  It refuses a driver with
 * timing ops, which it would run wrongly (its delays skipped).
 */
#include <errno.h>

#define REG_STRATEGY_NAME	direct
#define REG_STRATEGY_SUMMARY	"no dispatch: the plain driver's methods called by name (no timing ops)"
#define REG_STRATEGY_ORIGIN	"lower bound"
#define REG_STRATEGY_NO_TIMING_OPS 1

#define REG_DIRECT_list_voltage		reg_list_voltage_table
#define REG_DIRECT_get_voltage_sel	reg_get_voltage_sel_regmap
#define REG_DIRECT_set_voltage_sel	reg_set_voltage_sel_regmap
#define REG_DIRECT_enable		reg_enable_regmap
#define REG_DIRECT_is_enabled		reg_is_enabled_regmap
/* The plain driver has neither; never called (REG_HAS says so). */
#define REG_DIRECT_set_voltage(rdev, lo, hi, sel)	((void)(rdev), (void)(lo), (void)(hi), (void)(sel), -EINVAL)
#define REG_DIRECT_get_voltage(rdev)				((void)(rdev), -EINVAL)

#define REG_DIRECT_HAS_list_voltage	1
#define REG_DIRECT_HAS_get_voltage_sel	1
#define REG_DIRECT_HAS_set_voltage_sel	1
#define REG_DIRECT_HAS_enable		1
#define REG_DIRECT_HAS_is_enabled	1
#define REG_DIRECT_HAS_set_voltage	0
#define REG_DIRECT_HAS_get_voltage	0

#define REG_OP_PRESENT(rdev, op, flag)	0
#define REG_OP_CALL(rdev, op, ...)	((void)(rdev), 0)
#define REG_HAS(rdev, op)		((void)(rdev), REG_DIRECT_HAS_##op)
#define REG_CALL(rdev, op, ...)		(REG_DIRECT_##op(__VA_ARGS__))

#include "regulator/core.h"
