// SPDX-License-Identifier: MIT
/*
 * device.c - what every regulator strategy shares: the trace, the buses
 * and the register file, the delays, the notifier, registration and the
 * strategy table (src/regulator/strategies/list.h).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "opsbench/compiler.h"
#include "opsbench/regulator.h"
#include "opsbench/tsc.h"

/* ---- the trace ---- */

void reg_trace_add(struct reg_trace *t, enum reg_event_kind kind, unsigned long arg, uint32_t val,
		   int err)
{
	if (!t)
		return;
	if (t->n < REG_TRACE_MAX)
		t->ev[t->n] = (struct reg_event) { .kind = kind, .arg = arg, .val = val, .err = err };
	t->n++;
}

/* ---- waiting ---- */

/* Spin until @ns nanoseconds have passed on the timestamp counter. */
static void spin_ns(uint64_t ns)
{
	const uint64_t start = ob_ts_begin();
	const uint64_t ticks = (uint64_t)((double)ns / ob_ts_ns_per_tick());

	while (ob_ts_begin() - start < ticks)
		cpu_relax();
}

/* Sleep @us microseconds (nanosleep, resumed after a signal). */
static void sleep_us(unsigned long us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- the buses ---- */

const struct reg_bus reg_bus_mmio = {
	.name = "mmio",
	.summary = "memory-mapped registers: the access is a load or a store (nanoseconds)",
};

/*
 * An I2C register access on a 400 kHz (fast-mode) bus, 2.5 us per bit,
 * the wire time alone.  A read is a write of the register address then a
 * read, joined by a repeated start: START, the device address and R/W
 * bit (8) and its ACK (1), the register address (8) and ACK (1), a
 * repeated START, the device address again (8) and ACK (1), the data
 * byte (8) and the master's NACK (1), STOP: 39 bit times, 97.5 us.  A
 * write is START, address + ACK, register + ACK, data + ACK, STOP: 29 bit
 * times, 72.5 us.  The start and stop conditions are counted as a bit
 * time each (fast mode's set-up and hold times are 0.6 us each, its bus
 * free time 1.3 us).  ab8500's registers are reached through the PRCMU
 * (prcmu_abb_read/prcmu_abb_write, over the PRCMU's mailbox to its I2C):
 * the mailbox round trip, the interrupt and the caller's wake-up come on
 * top, so this is a lower bound for ab8500.  A 100 kHz bus costs four
 * times as much.
 */
const struct reg_bus reg_bus_i2c = {
	.name = "i2c",
	.summary = "a 400 kHz I2C register access, wire time only: read 39 bit times, write 29",
	.read_ns = 39 * 2500,
	.write_ns = 29 * 2500,
};

const struct reg_bus *const reg_buses[] = { &reg_bus_mmio, &reg_bus_i2c, NULL };

/* ---- the register file ---- */

void reg_file_init(struct reg_file *rf)
{
	memset(rf, 0, sizeof(*rf));
	rf->fail_read = -1;
	rf->fail_write = -1;
	rf->bus = &reg_bus_mmio;
}

/* The bus time of one access: counted, and waited when the file says so. */
static inline void bus_time(struct reg_file *rf, unsigned int ns)
{
	rf->bus_ns += ns;
	if (ns && rf->bus_wait)
		spin_ns(ns);
}

int reg_read(struct reg_file *rf, unsigned int reg, uint32_t *val)
{
	int err = 0;

	rf->reads++;
	bus_time(rf, rf->bus->read_ns);
	if (reg >= REG_FILE_REGS)
		err = -EINVAL;
	else if ((int)reg == rf->fail_read)
		err = -EIO;
	else
		*val = READ_ONCE(rf->val[reg]);
	if (unlikely(rf->trace))
		reg_trace_add(rf->trace, REG_EV_READ, reg, err ? 0 : *val, err);
	return err;
}

int reg_write(struct reg_file *rf, unsigned int reg, uint32_t val)
{
	int err = 0;

	rf->writes++;
	bus_time(rf, rf->bus->write_ns);
	if (reg >= REG_FILE_REGS)
		err = -EINVAL;
	else if ((int)reg == rf->fail_write)
		err = -EIO;
	else
		WRITE_ONCE(rf->val[reg], val);
	if (unlikely(rf->trace))
		reg_trace_add(rf->trace, REG_EV_WRITE, reg, val, err);
	return err;
}

/* ---- delays ---- */

void reg_udelay(struct reg_delay *d, unsigned long us)
{
	d->udelay_calls++;
	d->requested_us += us;
	reg_trace_add(d->trace, REG_EV_UDELAY, us, 0, 0);
	if (d->mode == REG_DELAY_WAIT && us)
		spin_ns(1000ull * us);
}

void reg_mdelay(struct reg_delay *d, unsigned long ms)
{
	d->mdelay_calls++;
	d->requested_us += 1000ul * ms;
	reg_trace_add(d->trace, REG_EV_MDELAY, ms, 0, 0);
	if (d->mode == REG_DELAY_WAIT && ms)
		spin_ns(1000000ull * ms);
}

void reg_usleep_range(struct reg_delay *d, unsigned long min_us, unsigned long max_us)
{
	(void)max_us;
	d->usleep_calls++;
	d->requested_us += min_us;
	reg_trace_add(d->trace, REG_EV_USLEEP, min_us, 0, 0);
	if (d->mode == REG_DELAY_WAIT)
		sleep_us(min_us);
}

void reg_msleep(struct reg_delay *d, unsigned long ms)
{
	d->msleep_calls++;
	d->requested_us += 1000ul * ms;
	reg_trace_add(d->trace, REG_EV_MSLEEP, ms, 0, 0);
	if (d->mode == REG_DELAY_WAIT)
		sleep_us(1000ul * ms);
}

/* ---- notifiers ---- */

static int count_event(struct reg_notifier *nb, unsigned long event, void *data)
{
	(void)data;
	nb->last_event = event;
	nb->calls++;
	reg_trace_add(nb->trace, REG_EV_NOTIFY, event, 0, 0);
	return 0;
}

void reg_notifier_init(struct reg_notifier *nb)
{
	memset(nb, 0, sizeof(*nb));
	nb->call = count_event;
}

/* ---- the 6.x core's ramp-delay default ---- */

int reg_ramp_time_us(const struct regulator_desc *desc, int old_uV, int new_uV)
{
	long long diff = (long long)new_uV - old_uV;

	if (!desc->ramp_delay)
		return 0;
	if (diff < 0)
		diff = -diff;
	return (int)((diff + desc->ramp_delay - 1) / desc->ramp_delay);
}

/* ---- registration and the strategy table ---- */

const char *const reg_core_names[REG_CORE_COUNT] = {
	[REG_CORE_2011] = "2011",
	[REG_CORE_6X] = "6.x",
};

int regulator_register(const struct reg_strategy *s, struct regulator_dev *rdev,
		       const struct regulator_desc *desc, struct reg_file *regs,
		       struct reg_delay *delay, struct reg_notifier *nb, struct ob_err *err)
{
	memset(rdev, 0, sizeof(*rdev));
	if (desc->timing_ops && !s->timing_ops)
		return ob_errorf(err, -EINVAL, "%s: cannot run driver %s, whose timing ops it would skip",
				 s->name, desc->name);
	rdev->desc = desc;
	rdev->regs = regs;
	rdev->delay = delay;
	rdev->notifier = nb;
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
