// SPDX-License-Identifier: MIT
/*
 * drivers.c - two regulator drivers over the simulated register file: one
 * without the timing ops, as every driver was before commit 77af1b2641fa,
 * and one like ab8500 after 42ab616afe88 (a fixed settling delay per
 * regulator; none while the regulator is off).  Each has its ops table as
 * a driver writes it (optional ops NULL) and the same table completed by
 * REGULATOR_OPS_DEFAULTS, for the default_ops strategy.
 */
#include <errno.h>

#include "opsbench/compiler.h"
#include "regulator/drivers.h"

/* An LDO's table, 1.2 V to 3.3 V (ab8500's ldo_vauxn_voltages have this shape). */
static const int ldo_voltages[] = {
	1100000, 1200000, 1300000, 1400000, 1500000, 1800000, 1850000, 1900000,
	2500000, 2650000, 2700000, 2750000, 2800000, 2900000, 3000000, 3300000,
};

#define VSEL_MASK	0xfu
#define ENABLE_BIT	0x1u

noinline int reg_list_voltage_table(struct regulator_dev *rdev, unsigned int selector)
{
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

/* If the regulator is off, it takes no time to settle (42ab616afe88). */
noinline int ab8500_regulator_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
						   unsigned int new_sel)
{
	int ret = reg_is_enabled_regmap(rdev);

	(void)old_sel;
	(void)new_sel;
	if (ret < 0)
		return ret;
	if (!ret)
		return 0;
	return (int)rdev->delay_us;
}

noinline int ab8500_regulator_enable_time(struct regulator_dev *rdev)
{
	return (int)rdev->delay_us;
}

/* The mandatory defaults of default_ops: no settling time. */
static noinline int default_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
						 unsigned int new_sel)
{
	(void)rdev;
	(void)old_sel;
	(void)new_sel;
	return 0;
}

static noinline int default_enable_time(struct regulator_dev *rdev)
{
	(void)rdev;
	return 0;
}

#define REGULATOR_OPS_DEFAULTS						\
	.set_voltage_time_sel	= default_set_voltage_time_sel,		\
	.enable_time		= default_enable_time

#define REGMAP_OPS							\
	.list_voltage		= reg_list_voltage_table,		\
	.get_voltage_sel	= reg_get_voltage_sel_regmap,		\
	.set_voltage_sel	= reg_set_voltage_sel_regmap,		\
	.enable			= reg_enable_regmap,			\
	.is_enabled		= reg_is_enabled_regmap

static const struct regulator_ops plain_ops = { REGMAP_OPS };
static const struct regulator_ops plain_ops_full = { REGULATOR_OPS_DEFAULTS, REGMAP_OPS };

#define AB8500_OPS							\
	REGMAP_OPS,							\
	.set_voltage_time_sel	= ab8500_regulator_set_voltage_time_sel, \
	.enable_time		= ab8500_regulator_enable_time

static const struct regulator_ops ab8500_ops = { AB8500_OPS };
OB_DEFAULTS_BEGIN
static const struct regulator_ops ab8500_ops_full = { REGULATOR_OPS_DEFAULTS, AB8500_OPS };
OB_DEFAULTS_END

const struct regulator_desc reg_driver_plain = {
	.name = "plain", .n_voltages = ARRAY_SIZE(ldo_voltages), .volt_table = ldo_voltages,
	.ops = &plain_ops, .ops_full = &plain_ops_full, .timing_ops = false,
};

const struct regulator_desc reg_driver_ab8500 = {
	.name = "ab8500", .n_voltages = ARRAY_SIZE(ldo_voltages), .volt_table = ldo_voltages,
	.ops = &ab8500_ops, .ops_full = &ab8500_ops_full, .timing_ops = true,
};
