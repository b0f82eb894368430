/* SPDX-License-Identifier: MIT */
/*
 * component.h - the component context: a whole path component as the
 * kernel runs it around the dcache lookup (docs/model.md#context).
 *
 * Two parts.  The first, the kernel's globals a component reads (defined in
 * src/component.c), is for anyone.  The second is a template that
 * src/model/instance.h includes once per kernel generation, with
 * OB_COMPONENT_KERNEL set to 612 or 61, after src/model/walk.h; it compiles
 * link_path_walk()'s loop and the functions it calls for the strategy, each
 * named KSYM(x) = <strategy>_k612_<x> or <strategy>_k61_<x>.
 *
 * It follows fs/namei.c and security/security.c of Linux v6.12 and v6.1,
 * with the out-of-line calls where Debian's kernels make them:
 *
 *   link_path_walk  (inlined into the measured loop, as the bare walk)
 *     may_lookup (inline)
 *       call inode_permission
 *              do_inode_permission (inline): IOP_FASTPERM set: call
 *              generic_permission; else i_op->permission through the
 *              strategy's seam, and when it has none set IOP_FASTPERM and
 *              call generic_permission
 *                call make_vfsuid (the owner check)
 *              devcgroup_inode_permission (inline: not a device)
 *              jmp security_inode_permission
 *                6.12: static-call hooks behind a static key that is off
 *                6.1:  walk security_hook_heads.inode_permission, one
 *                      indirect call (the BPF LSM's stub)
 *     the parent's d_hash (the strategy's seam, as the bare walk)
 *     call walk_component
 *       call lookup_fast
 *         call __d_lookup_rcu (6.1: table base and shift from memory)
 *         the parent's d_seq; the child's d_revalidate (the seam)
 *       jmp step_into: the child's d_flags (mounts, automounts,
 *         symlinks), its d_seq, its d_inode
 *     d_can_lookup() on the child when a '/' follows
 */
#ifndef OPSBENCH_MODEL_COMPONENT_H
#define OPSBENCH_MODEL_COMPONENT_H

#include "opsbench/dentry.h"

/* Who walks: an ordinary user, who owns the tree's directories. */
#define OB_WALKER_UID	1000u
#define OB_WALKER_GID	1000u

/* The mode of the tree's directories: a Debian 12 home directory's. */
#define OB_DIR_MODE	(OB_S_IFDIR | 0700u)
#define OB_FILE_MODE	(OB_S_IFREG | 0644u)

/* One LSM's hook on the list of one hook (struct security_hook_list, 6.1). */
struct security_hook_list {
	struct security_hook_list *next;
	int (*inode_permission)(struct inode *inode, int mask);
	const char *lsm;
};

/* The lists (security_hook_heads, 6.1), of which path walk reads one. */
struct security_hook_heads {
	struct security_hook_list *inode_permission;
};

extern struct security_hook_heads ob_security_hook_heads;
extern struct mnt_idmap ob_nop_mnt_idmap;
extern struct user_namespace ob_init_user_ns;
/* current_cred(): the walker's credentials. */
extern const struct cred *ob_current_cred;

int ob_bpf_lsm_inode_permission(struct inode *inode, int mask);

/*
 * A function of the kernel's that is out of line there: out of line here,
 * and no interprocedural optimisation either (a kernel's caller does not
 * know what a function in another file returns).
 */
#if defined(__clang__)
#define OB_KFUNC	noinline
#else
#define OB_KFUNC	__attribute__((noipa))
#endif

#endif /* OPSBENCH_MODEL_COMPONENT_H */

/* ---- the template: one kernel generation's component, for one strategy ---- */

#ifdef OB_COMPONENT_KERNEL
#ifndef OPSBENCH_MODEL_INSTANCE_H
#error "the component template is part of a strategy's instance: include model/instance.h"
#endif

#if OB_COMPONENT_KERNEL == 612
#define KSYM(x)		SYM(OB_CONCAT(k612_, x))
#elif OB_COMPONENT_KERNEL == 61
#define KSYM(x)		SYM(OB_CONCAT(k61_, x))
#else
#error "OB_COMPONENT_KERNEL is 612 or 61"
#endif

/* RCU-walk's state of the walk (struct nameidata, what a component uses). */
struct KSYM(nameidata) {
	struct dentry *dentry;		/* nd->path.dentry: the directory */
	struct inode *inode;		/* nd->inode */
	unsigned int seq, next_seq;	/* nd->seq, nd->next_seq */
	struct qstr last;		/* the component */
};

