// SPDX-License-Identifier: MIT
/*
 * fuzz_lookup.c - libFuzzer target: arbitrary bytes as names and paths.
 *
 * 1. The whole input, as a name: hashing reads nothing out of bounds (the
 *    input sits in a heap block with exactly NAME_PAD bytes after its NUL,
 *    filled with garbage; ASan guards the rest), hash_name() agrees with
 *    full_name_hash() on the component it finds, and the garbage after the
 *    end never changes a hash or a compare.
 * 2. The input as a small tree and its lookups: up to the first NUL byte,
 *    records "<ctl><name>," (ctl picks the parent directory, the personality
 *    and the type); after it, '\n'-separated paths.  Every strategy that can
 *    build the tree finds the same node for every path as null_tested does.
 *
 * Any disagreement aborts, which libFuzzer reports as a crash and saves.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/casefold.h"
#include "opsbench/hash.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

#define MAX_NODES	64
#define MAX_PATHS	32

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_lookup: %s\n", what);
		abort();
	}
}

static void fuzz_hash(const uint8_t *data, size_t size)
{
	char *a = malloc(size + 1 + NAME_PAD), *b = malloc(size + 1 + NAME_PAD);
	uint64_t salt = 0, hl;
	size_t len;

	check(a && b, "out of memory");
	memcpy(a, data, size);
	memcpy(b, data, size);
	a[size] = b[size] = '\0';
	memset(a + size + 1, 0xAA, NAME_PAD);
	memset(b + size + 1, 0x55, NAME_PAD);
	memcpy(&salt, data, size < sizeof(salt) ? size : sizeof(salt));

	len = strcspn(a, "/");			/* the first component */
	hl = hash_name((void *)(uintptr_t)salt, a);
	check(hashlen_len(hl) == len, "hash_name length differs from strcspn");
	check(hashlen_hash(hl) == full_name_hash((void *)(uintptr_t)salt, a, (unsigned int)len),
	      "hash_name and full_name_hash disagree");
	/* Whole input of known length (it may hold NULs and slashes). */
	if (size <= UINT32_MAX) {
		check(full_name_hash(NULL, a, (unsigned int)size) == full_name_hash(NULL, b, (unsigned int)size),
		      "bytes past the end changed full_name_hash");
		if (size)
			check(dentry_string_cmp(a, b, (unsigned int)size) == 0,
			      "bytes past the end changed dentry_string_cmp");
	}
	free(a);
	free(b);
}

static void fuzz_tree(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *p = data;
	const uint8_t *nul = memchr(data, 0, size);
	uint32_t dirs[MAX_NODES] = { 0 };
	size_t n_dirs = 1, n_paths = 0;
	struct workload wl;
	const struct strategy *s, *ref = ob_strategy_find("null_tested");
	long expect[MAX_PATHS];
	size_t i;

	if (workload_init(&wl, NULL))
		return;
	workload_set_personality(&wl, 0, (enum personality)(size % PERS_COUNT));
	/* The tree: "<ctl><name>," records up to the first NUL. */
	while (p < (nul ? nul : end) && wl.n_nodes < MAX_NODES) {
		uint8_t ctl = *p++;
		const uint8_t *stop = nul ? nul : end;
		const uint8_t *comma = memchr(p, ',', (size_t)(stop - p));
		size_t len = (size_t)((comma ? comma : stop) - p);
		char name[OB_NAME_MAX + 1];
		long n;

		if (len > OB_NAME_MAX)
			len = OB_NAME_MAX;
		memcpy(name, p, len);
		name[len] = '\0';
		p = comma ? comma + 1 : stop;
		n = workload_add_node(&wl, dirs[(ctl >> 3) % n_dirs], name, ctl & 4,
				      (enum personality)(ctl & 3), NULL);
		if (n > 0 && (ctl & 4) && n_dirs < MAX_NODES)
			dirs[n_dirs++] = (uint32_t)n;
	}
	/* The paths: '\n'-separated, after the NUL, from a start the first byte picks. */
	for (p = nul ? nul + 1 : end; p < end && n_paths < MAX_PATHS;) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char path[512];

		if (len >= sizeof(path))
			len = sizeof(path) - 1;
		memcpy(path, p, len);
		path[len] = '\0';
		if (workload_add_lookup(&wl, dirs[(len ? (uint8_t)path[0] : 0) % n_dirs], path,
					WL_NONE, NULL) >= 0)
			n_paths++;
		p = nl ? nl + 1 : end;
	}

	struct ob_tree *t;

	check(ref && ref->build(&wl, OB_CTX_BARE, &t, NULL) == 0, "null_tested cannot build a valid workload");
	for (i = 0; i < wl.n_lookups; i++)
		expect[i] = ref->lookup(t, wl.lookups[i].start, workload_path(&wl, i));
	ref->destroy(t);
	for_each_strategy(s, i) {
		if (!s->custom_ops && workload_has_custom_ops(&wl))
			continue;
		/* Every context finds what the bare lookup finds: the walker may search every directory. */
		for (int c = 0; c < OB_CTX_COUNT; c++) {
			check(s->build(&wl, (enum ob_context)c, &t, NULL) == 0,
			      "a strategy cannot build a valid workload");
			for (size_t k = 0; k < wl.n_lookups; k++) {
				if (s->lookup_in(t, (enum ob_context)c, wl.lookups[k].start,
						 workload_path(&wl, k)) != expect[k]) {
					fprintf(stderr, "fuzz_lookup: %s (%s %s) and null_tested disagree on \"%s\"\n",
						s->name, ob_context_name((enum ob_context)c),
						ob_context_kernel((enum ob_context)c), workload_path(&wl, k));
					abort();
				}
			}
			s->destroy(t);
		}
	}
	workload_free(&wl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_hash(data, size);
	fuzz_tree(data, size);
	return 0;
}
