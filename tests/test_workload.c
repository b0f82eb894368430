// SPDX-License-Identifier: MIT
/* test_workload.c - the workload generator and hand-built workloads. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "opsbench/compiler.h"
#include "opsbench/workload.h"

static struct workload_params params(void)
{
	struct workload_params p;

	workload_params_default(&p);
	p.dentries = 2000;
	p.lookups = 3000;
	return p;
}

static void test_same_seed_gives_the_same_workload(void **state)
{
	struct workload_params p = params();
	struct workload a, b;

	(void)state;
	p.custom_share = 0.3;
	p.stale_share = 0.1;
	assert_int_equal(workload_generate(&p, &a, NULL), 0);
	assert_int_equal(workload_generate(&p, &b, NULL), 0);
	assert_int_equal(a.n_nodes, b.n_nodes);
	assert_int_equal(a.n_lookups, b.n_lookups);
	assert_memory_equal(a.nodes, b.nodes, a.n_nodes * sizeof(*a.nodes));
	assert_memory_equal(a.names, b.names, a.names_len);
	assert_memory_equal(a.paths, b.paths, a.paths_len);
	workload_free(&b);
	p.seed = 2;
	assert_int_equal(workload_generate(&p, &b, NULL), 0);
	assert_true(a.names_len != b.names_len || memcmp(a.names, b.names, a.names_len));
	workload_free(&a);
	workload_free(&b);
}

static void test_generated_tree_has_the_requested_shape(void **state)
{
	struct workload_params p = params();
	struct workload wl;

	(void)state;
	p.path_depth = 4;
	p.name_min = 30;
	p.name_max = 60;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	assert_int_equal(wl.n_nodes, p.dentries);
	assert_int_equal(wl.n_lookups, p.lookups);
	for (size_t i = 1; i < wl.n_nodes; i++) {
		const struct wl_node *n = &wl.nodes[i];

		assert_true(n->parent < i);
		assert_true(wl.nodes[n->parent].is_dir);
		assert_int_equal(n->depth, wl.nodes[n->parent].depth + 1);
		assert_int_equal(strlen(workload_name(&wl, i)), n->name_len);
		assert_true(n->name_len >= 30 && n->name_len <= 60);
		assert_int_equal(n->personality, PERS_PLAIN);
	}
	for (size_t i = 0; i < wl.n_lookups; i++) {
		const char *path = workload_path(&wl, i);
		int slashes = 0;

		for (const char *c = path; *c; c++)
			slashes += *c == '/';
		assert_int_equal(slashes, 3);
		assert_true(wl.nodes[wl.lookups[i].start].is_dir);
	}
	workload_free(&wl);
}

static void test_custom_ops_belong_to_filesystems(void **state)
{
	struct workload_params p = params();
	struct workload wl;
	size_t dirs = 0, custom = 0, nested = 0;

	(void)state;
	p.dentries = 20000;
	p.custom_share = 0.3;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	assert_int_equal(wl.nodes[0].personality, PERS_PLAIN);
	for (size_t i = 1; i < wl.n_nodes; i++) {
		const struct wl_node *n = &wl.nodes[i], *parent = &wl.nodes[n->parent];

		/* A file is in its directory's filesystem. */
		if (!n->is_dir) {
			assert_int_equal(n->personality, parent->personality);
			continue;
		}
		dirs++;
		custom += n->personality != PERS_PLAIN;
		/* Custom filesystems span subtrees, not single directories. */
		nested += n->personality != PERS_PLAIN && n->personality == parent->personality;
	}
	dirs++;		/* the root */
	assert_int_equal(custom, (size_t)llround(0.3 * (double)dirs));
	assert_true(nested > 0);
	workload_free(&wl);
}

static void test_custom_share_and_negative_share_are_honoured(void **state)
{
	struct workload_params p = params();
	struct workload wl;
	size_t dirs = 0, custom = 0, negative = 0;

	(void)state;
	p.dentries = 20000;
	p.lookups = 20000;
	p.custom_share = 0.5;
	p.negative_share = 0.25;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	for (size_t i = 0; i < wl.n_nodes; i++) {
		if (!wl.nodes[i].is_dir)
			continue;
		dirs++;
		custom += wl.nodes[i].personality != PERS_PLAIN;
	}
	for (size_t i = 0; i < wl.n_lookups; i++)
		negative += wl.lookups[i].target == WL_NONE;
	assert_in_range(custom * 100 / dirs, 45, 55);
	assert_in_range(negative * 100 / wl.n_lookups, 23, 27);
	workload_free(&wl);

	p.custom_share = 1.0;
	p.custom_mask = 1u << PERS_CASEFOLD;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	for (size_t i = 0; i < wl.n_nodes; i++)
		assert_int_equal(wl.nodes[i].personality, PERS_CASEFOLD);
	assert_true(workload_has_custom_ops(&wl));
	workload_free(&wl);
}

static void test_zipf_order_favours_a_few_targets(void **state)
{
	struct workload_params p = params();
	struct workload wl;
	size_t hits[2000] = { 0 }, top = 0;

	(void)state;
	p.order = ORDER_ZIPF;
	p.zipf_s = 1.2;
	p.negative_share = 0;
	p.lookups = 10000;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	for (size_t i = 0; i < wl.n_lookups; i++)
		hits[wl.lookups[i].target]++;
	for (size_t i = 0; i < ARRAY_SIZE(hits); i++)
		if (hits[i] > top)
			top = hits[i];
	/* Zipf(1.2) over ~2000 ranks gives the first rank about 20%. */
	assert_true(top > wl.n_lookups / 10);
	workload_free(&wl);
}

