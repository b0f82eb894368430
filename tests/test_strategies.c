// SPDX-License-Identifier: MIT
/*
 * test_strategies.c - every strategy of the registry finds exactly what a
 * plain reference lookup finds (tests/equivalence.h), for every lookup of
 * many workloads; and what the strategies say about themselves holds.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "model/tree.h"
#include "opsbench/compiler.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

#include "equivalence.h"

/* ---- tests ---- */

static void test_every_strategy_matches_the_reference_on_generated_workloads(void **state)
{
	(void)state;
	check_matrix(ob_strategies);
}

/* A small hand-built tree: case folding, revalidation, dots and slashes. */
static void test_casefold_finds_README_for_readme_and_plain_does_not(void **state)
{
	struct workload wl;
	long ci, plain, ci_file, plain_file, nfs, nfs_stale;
	const struct strategy *s;
	size_t i;

	(void)state;
	assert_int_equal(workload_init(&wl, NULL), 0);
	workload_set_personality(&wl, 0, PERS_PLAIN);
	ci = workload_add_node(&wl, 0, "vfat", true, PERS_CASEFOLD, NULL);
	plain = workload_add_node(&wl, 0, "ext4", true, PERS_PLAIN, NULL);
	nfs = workload_add_node(&wl, 0, "nfs", true, PERS_ALL, NULL);
	ci_file = workload_add_node(&wl, (uint32_t)ci, "README", false, PERS_CASEFOLD, NULL);
	plain_file = workload_add_node(&wl, (uint32_t)plain, "README", false, PERS_PLAIN, NULL);
	assert_true(workload_add_node(&wl, (uint32_t)nfs, "Fresh", false, PERS_ALL, NULL) > 0);
	nfs_stale = workload_add_node(&wl, (uint32_t)nfs, "Stale", false, PERS_ALL, NULL);
	assert_true(ci > 0 && plain > 0 && nfs > 0 && ci_file > 0 && plain_file > 0 && nfs_stale > 0);
	wl.nodes[nfs_stale].stale = 1;

	static const struct { uint32_t start; const char *path; long expect; } cases[] = {
		{ 0, "vfat/readme", 4 },	/* case-insensitive directory */
		{ 0, "vfat/ReadMe", 4 },
		{ 0, "vfat/README", 4 },
		{ 0, "ext4/README", 5 },
		{ 0, "ext4/readme", WL_NONE },	/* plain: case matters */
		{ 0, "EXT4/README", WL_NONE },	/* the root is plain */
		{ 0, "nfs/FRESH", 6 },
		{ 0, "nfs/stale", WL_NONE },	/* revalidation fails */
		{ 0, "//vfat//readme", 4 },
		{ 0, "vfat/./readme", 4 },
		{ 0, "vfat/../ext4/README", 5 },
		{ 0, "..", 0 },			/* the root is its own parent */
		{ 0, ".", 0 },
		{ 0, "", 0 },
		{ 0, "vfat/", 1 },
		{ 0, "vfat/readme/", WL_NONE },	/* a file followed by '/' */
		{ 0, "vfat/readme/x", WL_NONE },
		{ 1, "readme", 4 },
		{ 1, "..", 0 },
		{ 0, "nope", WL_NONE },
		{ 0, "vfat/readmf", WL_NONE },
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		assert_true(workload_add_lookup(&wl, cases[k].start, cases[k].path, WL_NONE, NULL) >= 0);

	for_each_strategy(s, i) {
		struct ob_tree *t;

		if (!s->custom_ops)
			continue;
		assert_int_equal(s->build(&wl, OB_CTX_BARE, &t, NULL), 0);
		for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
			long got = s->lookup(t, cases[k].start, workload_path(&wl, k));

			if (got != cases[k].expect)
				fail_msg("%s: \"%s\": got %ld, expected %ld", s->name,
					 cases[k].path, got, cases[k].expect);
		}
		s->destroy(t);
	}
	workload_free(&wl);
}

