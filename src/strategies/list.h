/* SPDX-License-Identifier: MIT */
/*
 * list.h - every strategy, once, in report order.  Adding a strategy is a
 * file in this folder and a line here.
 */
STRATEGY(null_tested)
STRATEGY(default_ops)
STRATEGY(flag_gated)
STRATEGY(flag_hoisted)
STRATEGY(embedded)
STRATEGY(parent_ops)
STRATEGY(icall_wrapper)
STRATEGY(static_call)
STRATEGY(static_call_tramp)
STRATEGY(direct)
