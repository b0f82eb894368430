/* SPDX-License-Identifier: MIT */
/*
 * regulator.h - the second case study: a regulator modelled on Linux's
 * drivers/regulator/core.c, where an optional op is called on a cold path
 * next to a register write and a settling delay of microseconds.
 *
 * Commit 77af1b2641fa (2011) added the optional set_voltage_time_sel:
 * _regulator_do_set_voltage() calls it only when both it and
 * get_voltage_sel are non-NULL, reads the old selector first (its error
 * returned as is), asks for the worst-case settling time of old -> new in
 * us, programs the new selector, waits (mdelay(delay / 1000) and
 * udelay(delay % 1000) from 1000 us on, udelay(delay) below), and notifies
 * REGULATOR_EVENT_VOLTAGE_CHANGE.  Commit 42ab616afe88 filled it in for
 * ab8500: enable_time returns the regulator's fixed delay, and
 * set_voltage_time_sel the same delay when the regulator is on (read from
 * its enable register through is_enabled, which can fail) and 0 when off.
 *
 * As for the dentry model, the path exists once (src/regulator/core.h) and
 * each strategy (src/regulator/strategies/<name>.c, listed in list.h)
 * answers only how an optional op is found and called.  Registers are a
 * small simulated register file with fault injection; delays are a
 * calibrated spin on the timestamp counter, or counted without waiting.
 */
#ifndef OPSBENCH_REGULATOR_H
#define OPSBENCH_REGULATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opsbench/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the register file ---- */

#define REG_FILE_REGS	4
#define REG_VSEL	0	/* the voltage selector */
#define REG_ENABLE	1	/* bit 0: the regulator is on */
#define REG_LOG_MAX	64	/* writes remembered, in order */

struct reg_write {
	unsigned int reg;
	uint32_t val;
};

/* A device's registers; reads and writes go through reg_read()/reg_write(). */
struct reg_file {
	uint32_t val[REG_FILE_REGS];
	int fail_read;		/* register whose reads fail with -EIO; -1: none */
	int fail_write;		/* register whose writes fail with -EIO; -1: none */
	uint64_t reads, writes;	/* accesses, failed ones included */
	struct reg_write log[REG_LOG_MAX];	/* the first REG_LOG_MAX writes */
	size_t n_log;		/* writes that succeeded (may exceed REG_LOG_MAX) */
};

/* A register file with every register 0 and no fault. */
void reg_file_init(struct reg_file *rf);

/* Read register @reg into *@val.  0, or -EIO (injected), -EINVAL (no such register). */
int reg_read(struct reg_file *rf, unsigned int reg, uint32_t *val);

/* Write @val to register @reg, and log it.  0, or -EIO (injected), -EINVAL. */
int reg_write(struct reg_file *rf, unsigned int reg, uint32_t val);

/* ---- delays ---- */

enum reg_delay_mode {
	REG_DELAY_SPIN,		/* wait: spin on the timestamp counter, calibrated against the clock */
	REG_DELAY_COUNT,	/* do not wait; only count what was asked (unit tests) */
};

/* What a device was asked to wait, and how it waits. */
struct reg_delay {
	enum reg_delay_mode mode;
	uint64_t requested_us;	/* microseconds asked for, mdelay's included */
	uint64_t udelay_calls, mdelay_calls;
};

/* udelay(@us) and mdelay(@ms), as the kernel's: wait (or count) that long. */
void reg_udelay(struct reg_delay *d, unsigned long us);
void reg_mdelay(struct reg_delay *d, unsigned long ms);

/* ---- notifiers ---- */

#define REGULATOR_EVENT_VOLTAGE_CHANGE	0x40	/* include/linux/regulator/consumer.h */

/* One block of a device's notifier chain (called through its pointer). */
struct reg_notifier {
	int (*call)(struct reg_notifier *nb, unsigned long event, void *data);
	struct reg_notifier *next;
	unsigned long last_event;
	uint64_t calls;
};

/* A notifier that counts the events it is told of (what tests and benches hang on a device). */
void reg_notifier_init(struct reg_notifier *nb);

/* ---- devices, drivers and their ops ---- */

struct regulator_dev;

