// SPDX-License-Identifier: MIT
/*
 * tree.c - the mapping a strategy's tree lives in (see src/model/tree.h for
 * the placement), and its layout-independent parts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/tree.h"
#include "opsbench/hash.h"
#include "opsbench/rng.h"
#include "opsbench/sysinfo.h"

#define HUGE_PAGE	(2ul << 20)

/* The tree mapped at OB_TREE_BASE, and which waiting slots are taken. */
static const struct ob_tree *resident;
static uint64_t parked_slots = 1;	/* bit k: slot k taken; slot 0 is the base */

static void *slot_addr(unsigned int k)
{
	return (void *)(OB_TREE_BASE + (uintptr_t)k * OB_TREE_SLOT_BYTES);
}

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) & ~(to - 1);
}

/* Move the mapping of @t from @from to @to (both slots, both ours). */
static void move_tree(const struct ob_tree *t, void *from, void *to)
{
	void *p = mremap(from, t->map_bytes, t->map_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, to);

	if (p != to) {
		fprintf(stderr, "opsbench: cannot move a %zu-byte tree from %p to %p: %s\n",
			t->map_bytes, from, to, strerror(errno));
		abort();
	}
}

void tree_enter(const struct ob_tree *t)
{
	if (resident == t)
		return;
	if (resident)
		move_tree(resident, slot_addr(0), slot_addr(resident->park));
	move_tree(t, slot_addr(t->park), slot_addr(0));
	resident = t;
}

/* Hand out @bytes of the mapping, line-aligned (zeroed: a fresh mapping). */
static void *carve(unsigned char *base, size_t *used, size_t bytes)
{
	void *p = base + *used;

	*used += round_up(bytes ? bytes : 1, L1_CACHE_BYTES);
	return p;
}

/* @t's sizes from @wl and @s; returns the bytes its mapping holds, each part on its own lines. */
static size_t tree_size(struct ob_tree *t, const struct workload *wl, const struct strategy *s)
{
	const size_t table = OB_D_HASH_BUCKETS * sizeof(struct hlist_bl_head);
	size_t ext = 0;

	t->strategy = s;
	t->wl = wl;
	t->n = wl->n_nodes;
	t->stride = s->object_size;
	for (size_t i = 0; i < t->n; i++)
		if (wl->nodes[i].name_len >= s->inline_name_len)
			ext += wl->nodes[i].name_len + 1u;
	t->ext_names_size = ext ? ext + NAME_PAD : 0;
	t->n_prepared = wl->n_lookups;
	return table + round_up(PERS_COUNT * sizeof(*t->sb), L1_CACHE_BYTES) +
	       round_up(t->n * t->stride, L1_CACHE_BYTES) +
	       round_up(t->ext_names_size + 1, L1_CACHE_BYTES) +
	       round_up(t->n_prepared * sizeof(*t->prepared) + 1, L1_CACHE_BYTES) +
	       round_up(wl->paths_len + NAME_PAD, L1_CACHE_BYTES) +
	       round_up(tree_warmup_bytes(t->stride), L1_CACHE_BYTES) +
	       round_up(t->n * sizeof(*t->inodes), L1_CACHE_BYTES);
}

/* The first free waiting slot, or OB_TREE_SLOTS when every one is taken. */
static unsigned int free_slot(void)
{
	unsigned int k;

	for (k = 1; k < OB_TREE_SLOTS && (parked_slots & (UINT64_C(1) << k)); k++)
		;
	return k;
}

/*
 * Map @t (@need bytes, t->map_bytes rounded) at the base, where the tree
 * that was there leaves for its slot.  0, or -errno (@err says why).
 */
