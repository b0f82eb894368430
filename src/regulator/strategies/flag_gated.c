// SPDX-License-Identifier: MIT
/*
 * flag_gated - a bit in the device, computed once at registration, says
 * whether the optional op is there (REG_OP_TIME_SEL, REG_OP_GET_SEL,
 * REG_OP_ENABLE_TIME), as DCACHE_OP_* bits do for the dentry ops.
 */
#define REG_STRATEGY_NAME	flag_gated
#define REG_STRATEGY_SUMMARY	"REG_OP_* bit in the device, set at registration, gates ops->op()"
#define REG_STRATEGY_ORIGIN	"the DCACHE_OP_* pattern (Linux 2.6.38) applied to the regulator"
#define REG_STRATEGY_ATTACH	reg_flag_gated_attach

#define REG_OP_PRESENT(rdev, op, flag)	((rdev)->flags & (flag))
#define REG_OP_CALL(rdev, op, ...)	(REG_OPS(rdev)->op(__VA_ARGS__))

#include "regulator/core.h"

static int reg_flag_gated_attach(struct regulator_dev *rdev, struct ob_err *err)
{
	(void)err;
	rdev->flags = reg_op_flags(rdev->desc->ops);
	return 0;
}
