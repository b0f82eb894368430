// SPDX-License-Identifier: MIT
/*
 * test_strategies.c - every strategy finds exactly what a plain reference
 * lookup finds, for every lookup of many workloads.
 *
 * The reference below shares nothing with the model but the workload: it
 * scans a directory's children by name (case-insensitively where the
 * directory's personality compares that way), applies staleness where the
 * found dentry's personality revalidates, and follows '/' and "."/".." as
 * link_path_walk() does.
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

#include "opsbench/compiler.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

/* ---- the reference lookup ---- */

struct reference {
	const struct workload *wl;
	uint32_t *first_child, *next_sibling;	/* UINT32_MAX: none */
};

static void reference_init(struct reference *r, const struct workload *wl)
{
	r->wl = wl;
	r->first_child = malloc(wl->n_nodes * sizeof(uint32_t));
	r->next_sibling = malloc(wl->n_nodes * sizeof(uint32_t));
	assert_non_null(r->first_child);
	assert_non_null(r->next_sibling);
	memset(r->first_child, 0xff, wl->n_nodes * sizeof(uint32_t));
	for (size_t i = wl->n_nodes; i-- > 1;) {
		uint32_t p = wl->nodes[i].parent;

		r->next_sibling[i] = r->first_child[p];
		r->first_child[p] = (uint32_t)i;
	}
}

static void reference_free(struct reference *r)
{
	free(r->first_child);
	free(r->next_sibling);
}

static long reference_lookup(const struct reference *r, uint32_t dir, const char *path)
{
	const struct wl_node *nodes = r->wl->nodes;

	while (*path == '/')
		path++;
	if (!*path)
		return dir;
	for (;;) {
		const char *end = strchrnul(path, '/');
		size_t len = (size_t)(end - path);
		long found = WL_NONE;

		if (len == 1 && path[0] == '.') {
			found = dir;
		} else if (len == 2 && path[0] == '.' && path[1] == '.') {
			found = nodes[dir].parent;
		} else {
			bool fold = personality_has(nodes[dir].personality, POP_COMPARE);

			for (uint32_t c = r->first_child[dir]; c != UINT32_MAX; c = r->next_sibling[c]) {
				const char *name = workload_name(r->wl, c);

				if (nodes[c].name_len == len &&
				    (fold ? !strncasecmp(name, path, len) : !memcmp(name, path, len))) {
					found = c;
					break;
				}
			}
			if (found == WL_NONE)
				return WL_NONE;
			if (nodes[found].stale &&
			    personality_has(nodes[found].personality, POP_REVALIDATE))
				return WL_NONE;
		}
		path = end;
		if (!*path)
			return found;
		if (!nodes[found].is_dir)
			return WL_NONE;
		while (*path == '/')
			path++;
		if (!*path)
			return found;
		dir = (uint32_t)found;
	}
}

/* ---- helpers ---- */

/* Does the chain from @lk's start to its target hold a stale, revalidated dentry? */
static bool stale_on_the_way(const struct workload *wl, const struct wl_lookup *lk)
{
	if (lk->target == WL_NONE)
		return false;
	for (uint32_t n = (uint32_t)lk->target; n != lk->start && n != 0; n = wl->nodes[n].parent)
		if (wl->nodes[n].stale && personality_has(wl->nodes[n].personality, POP_REVALIDATE))
			return true;
	return false;
}

/* Check every strategy against the reference on @wl; returns lookups checked. */
static size_t check_all_strategies(const struct workload *wl, const char *what)
{
	struct reference ref;
	const struct strategy *s;
	long *expect = malloc(wl->n_lookups * sizeof(long));
	size_t i, checked = 0;

	assert_non_null(expect);
	reference_init(&ref, wl);
	for (size_t k = 0; k < wl->n_lookups; k++) {
		const struct wl_lookup *lk = &wl->lookups[k];

		expect[k] = reference_lookup(&ref, lk->start, workload_path(wl, k));
		/* The reference agrees with the generator's intent, staleness aside. */
		if (expect[k] != lk->target && !(expect[k] == WL_NONE && stale_on_the_way(wl, lk)))
			fail_msg("%s: reference finds %ld for \"%s\" from %u, generator meant %ld",
				 what, expect[k], workload_path(wl, k), lk->start, lk->target);
	}
	for_each_strategy(s, i) {
		struct ob_tree *t;
		struct ob_err err = { 0 };
		int ret = s->build(wl, &t, &err);

		if (!s->custom_ops && workload_has_custom_ops(wl)) {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(err.msg, "custom ops"));
			continue;
		}
		assert_int_equal(ret, 0);
		for (size_t k = 0; k < wl->n_lookups; k++) {
			long got = s->lookup(t, wl->lookups[k].start, workload_path(wl, k));

			if (got != expect[k])
				fail_msg("%s: %s: lookup %zu of \"%s\" from %u: got %ld, expected %ld",
					 what, s->name, k, workload_path(wl, k),
					 wl->lookups[k].start, got, expect[k]);
			checked++;
		}
		s->destroy(t);
	}
	reference_free(&ref);
	free(expect);
	return checked;
}

