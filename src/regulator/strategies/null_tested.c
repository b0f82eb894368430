// SPDX-License-Identifier: MIT
/*
 * null_tested - the commit's own code: each optional op is a NULL pointer
 * the core tests (set_voltage_time_sel && get_voltage_sel; enable_time).
 * The baseline of the regulator benchmarks.
 */
#define REG_STRATEGY_NAME	null_tested
#define REG_STRATEGY_SUMMARY	"ops->op && ...: the commit's NULL tests, then ops->op()"
#define REG_STRATEGY_ORIGIN	"Linux 77af1b2641fa, _regulator_do_set_voltage()"
#define REG_STRATEGY_BASELINE	1

#define REG_OP_PRESENT(rdev, op, flag)	(REG_OPS(rdev)->op != NULL)
#define REG_OP_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))

#include "regulator/core.h"
