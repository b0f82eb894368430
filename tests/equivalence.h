/* SPDX-License-Identifier: MIT */
/*
 * equivalence.h - the equivalence check of the strategy tests: a plain
 * reference lookup and the matrix of workloads every strategy must agree
 * with it on (included by tests/test_strategies.c, for the registry, and
 * tests/test_extra_strategy.c, for a strategy defined in the test alone).
 *
 * The reference shares nothing with the model but the workload: it scans a
 * directory's children by name (case-insensitively where the directory's
 * personality compares that way), applies staleness where the found
 * dentry's personality revalidates, and follows '/' and "."/".." as
 * link_path_walk() does.  Every strategy is checked in every context
 * (bare, and the component context of each kernel generation).  Include
 * after <cmocka.h>.
 */
#ifndef OPSBENCH_TESTS_EQUIVALENCE_H
#define OPSBENCH_TESTS_EQUIVALENCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opsbench/compiler.h"
#include "opsbench/personality.h"
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

/*
 * Check the strategies of @list (NULL-terminated) against the reference on
 * @wl; returns lookups checked.
 */
static size_t check_strategies(const struct strategy *const *list, const struct workload *wl,
			       const char *what)
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
	for (i = 0; (s = list[i]) != NULL; i++) {
		struct ob_tree *t;
		struct ob_err err = { 0 };
		int ret = s->build(wl, OB_CTX_BARE, &t, &err);

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
		/*
		 * Every context finds the same: the walker owns every directory, so
		 * the component's permission step lets every lookup through.
		 */
		for (int c = 0; c < OB_CTX_COUNT; c++) {
			for (size_t k = 0; k < wl->n_lookups; k++) {
				long got = s->lookup_in(t, (enum ob_context)c, wl->lookups[k].start,
							workload_path(wl, k));

				if (got != expect[k])
					fail_msg("%s: %s, context %s/%s: lookup %zu of \"%s\" from %u: got %ld, expected %ld",
						 what, s->name, ob_context_name((enum ob_context)c),
						 ob_context_kernel((enum ob_context)c), k,
						 workload_path(wl, k), wl->lookups[k].start, got, expect[k]);
				checked++;
			}
		}
		s->destroy(t);
	}
	reference_free(&ref);
	free(expect);
	return checked;
}

/*
 * The matrix: seeds x sizes x custom shares x path depths, with negative
 * lookups, case variants, stale dentries and long (external) names mixed
 * in; every strategy of @list against the reference on each.
 */
static void check_matrix(const struct strategy *const *list)
{
	static const uint64_t seeds[] = { 1, 2, 3 };
	static const size_t sizes[] = { 40, 700, 6000 };
	static const double custom[] = { 0.0, 0.01, 0.1, 0.5, 1.0 };
	static const unsigned int depths[] = { 1, 2, 4 };
	size_t total = 0, workloads = 0;

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
		total += check_strategies(list, &wl, what);
		workloads++;
		workload_free(&wl);
	}
	print_message("%zu workloads, %zu lookups checked against the reference\n", workloads, total);
}

#endif /* OPSBENCH_TESTS_EQUIVALENCE_H */
