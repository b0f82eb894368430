// SPDX-License-Identifier: MIT
/* pmu.c - the perf_event_open(2) counter group (see include/opsbench/pmu.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "opsbench/compiler.h"
#include "opsbench/pmu.h"

static int sys_perf_event_open(void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

pmu_open_fn *pmu_sys_open = sys_perf_event_open;

#define HW_CACHE(cache, op, result) \
	((cache) | ((op) << 8) | ((result) << 16))

/* Each event: our name, the perf tool's name of the same event, and its attr. */
static const struct {
	const char *name;
	const char *perf_name;
	uint32_t type;
	uint64_t config;
} events[PMU_NR_EVENTS] = {
	[PMU_CYCLES]	      = { "cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[PMU_INSTRUCTIONS]    = { "instructions", "instructions", PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS },
	[PMU_BRANCHES]	      = { "branches", "branches", PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	[PMU_BRANCH_MISSES]   = { "branch-misses", "branch-misses", PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_BRANCH_MISSES },
	[PMU_L1D_READ_MISSES] = { "L1D-read-misses", "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
				  HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
					   PERF_COUNT_HW_CACHE_RESULT_MISS) },
	[PMU_LLC_READ_MISSES] = { "LLC-read-misses", "LLC-load-misses", PERF_TYPE_HW_CACHE,
				  HW_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
					   PERF_COUNT_HW_CACHE_RESULT_MISS) },
};

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

const char *pmu_event_name(enum pmu_event e)
{
	return (unsigned int)e < PMU_NR_EVENTS ? events[e].name : "?";
}

const char *pmu_event_perf_name(enum pmu_event e)
{
	return (unsigned int)e < PMU_NR_EVENTS ? events[e].perf_name : "?";
}

const char *pmu_why(int err)
{
	switch (err) {
	case ENOENT:
		return "ENOENT: this machine has no such hardware event (a VM without a virtual PMU?)";
	case EOPNOTSUPP:
		return "EOPNOTSUPP: the PMU cannot count it";
	case EACCES:
	case EPERM:
		return "EACCES: forbidden by kernel.perf_event_paranoid; "
		       "`sysctl -w kernel.perf_event_paranoid=2` (or lower) allows user-space counting";
	case ENOSYS:
		return "ENOSYS: perf_event_open is not implemented (an emulator such as qemu-user?)";
	case EINVAL:
		return "EINVAL: the kernel refused the event or the group";
	case EMFILE:
		return "EMFILE: out of file descriptors";
	default:
		return strerror(err);
	}
}

int pmu_open(struct pmu *p, FILE *log)
{
	int opened = 0;

	p->leader = -1;
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		struct perf_event_attr attr;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = events[e].type;
		attr.config = events[e].config;
		attr.read_format = READ_FORMAT;
		attr.disabled = p->leader < 0;	/* the leader starts the group */
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;

		p->fd[e] = -1;
		p->err[e] = 0;
		errno = 0;
		fd = pmu_sys_open(&attr, 0, -1, p->leader < 0 ? -1 : p->fd[p->leader], 0);
		if (fd < 0) {
			p->err[e] = errno ? errno : EINVAL;
			continue;
		}
		if (ioctl(fd, PERF_EVENT_IOC_ID, &p->id[e]) < 0) {
			p->err[e] = errno;
			close(fd);
			continue;
		}
		p->fd[e] = fd;
		if (p->leader < 0)
			p->leader = e;
		opened++;
	}

	if (log && opened < PMU_NR_EVENTS) {
		/* One line: the dropped events, grouped by reason. */
		bool done[PMU_NR_EVENTS] = { false };

		fprintf(log, "pmu: not counting");
		for (int e = 0; e < PMU_NR_EVENTS; e++) {
			const char *sep = " ";

			if (!p->err[e] || done[e])
				continue;
			for (int f = e; f < PMU_NR_EVENTS; f++) {
				if (p->err[f] != p->err[e])
					continue;
				fprintf(log, "%s%s", sep, events[f].name);
				sep = ", ";
				done[f] = true;
			}
			fprintf(log, " (%s);", pmu_why(p->err[e]));
		}
		fprintf(log, opened ? " counting the rest\n" : " time only\n");
	}
	return opened;
}

void pmu_close(struct pmu *p)
{
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		if (p->fd[e] >= 0)
			close(p->fd[e]);
		p->fd[e] = -1;
	}
	p->leader = -1;
}

void pmu_start(struct pmu *p)
{
	if (p->leader < 0)
		return;
	ioctl(p->fd[p->leader], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(p->fd[p->leader], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

int pmu_scale(const struct pmu *p, const uint64_t *buf, size_t words, struct pmu_reading *r)
{
	uint64_t nr, enabled, running;

	memset(r, 0, sizeof(*r));
	if (words < 3)
		return -1;
	nr = buf[0];
	enabled = buf[1];
	running = buf[2];
	if (nr > PMU_NR_EVENTS || words < 3 + 2 * nr)
		return -1;
	if (!running || !enabled)
		return 0;		/* the group never ran: nothing counted */
	r->running_share = running >= enabled ? 1.0 : (double)running / (double)enabled;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t value = buf[3 + 2 * i], id = buf[4 + 2 * i];

		for (int e = 0; e < PMU_NR_EVENTS; e++) {
			if (p->fd[e] < 0 || p->id[e] != id)
				continue;
			r->value[e] = (double)value * (double)enabled / (double)running;
			r->counted[e] = true;
		}
	}
	return 0;
}

int pmu_stop(struct pmu *p, struct pmu_reading *r)
{
	uint64_t buf[3 + 2 * PMU_NR_EVENTS];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (p->leader < 0)
		return 0;
	ioctl(p->fd[p->leader], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	n = read(p->fd[p->leader], buf, sizeof(buf));
	if (n < (ssize_t)(3 * sizeof(uint64_t)))
		return -1;
	return pmu_scale(p, buf, (size_t)n / sizeof(uint64_t), r);
}