/* Every bad parameter is refused with -EINVAL and a message naming it. */
static void test_bad_parameters_are_refused(void **state)
{
	(void)state;

	struct workload_params p;
	struct ob_err err;
	struct workload wl;

#define REFUSED(stmt, word) do {					\
		p = params();						\
		stmt;							\
		memset(&err, 0, sizeof(err));				\
		assert_int_equal(workload_params_check(&p, &err), -EINVAL);	\
		assert_non_null(strstr(err.msg, word));			\
		assert_int_equal(workload_generate(&p, &wl, NULL), -EINVAL);	\
		assert_int_equal(wl.n_nodes, 0);			\
	} while (0)

	REFUSED(p.dentries = 0, "dentries");
	REFUSED(p.dentries = 1, "dentries");
	REFUSED(p.dentries = WL_MAX_DENTRIES + 1, "dentries");
	REFUSED(p.fanout = 1, "fanout");
	REFUSED(p.fanout = WL_MAX_FANOUT + 1, "fanout");
	REFUSED(p.dir_share = 0, "dir_share");
	REFUSED(p.dir_share = 1.5, "dir_share");
	REFUSED(p.name_min = 0, "name_min");
	REFUSED(p.name_max = 256, "name_max");
	REFUSED((p.name_min = 10, p.name_max = 9), "name_max");
	REFUSED(p.custom_share = -0.1, "custom_share");
	REFUSED(p.custom_share = 1.01, "custom_share");
	REFUSED(p.custom_share = __builtin_nan(""), "custom_share");
	REFUSED(p.custom_mask = 1u << PERS_PLAIN, "custom personalities");
	REFUSED((p.custom_share = 0.5, p.custom_mask = 0), "custom personalities");
	REFUSED(p.path_depth = 0, "path_depth");
	REFUSED(p.path_depth = WL_MAX_DEPTH + 1, "path_depth");
	REFUSED(p.order = ORDER_COUNT, "order");
	REFUSED((p.order = ORDER_ZIPF, p.zipf_s = 0), "zipf_s");
	REFUSED((p.order = ORDER_ZIPF, p.zipf_s = 11), "zipf_s");
	REFUSED(p.negative_share = 2, "negative_share");
	REFUSED(p.case_share = -1, "case_share");
	REFUSED(p.stale_share = 1.5, "stale_share");
	REFUSED(p.lookups = WL_MAX_LOOKUPS + 1, "lookups");
	REFUSED((p.dentries = 10, p.fanout = 64, p.path_depth = 4), "path_depth");
#undef REFUSED
}

static void test_auto_fanout_reaches_the_path_depth(void **state)
{
	struct workload_params p = params();
	struct workload wl;

	(void)state;
	p.dentries = 100;
	p.path_depth = 6;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	assert_true(wl.fanout >= 2);
	for (size_t i = 0; i < wl.n_lookups; i++)
		if (wl.lookups[i].target != WL_NONE)
			assert_true(wl.nodes[wl.lookups[i].target].depth >= 6);
	workload_free(&wl);
}

static void test_hand_built_workload_refuses_bad_nodes(void **state)
{
	struct workload wl;
	struct ob_err err;
	long dir, file;

	(void)state;
	assert_int_equal(workload_init(&wl, NULL), 0);
	dir = workload_add_node(&wl, 0, "dir", true, PERS_CASEFOLD, NULL);
	assert_int_equal(dir, 1);
	file = workload_add_node(&wl, (uint32_t)dir, "README", false, PERS_CASEFOLD, NULL);
	assert_int_equal(file, 2);
	assert_int_equal(workload_add_node(&wl, (uint32_t)dir, "readme", false, PERS_CASEFOLD, &err), -EEXIST);
	assert_int_equal(workload_add_node(&wl, (uint32_t)file, "x", false, PERS_PLAIN, &err), -EINVAL);
	assert_int_equal(workload_add_node(&wl, 99, "x", false, PERS_PLAIN, &err), -EINVAL);
	assert_int_equal(workload_add_node(&wl, 0, "", false, PERS_PLAIN, &err), -EINVAL);
	assert_int_equal(workload_add_node(&wl, 0, "a/b", false, PERS_PLAIN, &err), -EINVAL);
	assert_int_equal(workload_add_node(&wl, 0, "..", false, PERS_PLAIN, &err), -EINVAL);
	assert_int_equal(workload_add_node(&wl, 0, "x", false, PERS_COUNT, &err), -EINVAL);
	/* In a plain directory, names differing in case are distinct. */
	assert_true(workload_add_node(&wl, 0, "DIR", true, PERS_PLAIN, NULL) > 0);
	assert_int_equal(workload_add_lookup(&wl, (uint32_t)file, "x", WL_NONE, &err), -EINVAL);
	assert_int_equal(workload_add_lookup(&wl, 0, "x", 1000, &err), -EINVAL);
	assert_int_equal(workload_add_lookup(&wl, 0, "dir/README", file, NULL), 0);
	assert_string_equal(workload_path(&wl, 0), "dir/README");
	workload_free(&wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_gives_the_same_workload),
		cmocka_unit_test(test_generated_tree_has_the_requested_shape),
		cmocka_unit_test(test_custom_ops_belong_to_filesystems),
		cmocka_unit_test(test_custom_share_and_negative_share_are_honoured),
		cmocka_unit_test(test_zipf_order_favours_a_few_targets),
		cmocka_unit_test(test_bad_parameters_are_refused),
		cmocka_unit_test(test_auto_fanout_reaches_the_path_depth),
		cmocka_unit_test(test_hand_built_workload_refuses_bad_nodes),
	};

	return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}
