/* SPDX-License-Identifier: MIT */
/*
 * list.h - every regulator strategy, once, in report order.  Adding one is
 * a file in this folder and a line here.
 */
REG_STRATEGY(null_tested)
REG_STRATEGY(default_ops)
REG_STRATEGY(flag_gated)
REG_STRATEGY(embedded)
REG_STRATEGY(static_call)
REG_STRATEGY(direct)
