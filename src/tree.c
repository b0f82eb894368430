// SPDX-License-Identifier: MIT
/* tree.c - allocation of the layout-independent parts of a strategy's tree. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/tree.h"
#include "opsbench/hash.h"
#include "opsbench/rng.h"

static void *zalloc_aligned(size_t size)
{
	size_t rounded = (size + L1_CACHE_BYTES - 1) & ~(size_t)(L1_CACHE_BYTES - 1);
	void *p = aligned_alloc(L1_CACHE_BYTES, rounded ? rounded : L1_CACHE_BYTES);

	if (p)
		memset(p, 0, rounded);
	return p;
}

int tree_alloc(const struct workload *wl, const struct strategy *s,
	       struct ob_tree **out, struct ob_err *err)
{
	struct ob_tree *t = calloc(1, sizeof(*t));
	struct ob_rng rng;
	size_t ext = 0;

	*out = NULL;
	if (!t)
		goto nomem;
	t->strategy = s;
	t->wl = wl;
	t->n = wl->n_nodes;
	t->stride = s->object_size;
	for (t->buckets = 16; t->buckets < 2 * t->n; t->buckets <<= 1)
		;
	t->hash_shift = 32 - (unsigned int)__builtin_ctzll(t->buckets);
	for (size_t i = 0; i < t->n; i++)
		if (wl->nodes[i].name_len >= DNAME_INLINE_LEN)
			ext += wl->nodes[i].name_len + 1u;
	t->ext_names_size = ext ? ext + NAME_PAD : 0;
	t->n_prepared = wl->n_lookups;

	t->arena = zalloc_aligned(t->n * t->stride);
	t->slot = malloc(t->n * sizeof(*t->slot));
	t->inodes = calloc(t->n, sizeof(*t->inodes));
	t->hashtable = zalloc_aligned(t->buckets * sizeof(*t->hashtable));
	t->sb = zalloc_aligned(PERS_COUNT * sizeof(*t->sb));
	t->prepared = calloc(t->n_prepared ? t->n_prepared : 1, sizeof(*t->prepared));
	if (ext)
		t->ext_names = calloc(1, t->ext_names_size);
	if (!t->arena || !t->slot || !t->inodes || !t->hashtable || !t->sb ||
	    !t->prepared || (ext && !t->ext_names))
		goto nomem;

	/* Scatter the dentries over the arena (Fisher-Yates, seeded). */
	ob_rng_seed(&rng, wl->params.seed ^ 0x5eedd3a7u);
	for (size_t i = 0; i < t->n; i++)
		t->slot[i] = (uint32_t)i;
	for (size_t i = t->n; i > 1; i--) {
		size_t j = ob_rng_below(&rng, i);
		uint32_t tmp = t->slot[i - 1];

		t->slot[i - 1] = t->slot[j];
		t->slot[j] = tmp;
	}
	*out = t;
	return 0;
nomem:
	tree_free(t);
	return ob_errorf(err, -ENOMEM, "%s: out of memory for a tree of %zu dentries",
			 s->name, wl->n_nodes);
}

void tree_free(struct ob_tree *t)
{
	if (!t)
		return;
	free(t->arena);
	free(t->slot);
	free(t->inodes);
	free(t->hashtable);
	free(t->sb);
	free(t->prepared);
	free(t->ext_names);
	free(t);
}

void tree_memory(const struct ob_tree *t, struct ob_mem *m)
{
	*m = (struct ob_mem) {
		.object_size = t->stride,
		.dentries = t->n * t->stride,
		.hashtable = t->buckets * sizeof(*t->hashtable),
		.inodes = t->n * sizeof(*t->inodes),
		.ext_names = t->ext_names_size,
		.ops = t->ops_bytes + PERS_COUNT * sizeof(*t->sb),
	};
	m->total = m->dentries + m->hashtable + m->inodes + m->ext_names + m->ops;
}
