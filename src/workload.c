// SPDX-License-Identifier: MIT
/*
 * workload.c - deterministic dentry trees and lookup lists.
 *
 * The tree is filled breadth-first: every directory gets `fanout` children
 * (the first round(fanout * dir_share) of them directories) until the dentry
 * count is reached.  Personalities then go to filesystems, as dentry ops go
 * to superblocks in the kernel (see mount_filesystems()): custom
 * filesystems are mounted on subtrees until they hold round(custom_share x
 * directories) of the directories, every dentry takes the personality of
 * the filesystem it is in, and neighbouring directories of one filesystem
 * share one ops table.
 *
 * Names are a random prefix of [A-Za-z0-9] followed by the child's index in
 * base 36 (fixed width, lower case).  The suffix makes siblings distinct even
 * case-insensitively, and a suffix past the fanout names a child that cannot
 * exist: that is how negative lookups are made, with names of the same shape
 * and length as the positive ones.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/casefold.h"
#include "opsbench/hash.h"
#include "opsbench/rng.h"
#include "opsbench/workload.h"

static const char *const order_names[ORDER_COUNT] = {
	[ORDER_SORTED]	= "sorted",
	[ORDER_UNIFORM]	= "uniform",
	[ORDER_ZIPF]	= "zipf",
};

const char *lookup_order_name(enum lookup_order o)
{
	return (unsigned int)o < ORDER_COUNT ? order_names[o] : "?";
}

int lookup_order_from_name(const char *name)
{
	for (int o = 0; o < ORDER_COUNT; o++)
		if (!strcmp(name, order_names[o]))
			return o;
	return -1;
}

void workload_params_default(struct workload_params *p)
{
	*p = (struct workload_params) {
		.seed		= 1,
		.dentries	= 4096,
		.fanout		= 0,
		.dir_share	= 0.25,
		.name_min	= 4,
		.name_max	= 16,
		.custom_share	= 0.0,
		.custom_mask	= PERS_MASK_CUSTOM,
		.path_depth	= 1,
		.order		= ORDER_UNIFORM,
		.zipf_s		= 1.0,
		.negative_share	= 0.1,
		.case_share	= 0.5,
		.stale_share	= 0.0,
		.lookups	= 0,
	};
}

static bool is_share(double x)
{
	return x >= 0.0 && x <= 1.0;	/* false for NaN too */
}

/* Children of each directory that are directories themselves. */
static unsigned int dirs_per_dir(unsigned int fanout, double dir_share)
{
	double d = round(fanout * dir_share);

	if (d < 1)
		return 1;
	return d > fanout ? fanout : (unsigned int)d;
}

/* How many levels below the root a breadth-first tree of @n dentries has. */
static unsigned int tree_levels(size_t n, unsigned int fanout, double dir_share)
{
	size_t total = 1, dirs = 1;
	unsigned int levels = 0, per = dirs_per_dir(fanout, dir_share);

	while (total < n) {
		levels++;
		if (dirs > n / fanout)		/* this level fills the rest */
			break;
		total += dirs * fanout;
		dirs *= per;
	}
	return levels;
}

static unsigned int pick_fanout(const struct workload_params *p)
{
	if (p->fanout)
		return p->fanout;
	for (unsigned int f = 64; f >= 2; f--)
		if (tree_levels(p->dentries, f, p->dir_share) >= p->path_depth)
			return f;
	return 2;
}

/* Length of the lookup list @p asks for. */
static size_t list_length(const struct workload_params *p)
{
	size_t want = p->lookups;

	if (!want) {
		/* Short for small trees, so the list itself stays in L1 with them. */
		want = 2 * p->dentries;
		want = want < 512 ? 512 : want > (1u << 20) ? (1u << 20) : want;
	}
	return want;
}

