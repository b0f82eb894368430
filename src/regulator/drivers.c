// SPDX-License-Identifier: MIT
/*
 * drivers.c - the regulator drivers, over the simulated register file:
 *
 *  - plain: no timing ops, on set_voltage_sel/get_voltage_sel over a
 *    voltage table (what the core's set_voltage_sel branch serves); its
 *    register helpers are uncached, as a driver of 2011 that called its
 *    bus directly (a regmap cache would answer its reads from memory).
 *  - ab8500, as commit 42ab616afe88 left drivers/regulator/ab8500.c: the
 *    variable LDOs on set_voltage/get_voltage (the driver maps the range
 *    with its own loop over its table), so the core's set_voltage_sel
 *    branch, and with it the new set_voltage_time_sel, is never taken;
 *    info->delay unset (0) on them.  Registers are changed by
 *    mask-and-set, a read then a write (abx500_mask_and_set_register_
 *    interruptible), and is_enabled reads the enable register.
 *  - ab8500_tvout: the same commit's fixed 2.0 V LDO, n_voltages 1,
 *    .delay = 10000: enable_time asks a 10 ms wait.  Its ops have no
 *    set_voltage of either kind.
 *  - ab8500_sel: the variable LDOs after the driver's later conversion to
 *    selectors (not either commit): get_voltage_sel/set_voltage_sel, so
 *    the core calls set_voltage_time_sel, which reads the enable register
 *    and returns info->delay (0) when on.
 *
 * Each has its ops table as the driver writes it (optional ops NULL) and
 * the same table completed by REGULATOR_OPS_DEFAULTS, for default_ops.
 */
#include <errno.h>

#include "opsbench/compiler.h"
#include "regulator/drivers.h"

/* ab8500's ldo_vauxn_voltages: 1.1 V to 3.3 V, 16 selectors. */
static const int ldo_voltages[] = {
	1100000, 1200000, 1300000, 1400000, 1500000, 1800000, 1850000, 1900000,
	2500000, 2650000, 2700000, 2750000, 2800000, 2900000, 3000000, 3300000,
};

#define VSEL_MASK	0xfu
#define ENABLE_BIT	0x1u

/* ---- plain: uncached register helpers over a voltage table ---- */

noinline int reg_list_voltage_table(struct regulator_dev *rdev, unsigned int selector)
{
	rdev->list_voltage_calls++;
	if (selector >= rdev->desc->n_voltages)
		return -EINVAL;
	return rdev->desc->volt_table[selector];
}

noinline int reg_get_voltage_sel_regmap(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_VSEL, &v);

	return ret < 0 ? ret : (int)(v & VSEL_MASK);
}

noinline int reg_set_voltage_sel_regmap(struct regulator_dev *rdev, unsigned int selector)
{
	return reg_write(rdev->regs, REG_VSEL, selector & VSEL_MASK);
}

noinline int reg_is_enabled_regmap(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_ENABLE, &v);

	return ret < 0 ? ret : !!(v & ENABLE_BIT);
}

noinline int reg_enable_regmap(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_ENABLE, &v);

	return ret < 0 ? ret : reg_write(rdev->regs, REG_ENABLE, v | ENABLE_BIT);
}

/* ---- ab8500 (42ab616afe88), written from its description ---- */

/* Read, mask in @bits, write back: one bus read and one bus write. */
static int ab8500_mask_and_set(struct regulator_dev *rdev, unsigned int reg, uint32_t mask, uint32_t bits)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, reg, &v);

	if (ret < 0)
		return ret;
	return reg_write(rdev->regs, reg, (v & ~mask) | (bits & mask));
}

noinline int ab8500_list_voltage(struct regulator_dev *rdev, unsigned int selector)
{
	rdev->list_voltage_calls++;
	if (rdev->desc->fixed_uV)
		return rdev->desc->fixed_uV;
	if (selector >= rdev->desc->n_voltages)
		return -EINVAL;
	return rdev->desc->volt_table[selector];
}

noinline int ab8500_regulator_enable(struct regulator_dev *rdev)
{
	return ab8500_mask_and_set(rdev, REG_ENABLE, ENABLE_BIT, ENABLE_BIT);
}

noinline int ab8500_regulator_is_enabled(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_ENABLE, &v);

	return ret < 0 ? ret : !!(v & ENABLE_BIT);
}

/* The driver's own mapping: the first table entry inside the range (no list_voltage). */
noinline int ab8500_regulator_set_voltage(struct regulator_dev *rdev, int min_uV, int max_uV,
					  unsigned int *selector)
{
	const struct regulator_desc *d = rdev->desc;
	unsigned int i;

	for (i = 0; i < d->n_voltages; i++)
		if (d->volt_table[i] >= min_uV && d->volt_table[i] <= max_uV)
			break;
	if (i == d->n_voltages)
		return -EINVAL;
	*selector = i;
	return ab8500_mask_and_set(rdev, REG_VSEL, VSEL_MASK, i);
}

noinline int ab8500_regulator_get_voltage(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_VSEL, &v);

	return ret < 0 ? ret : rdev->desc->volt_table[v & VSEL_MASK];
}

noinline int ab8500_fixed_get_voltage(struct regulator_dev *rdev)
{
	return rdev->desc->fixed_uV;
}

noinline int ab8500_regulator_enable_time(struct regulator_dev *rdev)
{
	return (int)rdev->desc->delay_us;
}

/* If the regulator is off, it takes no time to settle (42ab616afe88). */
noinline int ab8500_regulator_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
						   unsigned int new_sel)
{
	int ret = ab8500_regulator_is_enabled(rdev);

	(void)old_sel;
	(void)new_sel;
	if (ret < 0)
		return ret;
	if (!ret)
		return 0;
	return (int)rdev->desc->delay_us;
}

