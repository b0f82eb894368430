// SPDX-License-Identifier: MIT
/*
 * direct - no dispatch at all: the plain driver's methods called by name,
 * no optional op looked for.  It refuses a driver with timing ops, which it
 * would run wrongly (its delays skipped).
 */
#define REG_STRATEGY_NAME	direct
#define REG_STRATEGY_SUMMARY	"no dispatch: the plain driver's methods called by name (no timing ops)"
#define REG_STRATEGY_ORIGIN	"lower bound"
#define REG_STRATEGY_NO_TIMING_OPS 1

#define REG_DIRECT_list_voltage		reg_list_voltage_table
#define REG_DIRECT_set_voltage_sel	reg_set_voltage_sel_regmap
#define REG_DIRECT_enable		reg_enable_regmap

#define REG_OP_PRESENT(rdev, op, flag)	0
#define REG_OP_CALL(rdev, op, ...)	((void)(rdev), 0)
#define REG_CALL(rdev, op, ...)		(REG_DIRECT_##op(__VA_ARGS__))

#include "regulator/core.h"
