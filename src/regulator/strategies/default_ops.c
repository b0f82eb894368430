// SPDX-License-Identifier: MIT
/*
 * default_ops - mandatory methods: every table is completed by
 * REGULATOR_OPS_DEFAULTS (no settling time), and the core calls the ops
 * unconditionally.  Not free here, unlike the dentry's defaults: the
 * default set_voltage_time_sel needs the old selector, so the core reads
 * it (get_voltage_sel, a register read) on every set_voltage of every
 * driver, and a failing read fails the set on a driver that never needed
 * it.  The commit's two NULL tests exist to avoid exactly that.
 */
#define REG_STRATEGY_NAME	default_ops
#define REG_STRATEGY_SUMMARY	"ops->op() always; tables completed by REGULATOR_OPS_DEFAULTS (the old selector is read always)"
#define REG_STRATEGY_ORIGIN	"LWN 'Object-oriented design patterns in the kernel' (2011): mandatory default methods"

#define REG_OPS(rdev)			((rdev)->desc->ops_full)
#define REG_OP_PRESENT(rdev, op, flag)	1
#define REG_OP_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))

#include "regulator/core.h"
