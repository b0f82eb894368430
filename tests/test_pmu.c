// SPDX-License-Identifier: MIT
/* test_pmu.c - the counter group's error paths and scaling (src/pmu.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "opsbench/pmu.h"

/* ---- injected perf_event_open ---- */

static pmu_open_fn *real_open;		/* the library's, saved by main() */

static int inject_errno;		/* every call fails with this */
static int calls;

static int fail_open(void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	(void)attr; (void)pid; (void)cpu; (void)group_fd; (void)flags;
	calls++;
	errno = inject_errno;
	return -1;
}

/* Hardware events: ENOENT; cache events: EOPNOTSUPP. */
static int mixed_open(void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	const struct perf_event_attr *a = attr;

	(void)pid; (void)cpu; (void)group_fd; (void)flags;
	assert_int_equal(a->exclude_kernel, 1);		/* user space only */
	errno = a->type == PERF_TYPE_HW_CACHE ? EOPNOTSUPP : ENOENT;
	return -1;
}

/* Open with @fn, capture the one line it logs into @line. */
static int open_logged(pmu_open_fn *fn, struct pmu *p, char *line, size_t len)
{
	FILE *f = tmpfile();
	int n;

	assert_non_null(f);
	pmu_sys_open = fn;
	n = pmu_open(p, f);
	rewind(f);
	memset(line, 0, len);
	if (!fgets(line, (int)len, f))
		line[0] = '\0';
	assert_null(fgets((char[8]){ 0 }, 8, f));	/* exactly one line */
	fclose(f);
	return n;
}

static void test_every_event_dropped_on_a_vm_names_enoent_and_runs_time_only(void **state)
{
	struct pmu p;
	char line[1024];

	(void)state;
	inject_errno = ENOENT;
	calls = 0;
	assert_int_equal(open_logged(fail_open, &p, line, sizeof(line)), 0);
	assert_int_equal(calls, PMU_NR_EVENTS);
	assert_int_equal(p.leader, -1);
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		assert_int_equal(p.fd[e], -1);
		assert_int_equal(p.err[e], ENOENT);
		assert_non_null(strstr(line, pmu_event_name(e)));
	}
	assert_non_null(strstr(line, "ENOENT"));
	assert_non_null(strstr(line, "time only"));
	/* Starting and stopping an empty group is harmless and counts nothing. */
	struct pmu_reading r;

	pmu_start(&p);
	assert_int_equal(pmu_stop(&p, &r), 0);
	for (int e = 0; e < PMU_NR_EVENTS; e++)
		assert_false(r.counted[e]);
	pmu_close(&p);
}

static void test_paranoid_refusal_names_the_sysctl(void **state)
{
	struct pmu p;
	char line[1024];

	(void)state;
	inject_errno = EACCES;
	assert_int_equal(open_logged(fail_open, &p, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "perf_event_paranoid"));
	assert_non_null(strstr(line, "sysctl"));
}

static void test_emulator_without_perf_event_open_says_enosys(void **state)
{
	struct pmu p;
	char line[1024];

	(void)state;
	inject_errno = ENOSYS;
	assert_int_equal(open_logged(fail_open, &p, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "ENOSYS"));
	assert_non_null(strstr(line, "emulator"));
}

static void test_different_reasons_are_grouped_in_one_line(void **state)
{
	struct pmu p;
	char line[1024];
	char *enoent, *eopnotsupp;

	(void)state;
	assert_int_equal(open_logged(mixed_open, &p, line, sizeof(line)), 0);
	enoent = strstr(line, "ENOENT");
	eopnotsupp = strstr(line, "EOPNOTSUPP");
	assert_non_null(enoent);
	assert_non_null(eopnotsupp);
	/* cycles..branch-misses are listed before ENOENT, cache events before EOPNOTSUPP. */
	assert_true(strstr(line, "branch-misses") < enoent);
	assert_true(strstr(line, "L1D-read-misses") > enoent);
	assert_true(strstr(line, "LLC-read-misses") < eopnotsupp);
}

/* ---- scaling ---- */