/* ---- tests ---- */

/*
 * The matrix: seeds x sizes x custom shares x path depths, with negative
 * lookups, case variants, stale dentries and long (external) names mixed in.
 */
static void test_every_strategy_matches_the_reference_on_generated_workloads(void **state)
{
	static const uint64_t seeds[] = { 1, 2, 3 };
	static const size_t sizes[] = { 40, 700, 6000 };
	static const double custom[] = { 0.0, 0.01, 0.1, 0.5, 1.0 };
	static const unsigned int depths[] = { 1, 2, 4 };
	size_t total = 0, workloads = 0;

	(void)state;
	for (size_t a = 0; a < ARRAY_SIZE(seeds); a++)
	for (size_t b = 0; b < ARRAY_SIZE(sizes); b++)
	for (size_t c = 0; c < ARRAY_SIZE(custom); c++)
	for (size_t d = 0; d < ARRAY_SIZE(depths); d++) {
		struct workload_params p;
		struct workload wl;
		struct ob_err err = { 0 };
		char what[128];

		workload_params_default(&p);
		p.seed = seeds[a];
		p.dentries = sizes[b];
		p.custom_share = custom[c];
		p.path_depth = depths[d];
		p.lookups = 1500;
		p.negative_share = 0.2;
		p.stale_share = a == 1 ? 0.1 : 0.0;
		p.name_max = a == 2 ? 60 : 16;
		p.order = (enum lookup_order)(a % ORDER_COUNT);
		if (workload_generate(&p, &wl, &err))
			fail_msg("generate: %s", err.msg);
		snprintf(what, sizeof(what), "seed %lu, %zu dentries, %.0f%% custom, depth %u",
			 (unsigned long)p.seed, p.dentries, p.custom_share * 100, p.path_depth);
		total += check_all_strategies(&wl, what);
		workloads++;
		workload_free(&wl);
	}
	print_message("%zu workloads, %zu lookups checked against the reference\n", workloads, total);
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
		assert_int_equal(s->build(&wl, &t, NULL), 0);
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
	assert_int_equal(s->build(&wl, &t, &err), -EINVAL);
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

		assert_int_equal(s->build(&wl, &t, NULL), 0);
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

/* Bytes per dentry, and memory, as the strategies report them. */
static void test_object_sizes_are_reported_honestly(void **state)
{
	struct workload_params p;
	struct workload wl;
	const struct strategy *s;
	size_t i;

	(void)state;
	/* Every layout is the kernel's 192 bytes (DNAME_INLINE_LEN absorbs the rest). */
	for_each_strategy(s, i)
		assert_int_equal(s->object_size, 192);
	workload_params_default(&p);
	p.dentries = 1000;
	assert_int_equal(workload_generate(&p, &wl, NULL), 0);
	print_message("%-14s %8s %12s %12s\n", "strategy", "B/dentry", "dentries B", "total B");
	for_each_strategy(s, i) {
		struct ob_tree *t;
		struct ob_mem m;

		assert_int_equal(s->build(&wl, &t, NULL), 0);
		s->memory(t, &m);
		assert_int_equal(m.object_size, s->object_size);
		assert_int_equal(m.dentries, 1000 * s->object_size);
		assert_int_equal(m.total, m.dentries + m.hashtable + m.inodes + m.ext_names + m.ops);
		print_message("%-14s %8zu %12zu %12zu\n", s->name, m.object_size, m.dentries, m.total);
		s->destroy(t);
	}
	workload_free(&wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_strategy_matches_the_reference_on_generated_workloads),
		cmocka_unit_test(test_casefold_finds_README_for_readme_and_plain_does_not),
		cmocka_unit_test(test_direct_refuses_custom_ops_with_a_clear_error),
		cmocka_unit_test(test_run_loop_cycles_the_list_and_pollutes_when_asked),
		cmocka_unit_test(test_object_sizes_are_reported_honestly),
	};

	return cmocka_run_group_tests_name("strategies", tests, NULL, NULL);
}
