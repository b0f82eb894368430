/* SPDX-License-Identifier: MIT */
/*
 * static_call_list.h - every static call, once.  Included by the trampoline
 * assembly of each architecture (src/arch/<arch>/static_call.S) and by
 * src/static_call.c, with OB_STATIC_CALL(name) defined to what each needs.
 *
 *   d_hash, d_compare, d_revalidate   the dentry ops (strategy static_call)
 *   ool_*                             the same ops of strategy static_call_tramp
 *                                     (its own: a static call has one target,
 *                                     and each strategy has its own ops)
 *   dispatch_method                   bench/dispatch.c's static_call case
 *   selftest                          tests/test_static_call.c
 *   reg_*                             the regulator ops (regulator strategy static_call)
 *   permission                        the inode op (strategy static_call, component context)
 */
OB_STATIC_CALL(d_hash)
OB_STATIC_CALL(d_compare)
OB_STATIC_CALL(d_revalidate)
OB_STATIC_CALL(dispatch_method)
OB_STATIC_CALL(selftest)
OB_STATIC_CALL(reg_set_voltage_time_sel)
OB_STATIC_CALL(reg_get_voltage_sel)
OB_STATIC_CALL(reg_enable_time)
OB_STATIC_CALL(permission)
OB_STATIC_CALL(ool_d_hash)
OB_STATIC_CALL(ool_d_compare)
OB_STATIC_CALL(ool_d_revalidate)
OB_STATIC_CALL(ool_permission)
