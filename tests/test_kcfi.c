// SPDX-License-Identifier: MIT
/*
 * test_kcfi.c - the VARIANT=kcfi build really checks its indirect calls:
 * a call through a pointer of the wrong type must trap (ud2: SIGILL on
 * x86-64; brk: SIGTRAP on arm64) before reaching the target, as
 * CONFIG_CFI_CLANG does in the kernel, while well-typed calls go through.
 * In the other builds there are no checks to prove: the tests say so and
 * are skipped.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "opsbench/compiler.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

#if defined(__x86_64__)
#define KCFI_SIGNAL	SIGILL
#else
#define KCFI_SIGNAL	SIGTRAP
#endif

typedef int small_fn(int x);
typedef long wide_fn(long x, long y);

static noinline int add_one(int x)
{
	return x + 1;
}

/* Run @call in a child; return the signal that ended it (0: it returned). */
static int signal_of(void (*call)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);	/* no core file from the trap */
		signal(KCFI_SIGNAL, SIG_DFL);	/* cmocka's handler would catch it */
		call();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void call_well_typed(void)
{
	small_fn *volatile f = add_one;

	if (f(41) != 42)
		_exit(3);
}

static void call_mistyped(void)
{
	wide_fn *volatile f = (wide_fn *)(void *)add_one;

	f(1, 2);
}

/* A strategy's lookup called as if it were its build: the model's own functions are checked. */
static void call_strategy_mistyped(void)
{
	const struct strategy *s = ob_strategy_find("default_ops");
	int (*volatile build)(const struct workload *, enum ob_context, struct ob_tree **, struct ob_err *);

	build = (int (*)(const struct workload *, enum ob_context, struct ob_tree **, struct ob_err *))
		(void *)s->lookup;
	build(NULL, OB_CTX_BARE, NULL, NULL);
}

static void skip_unless_kcfi(void)
{
#ifndef OB_KCFI
	print_message("kCFI: this is the %s build, not VARIANT=kcfi: no checks to prove\n", OB_VARIANT);
	skip();
#endif
}

static void test_well_typed_indirect_call_goes_through(void **state)
{
	(void)state;
	skip_unless_kcfi();
	assert_int_equal(signal_of(call_well_typed), 0);
}

static void test_mistyped_indirect_call_traps(void **state)
{
	(void)state;
	skip_unless_kcfi();
	assert_int_equal(signal_of(call_mistyped), KCFI_SIGNAL);
}

static void test_mistyped_call_of_a_strategy_function_traps(void **state)
{
	(void)state;
	skip_unless_kcfi();
	assert_int_equal(signal_of(call_strategy_mistyped), KCFI_SIGNAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_well_typed_indirect_call_goes_through),
		cmocka_unit_test(test_mistyped_indirect_call_traps),
		cmocka_unit_test(test_mistyped_call_of_a_strategy_function_traps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