size_t workload_memory_estimate(const struct workload_params *p, size_t object_size)
{
	size_t n = p->dentries, l = list_length(p), name = p->name_max + 1u;
	size_t buckets = 16;

	while (buckets < 2 * n)
		buckets <<= 1;
	/* Workload: nodes and names, lookups and paths, each up to 2x by doubling. */
	size_t wl = 2 * n * (sizeof(struct wl_node) + name) +
		    2 * l * (sizeof(struct wl_lookup) + (size_t)p->path_depth * name) +
		    n * (sizeof(uint32_t) + sizeof(double));	/* generator temporaries */
	/* Tree: dentries, slots, inodes, buckets, long names, prepared list. */
	size_t tree = n * (object_size + sizeof(uint32_t) + 2 * sizeof(void *) + name) +
		      buckets * sizeof(void *) + l * 2 * sizeof(void *);

	return wl + tree + (1u << 20);
}

int workload_params_check(const struct workload_params *p, struct ob_err *err)
{
	if (p->dentries < 2 || p->dentries > WL_MAX_DENTRIES)
		return ob_errorf(err, -EINVAL, "dentries=%zu: must be 2..%lu",
				 p->dentries, WL_MAX_DENTRIES);
	if (p->fanout && (p->fanout < 2 || p->fanout > WL_MAX_FANOUT))
		return ob_errorf(err, -EINVAL, "fanout=%u: must be 0 (auto) or 2..%u",
				 p->fanout, WL_MAX_FANOUT);
	if (!(p->dir_share > 0.0 && p->dir_share <= 1.0))
		return ob_errorf(err, -EINVAL, "dir_share=%g: must be in (0, 1]", p->dir_share);
	if (p->name_min < 1 || p->name_min > OB_NAME_MAX)
		return ob_errorf(err, -EINVAL, "name_min=%u: must be 1..%u",
				 p->name_min, OB_NAME_MAX);
	if (p->name_max < p->name_min || p->name_max > OB_NAME_MAX)
		return ob_errorf(err, -EINVAL, "name_max=%u: must be name_min (%u)..%u",
				 p->name_max, p->name_min, OB_NAME_MAX);
	if (!is_share(p->custom_share))
		return ob_errorf(err, -EINVAL, "custom_share=%g: must be in [0, 1]",
				 p->custom_share);
	if (p->custom_mask & ~PERS_MASK_CUSTOM ||
	    (p->custom_share > 0 && !p->custom_mask))
		return ob_errorf(err, -EINVAL,
				 "custom personalities 0x%x: must be a non-empty set of casefold, revalidate, all",
				 p->custom_mask);
	if (p->path_depth < 1 || p->path_depth > WL_MAX_DEPTH)
		return ob_errorf(err, -EINVAL, "path_depth=%u: must be 1..%u",
				 p->path_depth, WL_MAX_DEPTH);
	if ((unsigned int)p->order >= ORDER_COUNT)
		return ob_errorf(err, -EINVAL, "order=%d: must be sorted, uniform or zipf",
				 (int)p->order);
	if (p->order == ORDER_ZIPF && !(p->zipf_s > 0.0 && p->zipf_s <= 10.0))
		return ob_errorf(err, -EINVAL, "zipf_s=%g: must be in (0, 10]", p->zipf_s);
	if (!is_share(p->negative_share))
		return ob_errorf(err, -EINVAL, "negative_share=%g: must be in [0, 1]",
				 p->negative_share);
	if (!is_share(p->case_share))
		return ob_errorf(err, -EINVAL, "case_share=%g: must be in [0, 1]", p->case_share);
	if (!is_share(p->stale_share))
		return ob_errorf(err, -EINVAL, "stale_share=%g: must be in [0, 1]",
				 p->stale_share);
	if (p->lookups > WL_MAX_LOOKUPS)
		return ob_errorf(err, -EINVAL, "lookups=%zu: must be 0 (auto) or 1..%lu",
				 p->lookups, WL_MAX_LOOKUPS);

	unsigned int f = pick_fanout(p);
	unsigned int levels = tree_levels(p->dentries, f, p->dir_share);

	if (levels < p->path_depth)
		return ob_errorf(err, -EINVAL,
				 "dentries=%zu with fanout %u gives %u levels, fewer than path_depth=%u: use more dentries or a smaller fanout",
				 p->dentries, f, levels, p->path_depth);
	return 0;
}