/* d_hash(): the bucket of @hash; 6.1 loads the table's base and shift. */
static __always_inline struct hlist_bl_head *KSYM(d_hash)(uint32_t hash)
{
#if OB_COMPONENT_KERNEL == 61
	return ob_dentry_hashtable + (hash >> ob_d_hash_shift);
#else
	return d_hash_bucket(hash);
#endif
}

/* security_inode_permission (security/security.c). */
static OB_KFUNC int KSYM(security_inode_permission)(struct inode *inode, int mask)
{
	if (unlikely(inode->i_flags & S_PRIVATE))
		return 0;
#if OB_COMPONENT_KERNEL == 61
	/* call_int_hook(inode_permission, 0, inode, mask) */
	for (struct security_hook_list *p = ob_security_hook_heads.inode_permission; p; p = p->next) {
		int rc = p->inode_permission(inode, mask);

		if (rc)
			return rc;
	}
	return 0;
#else
	/* The hooks are static calls behind static keys, all off: no call. */
	(void)mask;
	return 0;
#endif
}

/*
 * inode_permission (fs/namei.c) for MAY_EXEC: sb_permission() and the
 * MAY_WRITE checks fold away; do_inode_permission() is inline in it.
 */
static OB_KFUNC int KSYM(inode_permission)(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	int ret;

	/* do_inode_permission: a NULL test whose answer is cached as a flag bit. */
	if (likely(inode->i_opflags & IOP_FASTPERM)) {
		ret = SYM(generic_permission)(idmap, inode, mask);
	} else if (likely(OP_PRESENT(inode, permission, IOP_OP_PERMISSION))) {
		ret = OP_CALL(inode, permission, idmap, inode, mask);
	} else {
		/* The kernel takes i_lock around this store. */
		inode->i_opflags |= IOP_FASTPERM;
		ret = SYM(generic_permission)(idmap, inode, mask);
	}
	if (ret)
		return ret;
	/* devcgroup_inode_permission: nothing to check unless a device. */
	if (unlikely((inode->i_mode & OB_S_IFMT) == OB_S_IFBLK ||
		     (inode->i_mode & OB_S_IFMT) == OB_S_IFCHR))
		return -EACCES;
	return KSYM(security_inode_permission)(inode, mask);
}

#ifdef STRATEGY_HOIST_COMPARE
/* __d_lookup_rcu_op_compare: the chain walk of a directory with d_compare. */
static OB_KFUNC struct dentry *KSYM(d_lookup_rcu_op_compare)(const struct dentry *parent,
							  const struct qstr *name,
							  unsigned int *seqp)
{
	struct hlist_bl_node *node;

	for (node = hlist_bl_first_rcu(KSYM(d_hash)(name->hash)); node; node = node->next)
		if (d_matches(parent, chain_entry(node), name, true))
			return d_found(node, seqp);
	return NULL;
}
#endif

/* __d_lookup_rcu (fs/dcache.c): as the bare walk's d_lookup(), out of line. */
static OB_KFUNC struct dentry *KSYM(d_lookup_rcu)(const struct dentry *parent,
					       const struct qstr *name, unsigned int *seqp)
{
	struct hlist_bl_node *node;

#ifdef STRATEGY_HOIST_COMPARE
	if (unlikely(OP_PRESENT(parent, d_compare, DCACHE_OP_COMPARE)))
		return KSYM(d_lookup_rcu_op_compare)(parent, name, seqp);
#endif
	for (node = hlist_bl_first_rcu(KSYM(d_hash)(name->hash)); node; node = node->next)
		if (site_d_compare(parent, chain_entry(node), name))
			return d_found(node, seqp);
	return NULL;
}

/* lookup_fast (fs/namei.c), RCU-walk: the child, or NULL (none, changed, stale). */
static OB_KFUNC struct dentry *KSYM(lookup_fast)(struct KSYM(nameidata) *nd)
{
	struct dentry *parent = nd->dentry, *dentry;

	dentry = KSYM(d_lookup_rcu)(parent, &nd->last, &nd->next_seq);
	if (unlikely(!dentry))
		return NULL;
	/* read_seqcount_retry: the parent did not change while we looked. */
	if (unlikely(READ_ONCE(parent->d_seq) != nd->seq))
		return NULL;
	if (unlikely(OP_PRESENT(dentry, d_revalidate, DCACHE_OP_REVALIDATE)) &&
	    OP_CALL(dentry, d_revalidate, dentry, 0) <= 0)
		return NULL;
	return dentry;
}

