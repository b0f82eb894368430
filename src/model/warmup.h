/* SPDX-License-Identifier: MIT */
/*
 * warmup.h - cold mode's warm-up lookup, for a strategy's instance.
 *
 * Part of the timing harness, not of the model: before each timed cold
 * lookup, ob_pollute() makes one untimed lookup, through the same
 * out-of-line walk (SYM(walk_cold)), in copies of a directory and its child
 * that live in the tree's warm-up room (struct ob_warmup, model/tree.h), so
 * that the branch predictors are trained and no line of the tree is
 * touched.  Included by model/instance.h, so that every strategy compiles
 * the same code; the method: docs/method.md#the-warm-up-lookup.
 */
#ifndef OPSBENCH_MODEL_WARMUP_H
#define OPSBENCH_MODEL_WARMUP_H

#ifndef OPSBENCH_MODEL_INSTANCE_H
#error "model/warmup.h is part of a strategy's instance: include model/instance.h"
#endif

/*
 * Cold mode's walk, out of line: the timed lookup and the warm-up lookup
 * before it run these same instructions, so that the
 * warm-up trains the very branches the timed lookup takes.
 */
static OB_LOOP_FN void *SYM(walk_cold)(void *dir, const char *path)
{
	return walk_path(dir, path);
}

/*
 * Copy dentry @real into @copy for the warm-up, with a superblock and an ops
 * table of its own (slot @k of the tree's warm-up room: 0 for the directory,
 * 1 for the child); @parent: the copied directory when @real is the child,
 * NULL when it is the directory (which is then its own parent).
 */
static void SYM(warmup_copy)(struct ob_tree *t, struct dentry *copy, const struct dentry *real,
			     struct dentry *parent, int k)
{
	struct ob_warmup *w = t->warmup;

	memcpy(copy, real, t->stride);
	w->sb[k] = *real->d_sb;
	copy->d_sb = &w->sb[k];
	if (real->d_sb->s_d_op) {
		w->ops[k] = *real->d_sb->s_d_op;
		w->sb[k].s_d_op = &w->ops[k];
	}
#if DENTRY_LAYOUT == DENTRY_LAYOUT_OPS_POINTER
	if (real->d_op) {
		w->ops[k] = *real->d_op;
		copy->d_op = &w->ops[k];
	}
#endif
	/* The component context reads the inode and its ops: copies of them too. */
	struct ob_warmup_inodes *wi = (struct ob_warmup_inodes *)
		((unsigned char *)(w + 1) + (size_t)(1 + OB_WARMUP_DIRS) * t->stride);

	wi->inode[k] = *real->d_inode;
	wi->iops[k] = *real->d_inode->i_op;
	wi->inode[k].i_op = &wi->iops[k];
	wi->inode[k].i_sb = &w->sb[k];
	w->sb[k].s_i_op = &wi->iops[k];
	copy->d_inode = &wi->inode[k];
	copy->d_parent = parent ? parent : copy;
	copy->d_hash = (struct hlist_bl_node) { 0 };
	copy->d_sib = (struct hlist_bl_node) { 0 };
	copy->d_children = NULL;
}

/* Is the hash table's line holding @b free of every dentry? */
static bool SYM(line_unused)(const struct hlist_bl_head *b)
{
	const size_t per_line = L1_CACHE_BYTES / sizeof(*b);
	const struct hlist_bl_head *first = b - (b - OB_D_HASHTABLE) % per_line;

	for (size_t i = 0; i < per_line; i++)
		if (first[i].first)
			return false;
	return true;
}

/*
 * Set up the warm-up lookup: the first entry of the
 * lookup list whose first component exists, copied.  None where no entry
 * has one, or no place tried for the directory gives its child a line of
 * the hash table of its own.
 */
static void SYM(warmup_build)(struct ob_tree *t)
{
	struct ob_warmup *w = t->warmup;
	unsigned char *room = (unsigned char *)(w + 1);
	struct dentry *child = (struct dentry *)room;

	for (size_t i = 0; i < t->n_prepared; i++) {
		const char *path = t->prepared[i].path;
		struct dentry *dir = t->prepared[i].start, *real;
		size_t len = 0;

		while (*path == '/')
			path++;
		while (path[len] && path[len] != '/')
			len++;
		if (!len || len > 255 || (path[0] == '.' && len <= 2 && (len == 1 || path[1] == '.')))
			continue;
		memset(w->path, 0, sizeof(w->path));
		memcpy(w->path, path, len);
		real = walk_path(dir, w->path);
		if (!real)
			continue;
		for (int k = 0; k < OB_WARMUP_DIRS; k++) {
			struct dentry *copy = (struct dentry *)(room + (size_t)(1 + k) * t->stride);
			struct qstr q = { .name = w->path, .len = (uint32_t)len };
			const struct wl_node *pn = &t->wl->nodes[dir->d_inode->i_ino];
			struct hlist_bl_head *b;

			SYM(warmup_copy)(t, copy, dir, NULL, 0);
			SYM(warmup_copy)(t, child, real, copy, 1);
			if (real->d_name.name != real->d_iname) {
				memset(w->name, 0, sizeof(w->name));
				memcpy(w->name, real->d_name.name, real->d_name.len);
				child->d_name.name = w->name;
			} else {
				child->d_name.name = child->d_iname;
			}
			/* The hash as the tree's own: the personality's op (init_dentry). */
			q.hash = full_name_hash(copy, w->path, len);
			ops_full[pn->personality]->d_hash(copy, &q);
			child->d_name.hash = q.hash;
			b = d_hash_bucket(q.hash);
			if (!SYM(line_unused)(b))
				continue;
			child->d_hash.pprev = &b->first;
			b->first = &child->d_hash;
			if (walk_path(copy, w->path) != child) {
				b->first = NULL;
				return;
			}
			t->warmup_dir = copy;
			t->warmup_path = w->path;
			return;
		}
		return;
	}
}

#endif /* OPSBENCH_MODEL_WARMUP_H */
