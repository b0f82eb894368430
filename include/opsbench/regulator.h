/* SPDX-License-Identifier: MIT */
/*
 * regulator.h - the second case study: a regulator modelled on Linux's
 * drivers/regulator/core.c, where an optional op is called on a cold path
 * next to register accesses and settling delays.
 *
 * Two generations of the same core (src/regulator/core.h):
 *
 *  - 2011, as commit 77af1b2641fa left _regulator_do_set_voltage() and the
 *    _regulator_enable() of that time.  The commit added the optional
 *    set_voltage_time_sel, called only from the set_voltage_sel branch.
 *    Commit 42ab616afe88 filled it in for ab8500, whose variable
 *    regulators were then driven through set_voltage/get_voltage: with
 *    both commits, ab8500's new op was never reached.  What did run is its
 *    enable_time, a 10 ms wait on enabling one fixed 2.0 V LDO.
 *  - 6.x, the core as it runs now: the old voltage read first, the old
 *    selector only when the regulator is on, set_voltage_time_sel only
 *    when the selector changed, otherwise a default from the ramp delay,
 *    and _regulator_delay_helper()'s sleeps.
 *
 * As for the dentry model, each path exists once and each strategy
 * (src/regulator/strategies/<name>.c, listed in list.h) answers only how
 * an optional op is found and called.  Registers are a small simulated
 * register file with fault injection, behind a bus whose per-access cost
 * is a parameter (MMIO or I2C); delays are waited as the kernel waits
 * (spin for udelay/mdelay, nanosleep for usleep_range/msleep) or only
 * counted.  docs/regulator.md says what is modelled and what is left out.
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

/* ---- a trace of what a call did, in order (tests; NULL in benchmarks) ---- */

enum reg_event_kind {
	REG_EV_READ,		/* arg: register; val: the value read (0 on error) */
	REG_EV_WRITE,		/* arg: register; val: the value written */
	REG_EV_UDELAY,		/* arg: us (busy-wait) */
	REG_EV_MDELAY,		/* arg: ms (busy-wait) */
	REG_EV_USLEEP,		/* arg: the range's minimum in us (sleeps) */
	REG_EV_MSLEEP,		/* arg: ms (sleeps) */
	REG_EV_NOTIFY,		/* arg: the event */
};

struct reg_event {
	enum reg_event_kind kind;
	unsigned long arg;
	uint32_t val;
	int err;		/* accesses: 0 or the error returned */
};

#define REG_TRACE_MAX	32

struct reg_trace {
	struct reg_event ev[REG_TRACE_MAX];	/* the first REG_TRACE_MAX events */
	size_t n;				/* events (may exceed REG_TRACE_MAX) */
};

/* Append an event to @t (NULL: nothing). */
void reg_trace_add(struct reg_trace *t, enum reg_event_kind kind, unsigned long arg, uint32_t val,
		   int err);

/* ---- the bus and the register file ---- */

/*
 * What one register access costs on the way to the device, besides the
 * simulated register file's own load or store.  The figures and their
 * sources are at their definitions (src/regulator/device.c).
 */
struct reg_bus {
	const char *name;	/* as in bench names: mmio, i2c */
	const char *summary;
	unsigned int read_ns;	/* added to every register read */
	unsigned int write_ns;	/* added to every register write */
};

/* MMIO-like: nothing added (the access is a load or store: nanoseconds). */
extern const struct reg_bus reg_bus_mmio;
/* I2C-like: a register read or write on a 400 kHz bus, the wire time only. */
extern const struct reg_bus reg_bus_i2c;
/* Both, NULL-terminated, in report order. */
extern const struct reg_bus *const reg_buses[];

#define REG_FILE_REGS	4
#define REG_VSEL	0	/* the voltage selector */
#define REG_ENABLE	1	/* bit 0: the regulator is on */

/* A device's registers; reads and writes go through reg_read()/reg_write(). */
struct reg_file {
	uint32_t val[REG_FILE_REGS];
	int fail_read;		/* register whose reads fail with -EIO; -1: none */
	int fail_write;		/* register whose writes fail with -EIO; -1: none */
	const struct reg_bus *bus;	/* never NULL: reg_file_init() sets MMIO */
	bool bus_wait;		/* busy-wait each access's bus time; else only count it */
	uint64_t reads, writes;	/* accesses, failed ones included */
	uint64_t bus_ns;	/* bus time asked for by those accesses */
	struct reg_trace *trace;	/* NULL: not traced */
};

/* A register file with every register 0, no fault, on the MMIO bus. */
void reg_file_init(struct reg_file *rf);

/* Read register @reg into *@val.  0, or -EIO (injected), -EINVAL (no such register). */
int reg_read(struct reg_file *rf, unsigned int reg, uint32_t *val);