static int map_tree(struct ob_tree *t, size_t need, unsigned char **base, struct ob_err *err)
{
	int e;

	if (resident)
		move_tree(resident, slot_addr(0), slot_addr(resident->park));
	resident = NULL;
	*base = mmap(slot_addr(0), t->map_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	if (*base == slot_addr(0))
		return 0;
	e = *base == MAP_FAILED ? errno : EEXIST;
	if (*base != MAP_FAILED)
		munmap(*base, t->map_bytes);
	if (e == ENOMEM)
		return ob_errorf(err, -ENOMEM, "%s: out of memory for a tree of %zu dentries (%zu MiB mapped)",
				 t->strategy->name, t->wl->n_nodes, round_up(need, HUGE_PAGE) >> 20);
	return ob_errorf(err, -e, "cannot map a %zu-byte tree at %p: %s", need, slot_addr(0),
			 e == EEXIST ? "the address is taken" : strerror(e));
}

/* Hand out @base's parts to @t, in the order tree_size() counted them. */
static void carve_parts(struct ob_tree *t, unsigned char *base)
{
	const struct workload *wl = t->wl;
	size_t used = 0;

	carve(base, &used, OB_D_HASH_BUCKETS * sizeof(struct hlist_bl_head));	/* OB_D_HASHTABLE */
	t->sb = carve(base, &used, PERS_COUNT * sizeof(*t->sb));
	t->arena = carve(base, &used, t->n * t->stride);
	t->ext_names = t->ext_names_size ? carve(base, &used, t->ext_names_size) : NULL;
	t->prepared = carve(base, &used, t->n_prepared * sizeof(*t->prepared));
	t->paths = carve(base, &used, wl->paths_len + NAME_PAD);
	if (wl->paths_len)
		memcpy(t->paths, wl->paths, wl->paths_len);
	t->warmup = carve(base, &used, tree_warmup_bytes(t->stride));
	/* Last: only the component context reads them (and lookup()'s answer). */
	t->inodes = carve(base, &used, t->n * sizeof(*t->inodes));
}

int tree_alloc(const struct workload *wl, const struct strategy *s,
	       struct ob_tree **out, struct ob_err *err)
{
	struct ob_tree *t = calloc(1, sizeof(*t));
	unsigned char *base;
	struct ob_rng rng;
	unsigned int k;
	size_t need;
	int ret;

	*out = NULL;
	if (!t)
		return ob_errorf(err, -ENOMEM, "%s: out of memory", s->name);
	need = tree_size(t, wl, s);
	t->map_bytes = round_up(need, HUGE_PAGE);
	if (t->map_bytes > OB_TREE_SLOT_BYTES) {
		free(t);
		return ob_errorf(err, -E2BIG, "%s: a tree of %zu dentries needs %zu MiB, more than the %lu MiB a tree may use",
				 s->name, wl->n_nodes, round_up(need, HUGE_PAGE) >> 20,
				 OB_TREE_SLOT_BYTES >> 20);
	}
	k = free_slot();
	if (k == OB_TREE_SLOTS) {
		free(t);
		return ob_errorf(err, -ENOSPC, "%s: %u trees exist already, the most one process may hold",
				 s->name, OB_TREE_SLOTS - 1);
	}
	t->slot = malloc((t->n ? t->n : 1) * sizeof(*t->slot));
	if (!t->slot) {
		free(t);
		return ob_errorf(err, -ENOMEM, "%s: out of memory for a tree of %zu dentries",
				 s->name, wl->n_nodes);
	}
	/* The new tree is built in place: whatever was there waits in its slot. */
	ret = map_tree(t, need, &base, err);
	if (ret) {
		free(t->slot);
		free(t);
		return ret;
	}
	/*
	 * Large pages where the kernel gives them, as the kernel's own table and
	 * slabs sit in its linear map on large pages: lookups then measure
	 * caches, not the TLB.  ob_mem.huge_pages says whether it got them.
	 */
	madvise(base, t->map_bytes, MADV_HUGEPAGE);
	parked_slots |= UINT64_C(1) << k;
	t->park = k;
	resident = t;
	carve_parts(t, base);

	/* Scatter the dentries over the arena (a seeded shuffle). */
	ob_rng_seed(&rng, wl->params.seed ^ 0x5eedd3a7u);
	for (size_t i = 0; i < t->n; i++)
		t->slot[i] = (uint32_t)i;
	ob_rng_shuffle(&rng, t->slot, t->n);
	*out = t;
	return 0;
}

void tree_free(struct ob_tree *t)
{
	if (!t)
		return;
	munmap(slot_addr(resident == t ? 0 : t->park), t->map_bytes);
	if (resident == t)
		resident = NULL;
	parked_slots &= ~(UINT64_C(1) << t->park);
	free(t->slot);
	free(t);
}

void tree_memory(const struct ob_tree *t, struct ob_mem *m)
{
	*m = (struct ob_mem) {
		.object_size = t->stride,
		.dentries = t->n * t->stride,
		.hashtable = OB_D_HASH_BUCKETS * sizeof(struct hlist_bl_head),
		.inodes = t->n * sizeof(*t->inodes),
		.ext_names = t->ext_names_size,
		.ops = t->ops_bytes + PERS_COUNT * sizeof(*t->sb),
	};
	m->total = m->dentries + m->hashtable + m->inodes + m->ext_names + m->ops;
	m->mapped = t->map_bytes;
	m->huge_pages = ob_huge_page_bytes(slot_addr(resident == t ? 0 : t->park), t->map_bytes);
}