static void test_direct_refuses_custom_ops_with_a_clear_error(void **state)
{
	const struct strategy *s = ob_strategy_find("direct");
	struct workload_params p;
	struct workload wl;
	struct ob_tree *t = (struct ob_tree *)&p;
	struct ob_err err = { 0 };

	(void)state;
	assert_non_null(s);
	workload_params_default(&p);
	p.custom_share = 0.01;
	p.dentries = 5000;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	assert_int_equal(s->build(&wl, OB_CTX_BARE, &t, &err), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(err.msg, "direct"));
	workload_free(&wl);
}

/* The benchmark loop walks the same list and finds the same dentries. */
static void test_run_loop_cycles_the_list_and_pollutes_when_asked(void **state)
{
	struct workload_params p;
	struct workload wl;
	const struct strategy *s;
	unsigned char buf[4096] = { 0 };
	size_t i;

	(void)state;
	workload_params_default(&p);
	p.dentries = 300;
	p.lookups = 100;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	for_each_strategy(s, i) {
		struct ob_tree *t;
		struct ob_run r = { .pollute_bytes = 128, .pollute_buf = buf, .pollute_size = sizeof(buf) };
		uint64_t one, two;

		assert_int_equal(s->build(&wl, OB_CTX_BARE, &t, NULL), 0);
		one = s->run(t, &r, 100);
		assert_int_equal(r.cursor, 0);		/* cycled exactly once */
		two = s->run(t, &r, 100);
		assert_true(one == two);
		assert_int_equal(r.pollute_pos, (200 * 128) % sizeof(buf));
		s->run(t, &r, 30);
		assert_int_equal(r.cursor, 30);
		s->destroy(t);
	}
	workload_free(&wl);
}

/*
 * Cold mode's warm-up lookup (src/model/tree.h): every strategy has one, in
 * the room the mapping keeps for it, on every kind of workload; and cold
 * runs, which make it before each timed lookup, find exactly what
 * throughput runs find.
 */
static void test_cold_warm_up_is_a_copy_and_changes_no_result(void **state)
{
	static const struct { double custom; unsigned int depth; } kinds[] = {
		{ 0, 1 }, { 0.5, 1 }, { 0.1, 3 }, { 1, 2 },
	};
	unsigned char buf[4096] = { 0 };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct workload_params p;
		struct workload wl;
		const struct strategy *s;
		size_t i;

		workload_params_default(&p);
		p.dentries = 500;
		p.lookups = 200;
		p.custom_share = kinds[k].custom;
		p.path_depth = kinds[k].depth;
		assert_int_equal(workload_generate(&p, &wl, NULL), 0);
		for_each_strategy(s, i) {
			struct ob_tree *t;
			struct ob_run warm = { .mode = OB_THROUGHPUT };
			struct ob_run cold = { .mode = OB_COLD, .pollute_bytes = 256,
					       .pollute_buf = buf, .pollute_size = sizeof(buf) };
			const unsigned char *room, *end;

			if (s->build(&wl, OB_CTX_BARE, &t, NULL))
				continue;	/* direct, with custom ops */
			room = (const unsigned char *)t->warmup;
			end = room + tree_warmup_bytes(t->stride);
			assert_non_null(t->warmup_dir);
			assert_true((const unsigned char *)t->warmup_dir >= room &&
				    (const unsigned char *)t->warmup_dir + t->stride <= end);
			assert_true((const unsigned char *)t->warmup_path >= room &&
				    (const unsigned char *)t->warmup_path < end);
			assert_null(strchr(t->warmup_path, '/'));
			assert_true(s->run(t, &warm, 200) == s->run(t, &cold, 200));
			assert_int_equal(cold.cursor, 0);
			/* In every context: the same dentries, warm or cold. */
			for (int c = 0; c < OB_CTX_COUNT; c++) {
				uint64_t bare = s->run(t, &warm, 200);

				warm.context = cold.context = (enum ob_context)c;
				assert_true(s->run(t, &warm, 200) == bare);
				assert_true(s->run(t, &cold, 200) == bare);
				warm.context = cold.context = OB_CTX_BARE;
			}
			s->destroy(t);
		}
		workload_free(&wl);
	}
}