/* Write @val to register @reg.  0, or -EIO (injected), -EINVAL. */
int reg_write(struct reg_file *rf, unsigned int reg, uint32_t val);

/* ---- delays ---- */

enum reg_delay_mode {
	REG_DELAY_WAIT,		/* wait as the kernel does: spin for udelay/mdelay, sleep otherwise */
	REG_DELAY_COUNT,	/* do not wait; only count what was asked */
};

/* What a device was asked to wait, and how it waits. */
struct reg_delay {
	enum reg_delay_mode mode;
	uint64_t requested_us;	/* microseconds asked for, all four kinds */
	uint64_t udelay_calls, mdelay_calls, usleep_calls, msleep_calls;
	struct reg_trace *trace;	/* NULL: not traced */
};

/* udelay(@us) and mdelay(@ms), as the kernel's: a busy-wait (spin on the timestamp counter). */
void reg_udelay(struct reg_delay *d, unsigned long us);
void reg_mdelay(struct reg_delay *d, unsigned long ms);
/*
 * usleep_range(@min_us, @max_us) and msleep(@ms): the kernel sleeps, so
 * does this (nanosleep of the minimum; the process's timer slack, 50 us
 * by default, stands in for the range's).
 */
void reg_usleep_range(struct reg_delay *d, unsigned long min_us, unsigned long max_us);
void reg_msleep(struct reg_delay *d, unsigned long ms);

/* ---- notifiers ---- */

/* include/linux/regulator/consumer.h */
#define REGULATOR_EVENT_VOLTAGE_CHANGE		0x40
#define REGULATOR_EVENT_PRE_VOLTAGE_CHANGE	0x100
#define REGULATOR_EVENT_ABORT_VOLTAGE_CHANGE	0x200
#define REGULATOR_EVENT_ENABLE			0x1000
/* include/linux/notifier.h: a block's answer that stops the chain */
#define NOTIFY_STOP_MASK			0x8000

/* One block of a device's notifier chain (called through its pointer). */
struct reg_notifier {
	int (*call)(struct reg_notifier *nb, unsigned long event, void *data);
	struct reg_notifier *next;
	unsigned long last_event;
	uint64_t calls;
	struct reg_trace *trace;	/* NULL: not traced */
};

/* A notifier that counts the events it is told of (what tests and benches hang on a device). */
void reg_notifier_init(struct reg_notifier *nb);

/* ---- devices, drivers and their ops ---- */

struct regulator_dev;

/*
 * The driver's methods, as in include/linux/regulator/driver.h.  A driver
 * sets either set_voltage (it maps the range itself) or set_voltage_sel
 * with list_voltage (the core maps it); the core tests which.
 */
struct regulator_ops {
	/* list_voltage - the voltage of @selector in uV, or -EINVAL past the table. */
	int (*list_voltage)(struct regulator_dev *rdev, unsigned int selector);
	/* set_voltage - program a voltage in [@min_uV, @max_uV]; its selector in *@selector. */
	int (*set_voltage)(struct regulator_dev *rdev, int min_uV, int max_uV, unsigned int *selector);
	/* get_voltage - the voltage now, in uV, or a negative errno. */
	int (*get_voltage)(struct regulator_dev *rdev);
	/* set_voltage_sel - program @selector.  0 or a negative errno. */
	int (*set_voltage_sel)(struct regulator_dev *rdev, unsigned int selector);
	/* get_voltage_sel - the selector programmed now, or a negative errno. */
	int (*get_voltage_sel)(struct regulator_dev *rdev);
	/*
	 * set_voltage_time_sel - optional: the worst-case settling time, in us,
	 * of a change from @old_selector to @new_selector, or a negative errno.
	 * The core calls it only where it also has get_voltage_sel.
	 */
	int (*set_voltage_time_sel)(struct regulator_dev *rdev, unsigned int old_selector,
				    unsigned int new_selector);
	/* enable - switch the regulator on.  0 or a negative errno. */
	int (*enable)(struct regulator_dev *rdev);
	/* is_enabled - 1 on, 0 off, or a negative errno.  NULL: the core takes it as on. */
	int (*is_enabled)(struct regulator_dev *rdev);
	/* enable_time - optional: the time, in us, to ramp up once enabled. */
	int (*enable_time)(struct regulator_dev *rdev);
};