/* ---- growable arrays ---- */

static int reserve(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* Append @len bytes and a NUL to a string buffer kept NAME_PAD-padded. */
static long append_str(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	size_t off = *len;

	if (reserve((void **)buf, cap, off + n + 1 + NAME_PAD, 1))
		return -ENOMEM;
	memcpy(*buf + off, s, n);
	memset(*buf + off + n, 0, 1 + NAME_PAD);
	*len = off + n + 1;
	return (long)off;
}

static long push_node(struct workload *wl, uint32_t parent, const char *name,
		      size_t len, bool is_dir, enum personality p)
{
	struct wl_node *n;
	long off;

	if (reserve((void **)&wl->nodes, &wl->cap_nodes, wl->n_nodes + 1, sizeof(*n)))
		return -ENOMEM;
	off = append_str(&wl->names, &wl->names_len, &wl->names_cap, name, len);
	if (off < 0)
		return off;
	n = &wl->nodes[wl->n_nodes];
	*n = (struct wl_node) {
		.parent = parent,
		.name_off = (uint32_t)off,
		.name_len = (uint16_t)len,
		.personality = (uint8_t)p,
		.is_dir = is_dir,
		.depth = wl->n_nodes ? wl->nodes[parent].depth + 1 : 0,
	};
	return (long)wl->n_nodes++;
}

static long push_lookup(struct workload *wl, uint32_t start, const char *path,
			size_t len, long target)
{
	long off;

	if (reserve((void **)&wl->lookups, &wl->cap_lookups, wl->n_lookups + 1,
		    sizeof(*wl->lookups)))
		return -ENOMEM;
	off = append_str(&wl->paths, &wl->paths_len, &wl->paths_cap, path, len);
	if (off < 0)
		return off;
	wl->lookups[wl->n_lookups] = (struct wl_lookup) {
		.start = start, .path_off = (uint32_t)off, .target = target,
	};
	return (long)wl->n_lookups++;
}

/* ---- hand-built workloads ---- */

int workload_init(struct workload *wl, struct ob_err *err)
{
	memset(wl, 0, sizeof(*wl));
	workload_params_default(&wl->params);
	if (push_node(wl, 0, "/", 1, true, PERS_PLAIN) < 0) {
		workload_free(wl);
		return ob_errorf(err, -ENOMEM, "out of memory for a workload");
	}
	return 0;
}

void workload_set_personality(struct workload *wl, uint32_t node, enum personality p)
{
	if (node < wl->n_nodes && (unsigned int)p < PERS_COUNT)
		wl->nodes[node].personality = (uint8_t)p;
}

long workload_add_node(struct workload *wl, uint32_t parent, const char *name,
		       bool is_dir, enum personality p, struct ob_err *err)
{
	size_t len = strnlen(name, OB_NAME_MAX + 1);
	bool fold;

	if (parent >= wl->n_nodes || !wl->nodes[parent].is_dir)
		return ob_errorf(err, -EINVAL, "parent %u is not a directory of the workload",
				 parent);
	if (len == 0 || len > OB_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return ob_errorf(err, -EINVAL,
				 "name \"%.40s\": must be 1..%u bytes, no '/', not \".\" or \"..\"",
				 name, OB_NAME_MAX);
	if ((unsigned int)p >= PERS_COUNT)
		return ob_errorf(err, -EINVAL, "personality %d: no such personality", (int)p);
	fold = personality_has(wl->nodes[parent].personality, POP_COMPARE);
	for (size_t i = 1; i < wl->n_nodes; i++) {
		const struct wl_node *n = &wl->nodes[i];

		if (n->parent != parent || n->name_len != len)
			continue;
		if (fold ? !casefold_cmp(wl->names + n->name_off, name, (unsigned int)len)
			 : !memcmp(wl->names + n->name_off, name, len))
			return ob_errorf(err, -EEXIST, "\"%s\" already exists in directory %u",
					 name, parent);
	}
	if (push_node(wl, parent, name, len, is_dir, p) < 0)
		return ob_errorf(err, -ENOMEM, "out of memory for a workload");
	return (long)wl->n_nodes - 1;
}

long workload_add_lookup(struct workload *wl, uint32_t start, const char *path,
			 long target, struct ob_err *err)
{
	if (start >= wl->n_nodes || !wl->nodes[start].is_dir)
		return ob_errorf(err, -EINVAL, "lookup start %u is not a directory", start);
	if (target != WL_NONE && (target < 0 || (size_t)target >= wl->n_nodes))
		return ob_errorf(err, -EINVAL, "lookup target %ld is not a node", target);
	if (push_lookup(wl, start, path, strlen(path), target) < 0)
		return ob_errorf(err, -ENOMEM, "out of memory for a workload");
	return (long)wl->n_lookups - 1;
}

void workload_free(struct workload *wl)
{
	free(wl->nodes);
	free(wl->lookups);
	free(wl->names);
	free(wl->paths);
	memset(wl, 0, sizeof(*wl));
}

const char *workload_name(const struct workload *wl, size_t i)
{
	return wl->names + wl->nodes[i].name_off;
}

const char *workload_path(const struct workload *wl, size_t i)
{
	return wl->paths + wl->lookups[i].path_off;
}

bool workload_has_custom_ops(const struct workload *wl)
{
	for (size_t i = 0; i < wl->n_nodes; i++)
		if (wl->nodes[i].personality != PERS_PLAIN)
			return true;
	return false;
}

/* ---- the generator ---- */

static const char name_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
static const char suffix_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";

struct gen {
	const struct workload_params *p;
	struct ob_rng rng;
	unsigned int fanout;
	unsigned int suffix_width;	/* base-36 digits for indices < 2 * fanout */
};

/* Write a name for child @index into @buf; returns its length. */
static size_t make_name(struct gen *g, char *buf, unsigned int index)
{
	unsigned int span = g->p->name_max - g->p->name_min + 1;
	size_t len = g->p->name_min + ob_rng_below(&g->rng, span);
	size_t i;

	if (len < g->suffix_width)
		len = g->suffix_width;
	for (i = 0; i < len - g->suffix_width; i++)
		buf[i] = name_chars[ob_rng_below(&g->rng, sizeof(name_chars) - 1)];
	for (size_t d = len; d > i; d--) {
		buf[d - 1] = suffix_chars[index % 36];
		index /= 36;
	}
	return len;
}

/* A custom personality, uniformly from custom_mask: a new filesystem's. */
static enum personality draw_personality(struct gen *g)
{
	unsigned int choices[PERS_COUNT], n = 0;

	for (unsigned int p = 0; p < PERS_COUNT; p++)
		if (g->p->custom_mask & (1u << p))
			choices[n++] = p;
	return (enum personality)choices[ob_rng_below(&g->rng, n)];
}

static int build_tree(struct gen *g, struct workload *wl)
{
	const struct workload_params *p = g->p;
	unsigned int per = dirs_per_dir(g->fanout, p->dir_share);
	char name[OB_NAME_MAX + 1];

	if (push_node(wl, 0, "/", 1, true, PERS_PLAIN) < 0)
		return -ENOMEM;
	for (size_t i = 0; wl->n_nodes < p->dentries; i++) {
		if (!wl->nodes[i].is_dir)
			continue;
		for (unsigned int k = 0; k < g->fanout && wl->n_nodes < p->dentries; k++) {
			bool dir = k < per;
			size_t len = make_name(g, name, k);
			long n = push_node(wl, (uint32_t)i, name, len, dir, PERS_PLAIN);

			if (n < 0)
				return -ENOMEM;
			wl->nodes[n].stale = ob_rng_unit(&g->rng) < p->stale_share;
		}
	}
	return 0;
}

/*
 * mount_filesystems - give the tree its filesystems.  The root's is plain
 * (custom_share = 1: custom).  Then, visiting the directories in a seeded
 * random order, each one whose subtree is still wholly in the root's
 * filesystem and whose directories still fit the remaining share gets a
 * filesystem of its own, mounted there, with a personality drawn from the
 * custom ones; with custom_share = 1 every fourth directory is such a mount
 * too, so that the personalities still mix.  Finally every dentry takes the
 * personality of the nearest mount above it (parents come before children,
 * so one pass in index order does it).
 */
static int mount_filesystems(struct gen *g, struct workload *wl)
{
	size_t n = wl->n_nodes, dirs, target, have = 0;
	uint32_t *sub = calloc(n, sizeof(*sub));	/* directories in each subtree */
	uint32_t *inside = calloc(n, sizeof(*inside));	/* mounts in each subtree */
	uint32_t *order = malloc(n * sizeof(*order));
	uint8_t *mount = calloc(n, 1);			/* personality + 1 of a mount */

	if (!sub || !inside || !order || !mount) {
		free(sub), free(inside), free(order), free(mount);
		return -ENOMEM;
	}
	for (size_t i = n; i-- > 1;) {
		sub[i] += wl->nodes[i].is_dir;
		sub[wl->nodes[i].parent] += sub[i];
	}
	dirs = ++sub[0];
	target = (size_t)llround(g->p->custom_share * (double)dirs);
	if (target >= dirs && target) {
		mount[0] = (uint8_t)(draw_personality(g) + 1);
		have = dirs;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	ob_rng_shuffle(&g->rng, order, n);
	for (size_t k = 0; k < n && target; k++) {
		uint32_t d = order[k];
		bool all_custom = have == dirs;

		if (!d || !wl->nodes[d].is_dir)
			continue;
		if (all_custom ? ob_rng_below(&g->rng, 4) != 0 :
		    inside[d] || sub[d] > target - have)
			continue;
		/* Is an ancestor a mount already?  Then d is not in the root's fs. */
		uint32_t a = d;

		while (a && !mount[a])
			a = wl->nodes[a].parent;
		if (a && !all_custom)
			continue;
		mount[d] = (uint8_t)(draw_personality(g) + 1);
		if (!all_custom)
			have += sub[d];
		for (a = d; a; a = wl->nodes[a].parent)
			inside[a]++;
	}
	for (size_t i = 0; i < n; i++)
		wl->nodes[i].personality = mount[i] ? (uint8_t)(mount[i] - 1) :
			i ? wl->nodes[wl->nodes[i].parent].personality : PERS_PLAIN;
	free(sub), free(inside), free(order), free(mount);
	return 0;
}

/* Flip the case of each letter of @s with probability 1/2. */
static void vary_case(struct gen *g, char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!(ob_rng_next(&g->rng) & 1))
			continue;
		if (c >= 'a' && c <= 'z')
			s[i] = (char)(c - 'a' + 'A');
		else if (c >= 'A' && c <= 'Z')
			s[i] = (char)(c - 'A' + 'a');
	}
}

/* Cumulative Zipf(s) weights over ranks 1..n, normalised to 1. */
static double *zipf_cdf(size_t n, double s)
{
	double *cdf = malloc(n * sizeof(*cdf)), sum = 0;

	if (!cdf)
		return NULL;
	for (size_t k = 0; k < n; k++)
		cdf[k] = (sum += pow((double)(k + 1), -s));
	for (size_t k = 0; k < n; k++)
		cdf[k] /= sum;
	return cdf;
}

static size_t zipf_draw(struct gen *g, const double *cdf, size_t n)
{
	double u = ob_rng_unit(&g->rng);
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int build_lookups(struct gen *g, struct workload *wl)
{
	const struct workload_params *p = g->p;
	size_t want, n_targets = 0;
	uint32_t *targets, chain[WL_MAX_DEPTH];
	double *cdf = NULL;
	char *path;
	int ret = -ENOMEM;

	want = list_length(p);
	targets = malloc(wl->n_nodes * sizeof(*targets));
	path = malloc((size_t)WL_MAX_DEPTH * (OB_NAME_MAX + 1) + 1);
	if (!targets || !path)
		goto out;
	for (size_t i = 0; i < wl->n_nodes; i++)
		if (wl->nodes[i].depth >= p->path_depth)
			targets[n_targets++] = (uint32_t)i;
	if (p->order == ORDER_ZIPF) {
		/* Rank the targets in a random order, then favour low ranks. */
		ob_rng_shuffle(&g->rng, targets, n_targets);
		cdf = zipf_cdf(n_targets, p->zipf_s);
		if (!cdf)
			goto out;
	}

	for (size_t i = 0; i < want; i++) {
		size_t pick, len = 0;
		uint32_t target, start;
		bool negative = ob_rng_unit(&g->rng) < p->negative_share;

		switch (p->order) {
		case ORDER_SORTED:	pick = i % n_targets; break;
		case ORDER_ZIPF:	pick = zipf_draw(g, cdf, n_targets); break;
		default:		pick = ob_rng_below(&g->rng, n_targets); break;
		}
		target = targets[pick];
		chain[p->path_depth - 1] = target;
		for (unsigned int d = p->path_depth - 1; d > 0; d--)
			chain[d - 1] = wl->nodes[chain[d]].parent;
		start = wl->nodes[chain[0]].parent;

		for (unsigned int d = 0; d < p->path_depth; d++) {
			uint32_t dir = d ? chain[d - 1] : start;
			char *comp = path + len;
			size_t clen;

			if (negative && d == p->path_depth - 1) {
				clen = make_name(g, comp,
						 g->fanout + (unsigned int)ob_rng_below(&g->rng, g->fanout));
			} else {
				clen = wl->nodes[chain[d]].name_len;
				memcpy(comp, workload_name(wl, chain[d]), clen);
			}
			if (personality_has(wl->nodes[dir].personality, POP_COMPARE) &&
			    ob_rng_unit(&g->rng) < p->case_share)
				vary_case(g, comp, clen);
			len += clen;
			if (d + 1 < p->path_depth)
				path[len++] = '/';
		}
		if (push_lookup(wl, start, path, len, negative ? WL_NONE : (long)target) < 0)
			goto out;
	}
	ret = 0;
out:
	free(cdf);
	free(path);
	free(targets);
	return ret;
}

int workload_generate(const struct workload_params *p, struct workload *wl,
		      struct ob_err *err)
{
	struct gen g = { .p = p };
	int ret;

	memset(wl, 0, sizeof(*wl));
	ret = workload_params_check(p, err);
	if (ret)
		return ret;
	wl->params = *p;
	g.fanout = wl->fanout = pick_fanout(p);
	for (unsigned int span = 36; span < 2 * g.fanout; span *= 36)
		g.suffix_width++;
	g.suffix_width++;
	/* Names end in a base-36 index that keeps siblings apart: it needs the room. */
	if (p->name_max < g.suffix_width)
		return ob_errorf(err, -EINVAL,
				 "name_max=%u: names must have at least %u bytes to be distinct among %u children per directory (raise --name-max or lower --fanout)",
				 p->name_max, g.suffix_width, g.fanout);
	ob_rng_seed(&g.rng, p->seed);

	ret = build_tree(&g, wl);
	if (!ret)
		ret = mount_filesystems(&g, wl);
	if (!ret)
		ret = build_lookups(&g, wl);
	if (ret) {
		workload_free(wl);
		return ob_errorf(err, ret, "out of memory generating %zu dentries", p->dentries);
	}
	return 0;
}