/* Bytes per dentry, and memory, as the strategies report them. */
static void test_object_sizes_are_reported_honestly(void **state)
{
	struct workload_params p;
	struct workload wl;
	const struct strategy *s;
	size_t i, baselines = 0, custom_baselines = 0;

	(void)state;
	/*
	 * Every layout is whole cache lines, as the kernel keeps struct dentry
	 * (its declared size is checked against sizeof at compile time), and
	 * there is one baseline of each kind.
	 */
	for_each_strategy(s, i) {
		assert_int_equal(s->object_size % L1_CACHE_BYTES, 0);
		baselines += s->baseline;
		custom_baselines += s->custom_baseline && s->custom_ops;
	}
	assert_int_equal(baselines, 1);
	assert_int_equal(custom_baselines, 1);
	assert_int_equal(i, ob_strategy_count());
	workload_params_default(&p);
	p.dentries = 1000;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	print_message("%-14s %8s %12s %12s\n", "strategy", "B/dentry", "dentries B", "total B");
	for_each_strategy(s, i) {
		struct ob_tree *t;
		struct ob_mem m;

		assert_int_equal(s->build(&wl, OB_CTX_BARE, &t, NULL), 0);
		s->memory(t, &m);
		assert_int_equal(m.object_size, s->object_size);
		assert_int_equal(m.dentries, 1000 * s->object_size);
		assert_int_equal(m.total, m.dentries + m.hashtable + m.inodes + m.ext_names + m.ops);
		print_message("%-14s %8zu %12zu %12zu\n", s->name, m.object_size, m.dentries, m.total);
		s->destroy(t);
	}
	workload_free(&wl);
}

/* The inode of node @i of @t (the test looks inside the tree). */
static struct inode *node_inode(const struct ob_tree *t, long i)
{
	return &t->inodes[t->slot[i]];
}

/*
 * The component context checks search permission on each directory it
 * walks, as may_lookup() does: a directory the walker does not own, mode
 * 0700, stops every lookup through it in that context, in every strategy
 * and generation, and in none in the bare lookup, which has no such step.
 */
static void test_component_context_denies_search_of_a_directory_the_walker_cannot_search(void **state)
{
	struct workload wl;
	long home, secret, file, open_dir, open_file;
	const struct strategy *s;
	size_t i;

	(void)state;
	assert_int_equal(workload_init(&wl, NULL), 0);
	home = workload_add_node(&wl, 0, "home", true, PERS_PLAIN, NULL);
	secret = workload_add_node(&wl, (uint32_t)home, "secret", true, PERS_REVALIDATE, NULL);
	file = workload_add_node(&wl, (uint32_t)secret, "key", false, PERS_REVALIDATE, NULL);
	open_dir = workload_add_node(&wl, (uint32_t)home, "pub", true, PERS_PLAIN, NULL);
	open_file = workload_add_node(&wl, (uint32_t)open_dir, "readme", false, PERS_PLAIN, NULL);
	assert_true(home > 0 && secret > 0 && file > 0 && open_dir > 0 && open_file > 0);

	static const struct { uint32_t start; const char *path; bool through_secret; } cases[] = {
		{ 0, "home/secret/key", true },
		{ 0, "home/secret/./key", true },
		{ 0, "home/secret/..", true },	/* ".." is looked up in secret too */
		{ 0, "home/secret", false },	/* looked up in home: allowed */
		{ 0, "home/pub/readme", false },
		{ 0, "home/pub/../secret", false },
	};
	static const long found[] = { 3, 3, 1, 2, 5, 2 };

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		assert_true(workload_add_lookup(&wl, cases[k].start, cases[k].path, WL_NONE, NULL) >= 0);
	for_each_strategy(s, i) {
		/* A tree per context: each has its kernel's generic_permission. */
		for (int c = 0; c < OB_CTX_COUNT; c++) {
			struct ob_tree *t;

			if (s->build(&wl, (enum ob_context)c, &t, NULL))
				continue;	/* direct, with custom ops */
			node_inode(t, secret)->i_uid = 0;	/* root's, mode 0700 */
			for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
				long want = c != OB_CTX_BARE && cases[k].through_secret ? WL_NONE : found[k];
				long got = s->lookup_in(t, (enum ob_context)c, cases[k].start,
							workload_path(&wl, k));

				if (got != want)
					fail_msg("%s, %s %s: \"%s\": got %ld, expected %ld", s->name,
						 ob_context_name((enum ob_context)c),
						 ob_context_kernel((enum ob_context)c), cases[k].path, got, want);
			}
			s->destroy(t);
		}
	}
	workload_free(&wl);
}

