/* SPDX-License-Identifier: MIT */
/*
 * drivers.h - the two drivers' methods, for the strategies that call them
 * by name: direct (the plain driver's, inline) and static_call (ab8500's
 * timing ops, the targets of its trampolines).
 */
#ifndef OPSBENCH_REGULATOR_DRIVERS_H
#define OPSBENCH_REGULATOR_DRIVERS_H

#include "opsbench/regulator.h"

/* The register-level methods both drivers use (as regmap helpers are shared). */
int reg_list_voltage_table(struct regulator_dev *rdev, unsigned int selector);
int reg_get_voltage_sel_regmap(struct regulator_dev *rdev);
int reg_set_voltage_sel_regmap(struct regulator_dev *rdev, unsigned int selector);
int reg_enable_regmap(struct regulator_dev *rdev);
int reg_is_enabled_regmap(struct regulator_dev *rdev);

/* ab8500's timing ops (42ab616afe88). */
int ab8500_regulator_set_voltage_time_sel(struct regulator_dev *rdev, unsigned int old_sel,
					  unsigned int new_sel);
int ab8500_regulator_enable_time(struct regulator_dev *rdev);

#endif /* OPSBENCH_REGULATOR_DRIVERS_H */