static struct pmu fake_pmu(void)
{
	struct pmu p;

	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		p.fd[e] = 100 + e;	/* never used as an fd by pmu_scale() */
		p.id[e] = 1000 + (uint64_t)e;
		p.err[e] = 0;
	}
	p.leader = 0;
	return p;
}

static void test_scale_multiplies_by_enabled_over_running(void **state)
{
	struct pmu p = fake_pmu();
	struct pmu_reading r;
	uint64_t buf[] = { 2, 1000, 250, 40, 1000 + PMU_CYCLES, 7, 1000 + PMU_L1D_READ_MISSES };

	(void)state;
	assert_int_equal(pmu_scale(&p, buf, 7, &r), 0);
	assert_true(r.counted[PMU_CYCLES]);
	assert_true(r.counted[PMU_L1D_READ_MISSES]);
	assert_false(r.counted[PMU_INSTRUCTIONS]);
	assert_true(r.value[PMU_CYCLES] == 160.0);
	assert_true(r.value[PMU_L1D_READ_MISSES] == 28.0);
	assert_true(r.running_share == 0.25);
}

static void test_scale_without_multiplexing_is_exact(void **state)
{
	struct pmu p = fake_pmu();
	struct pmu_reading r;
	uint64_t buf[] = { 1, 500, 500, 123456789, 1000 + PMU_INSTRUCTIONS };

	(void)state;
	assert_int_equal(pmu_scale(&p, buf, 5, &r), 0);
	assert_true(r.value[PMU_INSTRUCTIONS] == 123456789.0);
	assert_true(r.running_share == 1.0);
}

static void test_group_that_never_ran_is_not_counted(void **state)
{
	struct pmu p = fake_pmu();
	struct pmu_reading r;
	uint64_t buf[] = { 1, 500, 0, 0, 1000 + PMU_CYCLES };

	(void)state;
	assert_int_equal(pmu_scale(&p, buf, 5, &r), 0);
	assert_false(r.counted[PMU_CYCLES]);
}

static void test_malformed_reads_are_refused(void **state)
{
	struct pmu p = fake_pmu();
	struct pmu_reading r;
	uint64_t short_buf[] = { 2, 10, 10, 5, 1000 };
	uint64_t huge_nr[] = { 99, 10, 10 };
	uint64_t unknown_id[] = { 1, 10, 10, 5, 4242 };

	(void)state;
	assert_int_equal(pmu_scale(&p, short_buf, 2, &r), -1);
	assert_int_equal(pmu_scale(&p, short_buf, 5, &r), -1);	/* says 2 events, holds 1 */
	assert_int_equal(pmu_scale(&p, huge_nr, 3, &r), -1);
	assert_int_equal(pmu_scale(&p, unknown_id, 5, &r), 0);
	for (int e = 0; e < PMU_NR_EVENTS; e++)
		assert_false(r.counted[e]);
}

/* On this machine, whatever its PMU: opening and reading never fails hard. */
static void test_real_pmu_opens_or_degrades_cleanly(void **state)
{
	struct pmu p;
	struct pmu_reading r;
	int n;

	(void)state;
	pmu_sys_open = real_open;
	n = pmu_open(&p, stderr);
	assert_in_range(n, 0, PMU_NR_EVENTS);
	pmu_start(&p);
	for (volatile int i = 0; i < 100000; i++)
		;
	assert_int_equal(pmu_stop(&p, &r), 0);
	if (n && r.counted[PMU_INSTRUCTIONS])
		assert_true(r.value[PMU_INSTRUCTIONS] > 100000);
	pmu_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_event_dropped_on_a_vm_names_enoent_and_runs_time_only),
		cmocka_unit_test(test_paranoid_refusal_names_the_sysctl),
		cmocka_unit_test(test_emulator_without_perf_event_open_says_enosys),
		cmocka_unit_test(test_different_reasons_are_grouped_in_one_line),
		cmocka_unit_test(test_scale_multiplies_by_enabled_over_running),
		cmocka_unit_test(test_scale_without_multiplexing_is_exact),
		cmocka_unit_test(test_group_that_never_ran_is_not_counted),
		cmocka_unit_test(test_malformed_reads_are_refused),
		cmocka_unit_test(test_real_pmu_opens_or_degrades_cleanly),
	};

	real_open = pmu_sys_open;
	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
