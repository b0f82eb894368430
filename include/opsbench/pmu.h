/* SPDX-License-Identifier: MIT */
/*
 * pmu.h - hardware counters through perf_event_open(2), as one group.
 *
 * Six generic events (PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE, so the
 * same code counts on x86-64 and on arm64, where the kernel maps them to
 * PMUv3 events), user space only, read together with PERF_FORMAT_GROUP and
 * the enabled/running times, and scaled for multiplexing.
 *
 * An event the machine cannot count is dropped with its reason; the rest go
 * on.  pmu_open() prints one line naming every dropped event and why (a VM
 * without a PMU: ENOENT; perf_event_paranoid: EACCES, with the sysctl that
 * allows it; an emulator: ENOSYS).  With nothing left, the caller runs with
 * time only.
 */
#ifndef OPSBENCH_PMU_H
#define OPSBENCH_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pmu_event {
	PMU_CYCLES,
	PMU_INSTRUCTIONS,
	PMU_BRANCHES,
	PMU_BRANCH_MISSES,
	PMU_L1D_READ_MISSES,
	PMU_LLC_READ_MISSES,
	PMU_NR_EVENTS
};

struct pmu {
	int fd[PMU_NR_EVENTS];		/* -1: not counting */
	uint64_t id[PMU_NR_EVENTS];	/* kernel's event id, to match group reads */
	int leader;			/* index of the group leader, -1: none */
	int err[PMU_NR_EVENTS];		/* errno that dropped the event, 0 if none */
};

/* One reading: each event's count scaled for multiplexing. */
struct pmu_reading {
	double value[PMU_NR_EVENTS];
	bool counted[PMU_NR_EVENTS];	/* false: dropped, or the group never ran */
	double running_share;		/* time_running / time_enabled, 0..1 */
};

/*
 * The system call, replaceable so that tests can inject failures.  Same
 * contract as perf_event_open(2): an fd, or -1 with errno set.
 */
typedef int pmu_open_fn(void *attr, int pid, int cpu, int group_fd, unsigned long flags);
extern pmu_open_fn *pmu_sys_open;

/* Short name of @e, as used in counter names: "cycles", "L1D-read-misses", ... */
const char *pmu_event_name(enum pmu_event e);

/* The perf tool's name of the same event ("L1-dcache-load-misses"), for perf stat -e. */
const char *pmu_event_perf_name(enum pmu_event e);

/*
 * pmu_open - open the group on the calling thread.  Prints one line to @log
 * (NULL: silent) naming the events it drops and why.  Returns the number of
 * events that will be counted (0: time only).
 */
int pmu_open(struct pmu *p, FILE *log);

/* pmu_close - close whatever pmu_open() opened. */
void pmu_close(struct pmu *p);

/* pmu_start - reset and enable the group; nothing if no event is open. */
void pmu_start(struct pmu *p);

/*
 * pmu_stop - disable the group and read it into @r.  Returns 0, or -1 if the
 * read failed (then nothing in @r is counted).
 */
int pmu_stop(struct pmu *p, struct pmu_reading *r);

/*
 * pmu_scale - turn a PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING | ID read buffer into @r: each value is multiplied by
 * enabled / running; with running == 0 nothing is counted.  Exposed for
 * tests.  Returns 0, or -1 for a malformed buffer.
 */
int pmu_scale(const struct pmu *p, const uint64_t *buf, size_t words, struct pmu_reading *r);

/* pmu_why - one phrase for an errno from perf_event_open (for messages). */
const char *pmu_why(int err);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_PMU_H */
