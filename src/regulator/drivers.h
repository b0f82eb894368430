/* SPDX-License-Identifier: MIT */
/*
 * drivers.h - the drivers' methods, for the strategies that call them by
 * name: direct (the plain driver's, inline) and static_call (ab8500's
 * timing ops, the targets of its trampolines).
 */
#ifndef OPSBENCH_REGULATOR_DRIVERS_H
#define OPSBENCH_REGULATOR_DRIVERS_H

#include "opsbench/regulator.h"

/* The plain driver's register-level methods. */
int reg_list_voltage_table(struct regulator_dev *rdev, unsigned int selector);
int reg_get_voltage_sel_regmap(struct regulator_dev *rdev);
int reg_set_voltage_sel_regmap(struct regulator_dev *rdev, unsigned int selector);
int reg_enable_regmap(struct regulator_dev *rdev);
int reg_is_enabled_regmap(struct regulator_dev *rdev);

/* ab8500's methods (42ab616afe88, and the later selector ops). */
int ab8500_list_voltage(struct regulator_dev *rdev, unsigned int selector);
int ab8500_regulator_enable(struct regulator_dev *rdev);
int ab8500_regulator_is_enabled(struct regulator_dev *rdev);
int ab8500_regulator_set_voltage(struct regulator_dev *rdev, int min_uV, int max_uV,
				 unsigned int *selector);
int ab8500_regulator_get_voltage(struct regulator_dev *rdev);
int ab8500_fixed_get_voltage(struct regulator_dev *rdev);
int ab8500_regulator_enable_time(struct regulator_dev *rdev);
int ab8500_regulator_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
					  unsigned int new_sel);
int ab8500_regulator_get_voltage_sel(struct regulator_dev *rdev);
int ab8500_regulator_set_voltage_sel(struct regulator_dev *rdev, unsigned int selector);

#endif /* OPSBENCH_REGULATOR_DRIVERS_H */