/*
 * step_into (fs/namei.c), RCU-walk: move to @dentry.  handle_mounts()'s
 * test of the child's d_flags for mounts, automounts and managed
 * transitions, the symlink test, the child's d_seq and d_inode.  Returns 0,
 * or a negative errno (none of those happen in the model's trees: no
 * mounts are crossed, no symlinks followed).
 */
static OB_KFUNC int KSYM(step_into)(struct KSYM(nameidata) *nd, struct dentry *dentry)
{
	unsigned int flags = READ_ONCE(dentry->d_flags);
	struct inode *inode;

	if (unlikely(flags & DCACHE_MANAGED_DENTRY))
		return -ECHILD;		/* __follow_mount_rcu() would cross a mount */
	inode = dentry->d_inode;
	if (unlikely((flags & DCACHE_ENTRY_TYPE) == DCACHE_SYMLINK_TYPE))
		return -ELOOP;		/* pick_link() is not modelled */
	if (unlikely(READ_ONCE(dentry->d_seq) != nd->next_seq))
		return -ECHILD;
	if (unlikely(!inode))
		return -ENOENT;
	nd->dentry = dentry;
	nd->inode = inode;
	nd->seq = nd->next_seq;
	return 0;
}

/* walk_component (fs/namei.c) for a LAST_NORM component: lookup_fast, step_into. */
static OB_KFUNC int KSYM(walk_component)(struct KSYM(nameidata) *nd)
{
	struct dentry *dentry = KSYM(lookup_fast)(nd);

	if (unlikely(!dentry))
		return -ENOENT;		/* lookup_slow() is not modelled: not found */
	return KSYM(step_into)(nd, dentry);
}

/*
 * link_path_walk, and the last component as walk_component() looks it up:
 * the dentry @path names from @dir, or NULL (no such name, stale, a
 * non-directory followed by '/', or search permission denied).  Slashes
 * and "."/".." as in the bare walk (src/model/walk.h); ".." steps into the
 * parent, as handle_dots() does.
 */
static __always_inline struct dentry *KSYM(walk_path)(struct dentry *dir, const char *path)
{
	struct KSYM(nameidata) nd = {
		.dentry	= dir,
		.inode	= dir->d_inode,
		.seq	= READ_ONCE(dir->d_seq),
	};

	while (*path == '/')
		path++;
	if (!*path)
		return dir;

	for (;;) {
		struct dentry *parent = nd.dentry;

		/* may_lookup: search permission on the directory, under RCU. */
		if (KSYM(inode_permission)(&ob_nop_mnt_idmap, nd.inode, MAY_EXEC | MAY_NOT_BLOCK))
			return NULL;

		nd.last.name = path;
		nd.last.hash_len = hash_name(parent, path);

		if (unlikely(path[0] == '.') && nd.last.len <= 2 &&
		    (nd.last.len == 1 || path[1] == '.')) {
			/* handle_dots: "." stays, ".." steps into the parent. */
			if (nd.last.len == 2) {
				nd.next_seq = READ_ONCE(parent->d_parent->d_seq);
				if (KSYM(step_into)(&nd, parent->d_parent))
					return NULL;
			}
		} else {
			if (site_d_hash(parent, &nd.last) < 0)
				return NULL;
			if (KSYM(walk_component)(&nd))
				return NULL;
		}

		path += nd.last.len;
		if (!*path)
			return nd.dentry;
		/* A '/' follows: d_can_lookup(), else ENOTDIR. */
		if ((nd.dentry->d_flags & DCACHE_ENTRY_TYPE) != DCACHE_DIRECTORY_TYPE)
			return NULL;
		while (*path == '/')
			path++;
		if (!*path)
			return nd.dentry;
	}
}

/* Cold mode's walk in this context, out of line (as SYM(walk_cold), model/warmup.h). */
static OB_LOOP_FN void *KSYM(walk_cold)(void *dir, const char *path)
{
	return KSYM(walk_path)(dir, path);
}

#undef KSYM
#undef OB_COMPONENT_KERNEL
#endif /* OB_COMPONENT_KERNEL */