/* A driver (one regulator of it): its voltages, its ops, its fixed timings. */
struct regulator_desc {
	const char *name;			/* as in bench names */
	const char *summary;			/* one line: what it stands for */
	unsigned int n_voltages;
	const int *volt_table;			/* uV, by selector; NULL for a fixed regulator */
	int fixed_uV;				/* a fixed regulator's voltage; 0: not fixed */
	const struct regulator_ops *ops;	/* as the driver writes it: the optional ops NULL if it lacks them */
	const struct regulator_ops *ops_full;	/* the same, completed by REGULATOR_OPS_DEFAULTS, for default_ops */
	bool timing_ops;			/* has set_voltage_time_sel or enable_time */
	unsigned int delay_us;			/* ab8500's info->delay: its timing ops return it */
	unsigned int ramp_delay;		/* uV/us for the 6.x core's default; 0: none (every driver here) */
	unsigned int enable_time;		/* us, the 6.x core's default enable_time; 0 here */
};

/* Without the timing ops, on set_voltage_sel: any driver before 77af1b2641fa. */
extern const struct regulator_desc reg_driver_plain;
/* ab8500's variable LDOs as 42ab616afe88 has them: set_voltage/get_voltage, delay 0. */
extern const struct regulator_desc reg_driver_ab8500;
/* ab8500's fixed 2.0 V LDO of 42ab616afe88: one voltage, .delay = 10000 (enable_time). */
extern const struct regulator_desc reg_driver_ab8500_tvout;
/* The later conversion of ab8500's variable LDOs to selectors (not in either commit). */
extern const struct regulator_desc reg_driver_ab8500_sel;
/* Every driver, NULL-terminated. */
extern const struct regulator_desc *const reg_drivers[];

/* Flag bits of a device: which optional ops it has (flag_gated, static_call). */
#define REG_OP_TIME_SEL		0x1	/* set_voltage_time_sel */
#define REG_OP_GET_SEL		0x2	/* get_voltage_sel (the old selector for it) */
#define REG_OP_ENABLE_TIME	0x4	/* enable_time */

/* One registered regulator. */
struct regulator_dev {
	const struct regulator_desc *desc;
	struct reg_file *regs;
	struct reg_delay *delay;
	struct reg_notifier *notifier;	/* the chain's first block, or NULL */
	unsigned int use_count;		/* enables not yet balanced: the core skips enable above 0 */
	unsigned int flags;		/* REG_OP_*, computed at registration */
	/* embedded: the optional methods copied into the device at registration */
	int (*set_voltage_time_sel)(struct regulator_dev *rdev, unsigned int old_selector,
				    unsigned int new_selector);
	int (*get_voltage_sel)(struct regulator_dev *rdev);
	int (*enable_time)(struct regulator_dev *rdev);
	unsigned int warnings;		/* a negative time: warned about and taken as 0 */
	uint64_t list_voltage_calls;	/* counted by the drivers' list_voltage */
	const struct reg_strategy *strategy;	/* who registered it */
};

/* ---- the core generations and the strategies ---- */

enum reg_core {
	REG_CORE_2011,		/* 77af1b2641fa's _regulator_do_set_voltage(), that time's _regulator_enable() */
	REG_CORE_6X,		/* today's */
	REG_CORE_COUNT
};

/* "2011", "6.x": as in bench names. */
extern const char *const reg_core_names[REG_CORE_COUNT];

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
	/* set_voltage - regulator_set_voltage() to [@min_uV, @max_uV], by core generation. */
	int (*set_voltage[REG_CORE_COUNT])(struct regulator_dev *rdev, int min_uV, int max_uV);
	/* enable - regulator_enable(), by core generation. */
	int (*enable[REG_CORE_COUNT])(struct regulator_dev *rdev);
};

/* Every regulator strategy, in table order, NULL-terminated. */
extern const struct reg_strategy *const ob_reg_strategies[];

/* The regulator strategy called @name, or NULL. */
const struct reg_strategy *ob_reg_strategy_find(const char *name);

/*
 * regulator_register - set up @rdev for @desc under strategy @s: its
 * registers @regs, delays @delay and notifier @nb (may be NULL), off and
 * unused (use_count 0).  Returns 0, or -EINVAL (with @err) when @s cannot
 * run @desc (direct and a driver with timing ops), or a static call's
 * error.
 */
int regulator_register(const struct reg_strategy *s, struct regulator_dev *rdev,
		       const struct regulator_desc *desc, struct reg_file *regs,
		       struct reg_delay *delay, struct reg_notifier *nb, struct ob_err *err);

/* regulator_unregister - undo regulator_register(). */
void regulator_unregister(struct regulator_dev *rdev);

/*
 * reg_ramp_time_us - the 6.x core's _regulator_set_voltage_time() from
 * @desc's ramp delay: ceil(|@new_uV - @old_uV| / ramp_delay) us, 0 without
 * one.  (The board's constraints, which come first in the kernel, are not
 * modelled.)
 */
int reg_ramp_time_us(const struct regulator_desc *desc, int old_uV, int new_uV);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_REGULATOR_H */