/*
 * do_inode_permission() caches a NULL ->permission as IOP_FASTPERM: the
 * first component walked in a plain directory sets it where the strategy
 * finds no ->permission; default_ops always finds one (generic_permission
 * in every table) and never sets it; an NFS-like directory's own
 * ->permission keeps it clear everywhere.
 */
static void test_inode_permission_caches_a_missing_permission_op_as_IOP_FASTPERM(void **state)
{
	/* Paths have 8 readable bytes after them, as the word-at-a-time hash needs. */
	static const char plain_a[24] = "plain/a", nfs_b[24] = "nfs/b";
	struct workload wl;
	long plain, nfs;
	const struct strategy *s;
	size_t i;

	(void)state;
	assert_int_equal(workload_init(&wl, NULL), 0);
	plain = workload_add_node(&wl, 0, "plain", true, PERS_PLAIN, NULL);
	nfs = workload_add_node(&wl, 0, "nfs", true, PERS_REVALIDATE, NULL);
	assert_true(workload_add_node(&wl, (uint32_t)plain, "a", false, PERS_PLAIN, NULL) > 0);
	assert_true(workload_add_node(&wl, (uint32_t)nfs, "b", false, PERS_REVALIDATE, NULL) > 0);
	for_each_strategy(s, i) {
		struct ob_tree *t;
		bool always = !strcmp(s->name, "default_ops") || !strcmp(s->name, "icall_wrapper");

		if (s->build(&wl, OB_CTX_BARE, &t, NULL))
			continue;
		assert_false(node_inode(t, plain)->i_opflags & IOP_FASTPERM);
		assert_int_equal(s->lookup_in(t, OB_CTX_COMPONENT_6_12, 0, plain_a), 3);
		assert_int_equal(s->lookup_in(t, OB_CTX_COMPONENT_6_1, 0, nfs_b), 4);
		assert_int_equal(!!(node_inode(t, plain)->i_opflags & IOP_FASTPERM), !always);
		assert_false(node_inode(t, nfs)->i_opflags & IOP_FASTPERM);
		s->destroy(t);
	}
	workload_free(&wl);
}

/* Contexts by name, as opsbench-run and the benchmark names spell them. */
static void test_contexts_are_found_by_name_and_kernel(void **state)
{
	(void)state;
	assert_int_equal(ob_context_find("bare", NULL), OB_CTX_BARE);
	assert_int_equal(ob_context_find("bare", "6.12"), OB_CTX_BARE);
	assert_int_equal(ob_context_find("bare", "6.1"), OB_CTX_COUNT);
	assert_int_equal(ob_context_find("component", NULL), OB_CTX_COMPONENT_6_12);
	assert_int_equal(ob_context_find("component", "6.1"), OB_CTX_COMPONENT_6_1);
	assert_int_equal(ob_context_find("component", "5.10"), OB_CTX_COUNT);
	assert_int_equal(ob_context_find("nosuch", NULL), OB_CTX_COUNT);
	for (int c = 0; c < OB_CTX_COUNT; c++)
		assert_int_equal(ob_context_find(ob_context_name((enum ob_context)c),
						 ob_context_kernel((enum ob_context)c)), c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_strategy_matches_the_reference_on_generated_workloads),
		cmocka_unit_test(test_casefold_finds_README_for_readme_and_plain_does_not),
		cmocka_unit_test(test_direct_refuses_custom_ops_with_a_clear_error),
		cmocka_unit_test(test_run_loop_cycles_the_list_and_pollutes_when_asked),
		cmocka_unit_test(test_cold_warm_up_is_a_copy_and_changes_no_result),
		cmocka_unit_test(test_object_sizes_are_reported_honestly),
		cmocka_unit_test(test_component_context_denies_search_of_a_directory_the_walker_cannot_search),
		cmocka_unit_test(test_inode_permission_caches_a_missing_permission_op_as_IOP_FASTPERM),
		cmocka_unit_test(test_contexts_are_found_by_name_and_kernel),
	};

	return cmocka_run_group_tests_name("strategies", tests, NULL, NULL);
}