/* The later conversion's selector ops. */
noinline int ab8500_regulator_get_voltage_sel(struct regulator_dev *rdev)
{
	uint32_t v;
	int ret = reg_read(rdev->regs, REG_VSEL, &v);

	return ret < 0 ? ret : (int)(v & VSEL_MASK);
}

noinline int ab8500_regulator_set_voltage_sel(struct regulator_dev *rdev, unsigned int selector)
{
	return ab8500_mask_and_set(rdev, REG_VSEL, VSEL_MASK, selector);
}

/* ---- the mandatory defaults of default_ops ---- */

/*
 * The kernel's regulator_set_voltage_time_sel() helper, the natural default:
 * the ramp time between the two selectors' voltages.  The helper lists both
 * voltages first; without a ramp delay it returns 0 either way, and
 * answering first keeps the 2011 core's list_voltage calls as they were.
 */
static noinline int default_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
						 unsigned int new_sel)
{
	const struct regulator_ops *ops = rdev->desc->ops;

	if (!rdev->desc->ramp_delay || !ops->list_voltage)
		return 0;
	return reg_ramp_time_us(rdev->desc, ops->list_voltage(rdev, old_sel),
				ops->list_voltage(rdev, new_sel));
}

/* The 6.x core's own fallback, desc->enable_time (0 for every driver here). */
static noinline int default_enable_time(struct regulator_dev *rdev)
{
	return (int)rdev->desc->enable_time;
}

#define REGULATOR_OPS_DEFAULTS						\
	.set_voltage_time_sel	= default_set_voltage_time_sel,		\
	.enable_time		= default_enable_time

#define PLAIN_OPS							\
	.list_voltage		= reg_list_voltage_table,		\
	.get_voltage_sel	= reg_get_voltage_sel_regmap,		\
	.set_voltage_sel	= reg_set_voltage_sel_regmap,		\
	.enable			= reg_enable_regmap,			\
	.is_enabled		= reg_is_enabled_regmap

#define AB8500_TIMING_OPS						\
	.enable			= ab8500_regulator_enable,		\
	.is_enabled		= ab8500_regulator_is_enabled,		\
	.list_voltage		= ab8500_list_voltage,			\
	.enable_time		= ab8500_regulator_enable_time,		\
	.set_voltage_time_sel	= ab8500_regulator_set_voltage_time_sel

#define AB8500_OPS							\
	AB8500_TIMING_OPS,						\
	.get_voltage		= ab8500_regulator_get_voltage,		\
	.set_voltage		= ab8500_regulator_set_voltage

#define AB8500_FIXED_OPS						\
	AB8500_TIMING_OPS,						\
	.get_voltage		= ab8500_fixed_get_voltage

#define AB8500_SEL_OPS							\
	AB8500_TIMING_OPS,						\
	.get_voltage_sel	= ab8500_regulator_get_voltage_sel,	\
	.set_voltage_sel	= ab8500_regulator_set_voltage_sel

static const struct regulator_ops plain_ops = { PLAIN_OPS };
static const struct regulator_ops plain_ops_full = { REGULATOR_OPS_DEFAULTS, PLAIN_OPS };
static const struct regulator_ops ab8500_ops = { AB8500_OPS };
static const struct regulator_ops ab8500_fixed_ops = { AB8500_FIXED_OPS };
static const struct regulator_ops ab8500_sel_ops = { AB8500_SEL_OPS };
OB_DEFAULTS_BEGIN
static const struct regulator_ops ab8500_ops_full = { REGULATOR_OPS_DEFAULTS, AB8500_OPS };
static const struct regulator_ops ab8500_fixed_ops_full = { REGULATOR_OPS_DEFAULTS, AB8500_FIXED_OPS };
static const struct regulator_ops ab8500_sel_ops_full = { REGULATOR_OPS_DEFAULTS, AB8500_SEL_OPS };
OB_DEFAULTS_END

const struct regulator_desc reg_driver_plain = {
	.name = "plain", .summary = "no timing ops; set_voltage_sel over a 16-entry table",
	.n_voltages = ARRAY_SIZE(ldo_voltages), .volt_table = ldo_voltages,
	.ops = &plain_ops, .ops_full = &plain_ops_full, .timing_ops = false,
};

const struct regulator_desc reg_driver_ab8500 = {
	.name = "ab8500", .summary = "42ab616afe88's variable LDO: set_voltage/get_voltage, delay 0",
	.n_voltages = ARRAY_SIZE(ldo_voltages), .volt_table = ldo_voltages,
	.ops = &ab8500_ops, .ops_full = &ab8500_ops_full, .timing_ops = true,
};

const struct regulator_desc reg_driver_ab8500_tvout = {
	.name = "ab8500_tvout", .summary = "42ab616afe88's fixed 2.0 V LDO: .delay = 10000 us on enable",
	.n_voltages = 1, .fixed_uV = 2000000, .delay_us = 10000,
	.ops = &ab8500_fixed_ops, .ops_full = &ab8500_fixed_ops_full, .timing_ops = true,
};

const struct regulator_desc reg_driver_ab8500_sel = {
	.name = "ab8500_sel", .summary = "ab8500's variable LDO after the later conversion to selectors",
	.n_voltages = ARRAY_SIZE(ldo_voltages), .volt_table = ldo_voltages,
	.ops = &ab8500_sel_ops, .ops_full = &ab8500_sel_ops_full, .timing_ops = true,
};

const struct regulator_desc *const reg_drivers[] = {
	&reg_driver_plain, &reg_driver_ab8500, &reg_driver_ab8500_tvout, &reg_driver_ab8500_sel, NULL
};
