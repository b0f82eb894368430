// SPDX-License-Identifier: MIT
/*
 * device.c - what every regulator strategy shares: the register file, the
 * delays, the notifier, registration and the strategy table
 * (src/regulator/strategies/list.h).
 */
#include <errno.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "opsbench/tsc.h"

/* ---- the register file ---- */

void reg_file_init(struct reg_file *rf)
{
	memset(rf, 0, sizeof(*rf));
	rf->fail_read = -1;
	rf->fail_write = -1;
}

int reg_read(struct reg_file *rf, unsigned int reg, uint32_t *val)
{
	rf->reads++;
	if (reg >= REG_FILE_REGS)
		return -EINVAL;
	if ((int)reg == rf->fail_read)
		return -EIO;
	*val = READ_ONCE(rf->val[reg]);
	return 0;
}

int reg_write(struct reg_file *rf, unsigned int reg, uint32_t val)
{
	rf->writes++;
	if (reg >= REG_FILE_REGS)
		return -EINVAL;
	if ((int)reg == rf->fail_write)
		return -EIO;
	WRITE_ONCE(rf->val[reg], val);
	if (rf->n_log < REG_LOG_MAX)
		rf->log[rf->n_log] = (struct reg_write) { .reg = reg, .val = val };
	rf->n_log++;
	return 0;
}

/* ---- delays ---- */

/* Spin until @us microseconds have passed on the timestamp counter. */
static void spin_us(unsigned long us)
{
	const uint64_t start = ob_ts_begin();
	const uint64_t ticks = (uint64_t)((double)us * 1000.0 / ob_ts_ns_per_tick());

	while (ob_ts_begin() - start < ticks)
		cpu_relax();
}

void reg_udelay(struct reg_delay *d, unsigned long us)
{
	d->udelay_calls++;
	d->requested_us += us;
	if (d->mode == REG_DELAY_SPIN)
		spin_us(us);
}

void reg_mdelay(struct reg_delay *d, unsigned long ms)
{
	d->mdelay_calls++;
	d->requested_us += 1000ul * ms;
	if (d->mode == REG_DELAY_SPIN)
		spin_us(1000ul * ms);
}

/* ---- notifiers ---- */

static int count_event(struct reg_notifier *nb, unsigned long event, void *data)
{
	(void)data;
	nb->last_event = event;
	nb->calls++;
	return 0;
}

void reg_notifier_init(struct reg_notifier *nb)
{
	memset(nb, 0, sizeof(*nb));
	nb->call = count_event;
}

/* ---- registration and the strategy table ---- */

int regulator_register(const struct reg_strategy *s, struct regulator_dev *rdev,
		       const struct regulator_desc *desc, struct reg_file *regs,
		       struct reg_delay *delay, struct reg_notifier *nb, unsigned int delay_us,
		       struct ob_err *err)
{
	memset(rdev, 0, sizeof(*rdev));
	if (desc->timing_ops && !s->timing_ops)
		return ob_errorf(err, -EINVAL, "%s: cannot run driver %s, whose timing ops it would skip",
				 s->name, desc->name);
	rdev->desc = desc;
	rdev->regs = regs;
	rdev->delay = delay;
	rdev->notifier = nb;
	rdev->delay_us = delay_us;
	rdev->strategy = s;
	return s->attach ? s->attach(rdev, err) : 0;
}

void regulator_unregister(struct regulator_dev *rdev)
{
	if (rdev->strategy && rdev->strategy->detach)
		rdev->strategy->detach(rdev);
	rdev->strategy = NULL;
}

#define REG_STRATEGY(name) extern const struct reg_strategy reg_strategy_##name;
#include "regulator/strategies/list.h"
#undef REG_STRATEGY

const struct reg_strategy *const ob_reg_strategies[] = {
#define REG_STRATEGY(name) &reg_strategy_##name,
#include "regulator/strategies/list.h"
#undef REG_STRATEGY
	NULL
};

const struct reg_strategy *ob_reg_strategy_find(const char *name)
{
	for (size_t i = 0; ob_reg_strategies[i]; i++)
		if (!strcmp(ob_reg_strategies[i]->name, name))
			return ob_reg_strategies[i];
	return NULL;
}