/* The driver's methods, as in include/linux/regulator/driver.h. */
struct regulator_ops {
	/* list_voltage - the voltage of @selector in uV, or -EINVAL past the table. */
	int (*list_voltage)(struct regulator_dev *rdev, unsigned int selector);
	/* set_voltage_sel - program @selector.  0 or a negative errno. */
	int (*set_voltage_sel)(struct regulator_dev *rdev, unsigned int selector);
	/* get_voltage_sel - the selector programmed now, or a negative errno. */
	int (*get_voltage_sel)(struct regulator_dev *rdev);
	/*
	 * set_voltage_time_sel - optional: the worst-case settling time, in us,
	 * of a change from @old_selector to @new_selector, or a negative errno.
	 */
	int (*set_voltage_time_sel)(struct regulator_dev *rdev, unsigned int old_selector,
				    unsigned int new_selector);
	/* enable - switch the regulator on.  0 or a negative errno. */
	int (*enable)(struct regulator_dev *rdev);
	/* is_enabled - 1 on, 0 off, or a negative errno. */
	int (*is_enabled)(struct regulator_dev *rdev);
	/* enable_time - optional: the time, in us, to ramp up once enabled. */
	int (*enable_time)(struct regulator_dev *rdev);
};

/* A driver: its voltage table and its ops, in the two ways the kernel writes tables. */
struct regulator_desc {
	const char *name;
	unsigned int n_voltages;
	const int *volt_table;			/* uV, by selector */
	const struct regulator_ops *ops;	/* as the driver writes it: the optional ops NULL if it lacks them */
	const struct regulator_ops *ops_full;	/* every member set (REGULATOR_OPS_DEFAULTS), for default_ops */
	bool timing_ops;			/* has set_voltage_time_sel and enable_time */
};

/* The two drivers: one without the timing ops (every driver before 77af1b2641fa), one like ab8500. */
extern const struct regulator_desc reg_driver_plain;
extern const struct regulator_desc reg_driver_ab8500;

/* Flag bits of a device: which optional ops it has (flag_gated, static_call). */
#define REG_OP_VOLTAGE_TIME	0x1	/* set_voltage_time_sel and get_voltage_sel */
#define REG_OP_ENABLE_TIME	0x2	/* enable_time */

/* One registered regulator. */
struct regulator_dev {
	const struct regulator_desc *desc;
	struct reg_file *regs;
	struct reg_delay *delay;
	struct reg_notifier *notifier;	/* the chain's first block, or NULL */
	unsigned int delay_us;		/* ab8500's fixed per-regulator delay (info->delay) */
	unsigned int flags;		/* REG_OP_*, computed at registration */
	/* embedded: the optional methods copied into the device at registration */
	int (*set_voltage_time_sel)(struct regulator_dev *rdev, unsigned int old_selector,
				    unsigned int new_selector);
	int (*get_voltage_sel)(struct regulator_dev *rdev);
	int (*enable_time)(struct regulator_dev *rdev);
	unsigned int warnings;		/* a negative settling time: warned about and taken as 0 */
	const struct reg_strategy *strategy;	/* who registered it */
};

/* ---- the strategies ---- */

struct reg_strategy {
	const char *name;	/* as on the command line, and in bench names */
	const char *summary;	/* one line: how the optional op is reached */
	const char *origin;
	bool timing_ops;	/* false: only drivers without the timing ops (direct) */
	bool baseline;		/* what the others are compared with */
	/* attach - registration: the device's flags, embedded pointers, static calls. */
	int (*attach)(struct regulator_dev *rdev, struct ob_err *err);
	/* detach - undo attach (before the device goes). */
	void (*detach)(struct regulator_dev *rdev);
	/* set_voltage - regulator_set_voltage(): the selector for [@min_uV, @max_uV], then the commit's path. */
	int (*set_voltage)(struct regulator_dev *rdev, int min_uV, int max_uV);
	/* enable - regulator_enable(): enable_time if there is one, enable, the delay. */
	int (*enable)(struct regulator_dev *rdev);
};

/* Every regulator strategy, in table order, NULL-terminated. */
extern const struct reg_strategy *const ob_reg_strategies[];

/* The regulator strategy called @name, or NULL. */
const struct reg_strategy *ob_reg_strategy_find(const char *name);

/*
 * regulator_register - set up @rdev for @desc under strategy @s: its
 * registers @regs, delays @delay, notifier @nb (may be NULL) and fixed
 * delay @delay_us.  Returns 0, or -EINVAL (with @err) when @s cannot run
 * @desc (direct and a driver with timing ops), or a static call's error.
 */
int regulator_register(const struct reg_strategy *s, struct regulator_dev *rdev,
		       const struct regulator_desc *desc, struct reg_file *regs,
		       struct reg_delay *delay, struct reg_notifier *nb, unsigned int delay_us,
		       struct ob_err *err);

/* regulator_unregister - undo regulator_register(). */
void regulator_unregister(struct regulator_dev *rdev);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_REGULATOR_H */
