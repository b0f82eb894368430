// SPDX-License-Identifier: MIT
/*
 * default_ops - mandatory methods: every table is completed by
 * REGULATOR_OPS_DEFAULTS (set_voltage_time_sel from the ramp delay, as the
 * kernel's regulator_set_voltage_time_sel() helper; enable_time from
 * desc->enable_time), and the core calls them unconditionally.  Not free
 * here, unlike the dentry's defaults: the default set_voltage_time_sel
 * needs the old selector, so the core reads it (get_voltage_sel, a
 * register read) where the NULL tests would not: on every set_voltage_sel
 * of the 2011 core, and in the 6.x core whenever the regulator is on; a
 * failing read fails the set on a driver that never needed it.
 * get_voltage_sel itself has no default (a driver on set_voltage has
 * none), so it is still tested.
 */
#define REG_STRATEGY_NAME	default_ops
#define REG_STRATEGY_SUMMARY	"ops->op() always; tables completed by REGULATOR_OPS_DEFAULTS (the default reads the old selector)"
#define REG_STRATEGY_ORIGIN	"LWN 'Object-oriented design patterns in the kernel' (2011): mandatory default methods"

#define REG_OPS(rdev)			((rdev)->desc->ops_full)
#define REG_DEFAULT_PRESENT_set_voltage_time_sel(rdev)	1
#define REG_DEFAULT_PRESENT_enable_time(rdev)		1
#define REG_DEFAULT_PRESENT_get_voltage_sel(rdev)	(REG_OPS(rdev)->get_voltage_sel != NULL)

#define REG_OP_PRESENT(rdev, op, flag)	REG_DEFAULT_PRESENT_##op(rdev)
#define REG_OP_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))

#include "regulator/core.h"
