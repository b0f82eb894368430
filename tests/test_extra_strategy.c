// SPDX-License-Identifier: MIT
/*
 * test_extra_strategy.c - adding a strategy is one file and one line: this
 * file is the file (a strategy defined here alone, not in the registry, the
 * seam of null_tested under another name), and the equivalence matrix of
 * tests/equivalence.h, the same one every registered strategy passes,
 * takes it as it stands.  Nothing else in the tests or the benches counts
 * or sizes strategies by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define STRATEGY_NAME		extra_null_tested
#define STRATEGY_SUMMARY	"a strategy defined in a test: null_tested's seam under another name"
#define STRATEGY_ORIGIN		"tests/test_extra_strategy.c"
#define STRATEGY_OPS		ops_sparse
#define STRATEGY_OBJECT_BYTES	192

#define OP_PRESENT(d, op, flag)	(ob_ops(d) && ob_ops(d)->op)
#define OP_CALL(d, op, ...)	(ob_ops(d)->op(__VA_ARGS__))

#include "model/instance.h"

#include "equivalence.h"

static void test_an_extra_strategy_passes_the_equivalence_matrix(void **state)
{
	const struct strategy *const list[] = { &strategy_extra_null_tested, NULL };

	(void)state;
	assert_string_equal(strategy_extra_null_tested.name, "extra_null_tested");
	assert_int_equal(strategy_extra_null_tested.object_size, STRATEGY_OBJECT_BYTES);
	assert_null(ob_strategy_find("extra_null_tested"));	/* not registered: defined here */
	check_matrix(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_an_extra_strategy_passes_the_equivalence_matrix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
