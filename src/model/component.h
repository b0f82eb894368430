/* SPDX-License-Identifier: MIT */
/*
 * component.h - the component context: a whole path component as the
 * kernel runs it around the dcache lookup (docs/model.md#context).
 *
 * Two parts.  The first, the kernel's types and globals a component reads
 * (defined in src/component.c), is for anyone.  The second is a template
 * that src/model/instance.h includes once per kernel generation, with
 * OB_COMPONENT_KERNEL set to 612 or 61, after src/model/walk.h; it compiles
 * link_path_walk()'s loop and the functions it calls for the strategy, each
 * named KSYM(x) = <strategy>_k612_<x> or <strategy>_k61_<x>.
 *
 * Each function is the kernel's C of fs/namei.c, fs/dcache.c,
 * fs/mnt_idmapping.c and security/security.c at v6.12 and v6.1, branches
 * that the modelled walk never takes included, so that the compiler saves
 * the registers, keeps the locals on the stack and tests what the kernel's
 * compiler does.  What those branches call is out of line in
 * src/component.c (ob_cold_*: never run here).  The functions are out of
 * line where Debian's kernels have them:
 *
 *   link_path_walk  (its loop inlined into the measured loop)
 *     may_lookup (inline)
 *       call inode_permission
 *              do_inode_permission (inline): IOP_FASTPERM set: call
 *              generic_permission; else i_op->permission through the
 *              strategy's seam, and when it has none set IOP_FASTPERM and
 *              call generic_permission
 *                6.12: call make_vfsuid (the owner check)
 *                6.1:  the idmapping inline
 *              devcgroup_inode_permission (inline: i_rdev is 0)
 *              jmp security_inode_permission
 *                6.12: the LSMs' static-call slots, each behind a static
 *                      key that is off: 11 jump-label NOPs
 *                6.1:  walk security_hook_heads.inode_permission, one
 *                      indirect call (the BPF LSM's stub)
 *     the parent's d_hash (the strategy's seam, as the bare walk)
 *     call walk_component
 *       call lookup_fast
 *         call __d_lookup_rcu (6.1: table base and shift from memory)
 *         the parent's d_seq; the child's d_revalidate (the seam)
 *       jmp step_into: handle_mounts with the struct path on the stack
 *         (stack protector), the child's d_flags, d_seq and d_inode
 *     d_can_lookup() on the child when a '/' follows
 *
 * Counted against Debian's compiled kernels function by function:
 * src/model/kernel-counts.csv, tests/test_kcounts.py.
 */
#ifndef OPSBENCH_MODEL_COMPONENT_H
#define OPSBENCH_MODEL_COMPONENT_H

#include <stdbool.h>

#include "opsbench/dentry.h"

/* Who walks: an ordinary user, who owns the tree's directories. */
#define OB_WALKER_UID	1000u
#define OB_WALKER_GID	1000u

/* The mode of the tree's directories: a Debian 12 home directory's. */
#define OB_DIR_MODE	(OB_S_IFDIR | 0700u)
#define OB_FILE_MODE	(OB_S_IFREG | 0644u)

/* nd->flags, nd->state, nd->last_type, walk_component()'s flags (fs/namei.c, include/linux/namei.h). */
#define LOOKUP_FOLLOW		0x0001u
#define LOOKUP_RCU		0x0040u
#define LOOKUP_NO_SYMLINKS	0x010000u
#define LOOKUP_NO_XDEV		0x040000u
#define ND_JUMPED		0x0004u
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };
#define WALK_TRAILING		0x0001
#define WALK_MORE		0x0002
#define WALK_NOFOLLOW		0x0004
#define MAXSYMLINKS		40

/* i_flags, s_flags (include/linux/fs.h). */
#define S_IMMUTABLE		0x0008u
#define SB_RDONLY		0x0001u

/* ERR_PTR and friends (include/linux/err.h). */
#define OB_MAX_ERRNO		4095
#define ERR_PTR(e)		((void *)(long)(e))
#define PTR_ERR(p)		((long)(p))
#define IS_ERR(p)		unlikely((unsigned long)(void *)(p) >= (unsigned long)-OB_MAX_ERRNO)

/* A mount (struct vfsmount): path walk reads its idmapping. */
struct vfsmount {
	struct dentry *mnt_root;
	struct super_block *mnt_sb;
	int mnt_flags;
	struct mnt_idmap *mnt_idmap;
};

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

/* What the kernel's `current` gives path walk: its credentials. */
struct task_struct {
	const struct cred *cred;
};

/* One LSM's hook on the list of one hook (struct security_hook_list, 6.1). */
struct security_hook_list {
	struct security_hook_list *next;	/* hlist_node */
	struct security_hook_list **pprev;
	void *head;
	int (*inode_permission)(struct inode *inode, int mask);
	const char *lsm;
};

/* The lists (security_hook_heads, 6.1), of which path walk reads one. */
struct security_hook_heads {
	struct security_hook_list *inode_permission;
};

extern struct security_hook_heads ob_security_hook_heads;
extern struct mnt_idmap ob_nop_mnt_idmap, ob_invalid_mnt_idmap;
extern struct user_namespace ob_init_user_ns;
/* The mount every walk is on (nop_mnt_idmap). */
extern struct vfsmount ob_mnt;
/*
 * current: the walker.  The kernel reads it per CPU through %gs (one load);
 * here it is a global pointer (one load too).
 */
extern struct task_struct *ob_current;

int ob_bpf_lsm_inode_permission(struct inode *inode, int mask);

/*
 * What the kernel's functions call on branches that the modelled walk never
 * takes (src/component.c): out of line, so that a caller keeps its
 * registers and locals across them as the kernel's does.  Each returns
 * what ends the walk (a failure).
 */
bool ob_cold_try_to_unlazy(void *nd);
bool ob_cold_try_to_unlazy_next(void *nd, struct dentry *dentry);
struct dentry *ob_cold_lookup_slow(const struct qstr *name, struct dentry *dir, unsigned int flags);
struct dentry *ob_cold_d_lookup(const struct dentry *parent, const struct qstr *name);
void ob_cold_dput(struct dentry *dentry);
void ob_cold_mntput(struct vfsmount *mnt);
void ob_cold_d_invalidate(struct dentry *dentry);
bool ob_cold_follow_managed(void *nd, struct path *path);
int ob_cold_traverse_mounts(struct path *path, bool *jumped, int *count, unsigned int flags);
const char *ob_cold_pick_link(void *nd, struct path *link, struct inode *inode, int flags);
const char *ob_cold_nd_jump(void *nd);
void ob_cold_lock(void *lock);
void ob_cold_unlock(void *lock);
void *ob_cold_get_acl(struct inode *inode, int type, bool rcu);
int ob_cold_acl_permission(struct mnt_idmap *idmap, struct inode *inode, void *acl, int mask);
void ob_cold_acl_release(void *acl);
uint32_t ob_cold_make_vfsgid(struct mnt_idmap *idmap, struct user_namespace *fs_userns, uint32_t kgid);
uint32_t ob_cold_from_kuid(struct user_namespace *ns, uint32_t kuid);
uint32_t ob_cold_map_id(struct mnt_idmap *idmap, uint32_t id);
bool ob_cold_capable_wrt_inode_uidgid(struct mnt_idmap *idmap, const struct inode *inode, int cap);
bool ob_cold_in_group_p(uint32_t gid);
int ob_cold_devcgroup_check(short type, unsigned int major, unsigned int minor, short access);
int ob_cold_lsm_hook(struct inode *inode, int mask);

/*
 * A function of the kernel's that is out of line there: out of line here,
 * and no interprocedural optimisation either (a kernel's caller does not
 * know what a function in another file returns).  OB_KFUNC_GLOBAL for the
 * kernel's global functions: with IBT they begin with endbr64, as the
 * kernel's do, where its static ones do not.
 */
#if defined(__clang__)
#define OB_KFUNC		static noinline
#define OB_KFUNC_GLOBAL		noinline __attribute__((visibility("hidden")))
#else
#define OB_KFUNC		static __attribute__((noipa))
#define OB_KFUNC_GLOBAL		__attribute__((noipa, visibility("hidden")))
#endif

/*
 * A static key's jump label that is off: a NOP that becomes a jump to @l
 * when the key is enabled (arch_static_branch()).  x86-64 has 2- and
 * 5-byte ones (objtool shrinks a jump whose target is near).
 */
#if defined(__x86_64__)
#define OB_JUMP_LABEL_NOP2(l)	__asm__ goto(".byte 0x66, 0x90" : : : : l)
#define OB_JUMP_LABEL_NOP5(l)	__asm__ goto(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" : : : : l)
#else
#define OB_JUMP_LABEL_NOP2(l)	__asm__ goto("nop" : : : : l)
#define OB_JUMP_LABEL_NOP5(l)	__asm__ goto("nop" : : : : l)
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

/* A symlink being followed (struct saved). */
struct KSYM(saved) {
	struct path link;
	struct {
		void (*fn)(void *arg);
		void *arg;
	} done;				/* struct delayed_call */
	const char *name;
	unsigned int seq;
};

/* The state of a walk (struct nameidata), the kernel's fields and order. */
struct KSYM(nameidata) {
	struct path path;
	struct qstr last;
	struct path root;
	struct inode *inode;		/* path.dentry's inode */
	unsigned int flags, state;
	unsigned int seq, next_seq, m_seq, r_seq;
	int last_type;
	unsigned int depth;
	int total_link_count;
	struct KSYM(saved) *stack;
	uint32_t dir_vfsuid;		/* the last directory's owner and mode */
	unsigned int dir_mode;		/* (may_create_in_sticky's "hardening") */
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

/* ---- permission: fs/namei.c, fs/mnt_idmapping.c, security/security.c ---- */

/* current_cred()->@field: current, its cred, the field (three loads). */
#define OB_CURRENT_CRED(field)	(READ_ONCE(ob_current)->cred->field)

/* An id of @fs_userns through idmapping @idmap (from_kuid(), map_id_down()): -1 for none. */
static __always_inline uint32_t KSYM(map_kuid)(struct mnt_idmap *idmap, struct user_namespace *fs_userns,
						uint32_t kuid)
{
	uint32_t uid;

	if (fs_userns == &ob_init_user_ns)
		uid = kuid;
	else
		uid = ob_cold_from_kuid(fs_userns, kuid);
	if (uid == (uint32_t)-1)
		return (uint32_t)-1;
	return ob_cold_map_id(idmap, uid);
}

#if OB_COMPONENT_KERNEL == 612
/* make_vfsuid (fs/mnt_idmapping.c): the owner as the mount sees it. */
OB_KFUNC_GLOBAL uint32_t KSYM(make_vfsuid)(struct mnt_idmap *idmap, struct user_namespace *fs_userns,
					    uint32_t kuid)
{
	/* likely(): gcc 12 then lays it out as the kernel's (the nop idmapping first). */
	if (likely(idmap == &ob_nop_mnt_idmap))
		return kuid;
	if (idmap == &ob_invalid_mnt_idmap)
		return (uint32_t)-1;
	return KSYM(map_kuid)(idmap, fs_userns, kuid);
}

/* i_uid_into_vfsuid(): the inode's owner through the mount's idmapping. */
#define OB_I_UID_MAPPED(idmap, inode) \
	KSYM(make_vfsuid)(idmap, (inode)->i_sb->s_user_ns, (inode)->i_uid)
#else
/* 6.1's i_uid_into_mnt() -> mapped_kuid_fs(), inline: no call without an idmapping. */
static __always_inline uint32_t KSYM(mapped_kuid_fs)(struct mnt_idmap *idmap,
						      struct user_namespace *fs_userns,
						      uint32_t kuid)
{
	/* no_idmapping(): the initial idmapping, or the filesystem's own. */
	if (idmap == &ob_nop_mnt_idmap || (void *)idmap == (void *)fs_userns)
		return kuid;
	return KSYM(map_kuid)(idmap, fs_userns, kuid);
}

#define OB_I_UID_MAPPED(idmap, inode) \
	KSYM(mapped_kuid_fs)(idmap, (inode)->i_sb->s_user_ns, (inode)->i_uid)
#endif

/* check_acl (fs/namei.c): the POSIX ACL's answer, -EAGAIN without one. */
static __always_inline int KSYM(check_acl)(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	void *acl;
	int error;

	if (mask & MAY_NOT_BLOCK) {
		acl = ob_cold_get_acl(inode, 0, true);		/* get_cached_acl_rcu */
		if (!acl)
			return -EAGAIN;
		if ((uintptr_t)acl & 1)				/* is_uncached_acl */
			return -ECHILD;
		return ob_cold_acl_permission(idmap, inode, acl, mask);
	}
	acl = ob_cold_get_acl(inode, 0, false);			/* get_inode_acl */
	if (IS_ERR(acl))
		return (int)PTR_ERR(acl);
	if (acl) {
		error = ob_cold_acl_permission(idmap, inode, acl, mask);
		ob_cold_acl_release(acl);
		return error;
	}
	return -EAGAIN;
}

/* acl_permission_check: the mode bits, the owner's first. */
static __always_inline int KSYM(acl_permission_check)(struct mnt_idmap *idmap, struct inode *inode,
						       int mask)
{
	unsigned int mode = inode->i_mode;
	uint32_t uid = OB_I_UID_MAPPED(idmap, inode);

	/* Are we the owner?  Then ACLs do not matter. */
#if OB_COMPONENT_KERNEL == 612
	if (likely(uid == OB_CURRENT_CRED(fsuid) && uid != (uint32_t)-1)) {	/* vfsuid_eq_kuid */
#else
	if (likely(OB_CURRENT_CRED(fsuid) == uid)) {				/* uid_eq */
#endif
		mask &= 7;
		mode >>= 6;
		return (mask & ~mode) ? -EACCES : 0;
	}
	/* Do we have ACLs? */
	if ((inode->i_sb->s_flags & SB_POSIXACL) && (mode & OB_S_IRWXG)) {
		int error = KSYM(check_acl)(idmap, inode, mask);

		if (error != -EAGAIN)
			return error;
	}
	mask &= 7;
	/* Group bits that differ from the others' where we ask: are we in the group? */
	if (mask & (mode ^ (mode >> 3))) {
		if (ob_cold_in_group_p(ob_cold_make_vfsgid(idmap, inode->i_sb->s_user_ns, inode->i_gid)))
			mode >>= 3;
	}
	return (mask & ~mode) ? -EACCES : 0;
}

/* generic_permission: what an inode without ->permission gets. */
OB_KFUNC_GLOBAL int KSYM(generic_permission)(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	int ret = KSYM(acl_permission_check)(idmap, inode, mask);

	if (ret != -EACCES)
		return ret;
	if ((inode->i_mode & OB_S_IFMT) == OB_S_IFDIR) {
		/* DACs are overridable for directories. */
		if (!(mask & MAY_WRITE))
			if (ob_cold_capable_wrt_inode_uidgid(idmap, inode, CAP_DAC_READ_SEARCH))
				return 0;
		if (ob_cold_capable_wrt_inode_uidgid(idmap, inode, CAP_DAC_OVERRIDE))
			return 0;
		return -EACCES;
	}
	/* Read and search are granted by CAP_DAC_READ_SEARCH. */
	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (mask == MAY_READ)
		if (ob_cold_capable_wrt_inode_uidgid(idmap, inode, CAP_DAC_READ_SEARCH))
			return 0;
	/* Executing needs one exec bit set; the rest CAP_DAC_OVERRIDE. */
	if (!(mask & MAY_EXEC) || (inode->i_mode & 0111u))
		if (ob_cold_capable_wrt_inode_uidgid(idmap, inode, CAP_DAC_OVERRIDE))
			return 0;
	return -EACCES;
}

/* NFS-like ->permission: the server's answer, cached; here generic_permission's. */
OB_KFUNC int KSYM(nfs_permission)(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	return KSYM(generic_permission)(idmap, inode, mask);
}

#if OB_COMPONENT_KERNEL == 612
/*
 * One LSM's slot of call_int_hook() (6.12): a static call behind a static
 * key, both off unless that LSM has the hook; off, the key is a jump label
 * NOP.  @n numbers the slot, @nop is its NOP's size.
 */
#define OB_LSM_SLOT(n, nop)		OB_JUMP_LABEL_NOP##nop(on_##n); back_##n:
#define OB_LSM_SLOT_CALL(n)		on_##n: {					\
						rc = ob_cold_lsm_hook(inode, mask);	\
						if (rc)					\
							return rc;			\
						goto back_##n;				\
					}
#endif

/* security_inode_permission (security/security.c). */
OB_KFUNC_GLOBAL int KSYM(security_inode_permission)(struct inode *inode, int mask)
{
	int rc;

	if (unlikely(inode->i_flags & S_PRIVATE))
		return 0;
#if OB_COMPONENT_KERNEL == 61
	/* call_int_hook(inode_permission, 0, inode, mask) */
	for (struct security_hook_list *p = ob_security_hook_heads.inode_permission; p; p = p->next) {
		rc = p->inode_permission(inode, mask);
		if (rc)
			return rc;
	}
	return 0;
#else
	/*
	 * The slots of Debian's 6.12 (11 LSMs could have the hook): their
	 * jump labels, 7 of 2 bytes and 4 of 5, as objtool left them.
	 */
	OB_LSM_SLOT(0, 2) OB_LSM_SLOT(1, 2) OB_LSM_SLOT(2, 2) OB_LSM_SLOT(3, 2)
	OB_LSM_SLOT(4, 2) OB_LSM_SLOT(5, 2) OB_LSM_SLOT(6, 2) OB_LSM_SLOT(7, 5)
	OB_LSM_SLOT(8, 5) OB_LSM_SLOT(9, 5) OB_LSM_SLOT(10, 5)
	return 0;
	OB_LSM_SLOT_CALL(0) OB_LSM_SLOT_CALL(1) OB_LSM_SLOT_CALL(2) OB_LSM_SLOT_CALL(3)
	OB_LSM_SLOT_CALL(4) OB_LSM_SLOT_CALL(5) OB_LSM_SLOT_CALL(6) OB_LSM_SLOT_CALL(7)
	OB_LSM_SLOT_CALL(8) OB_LSM_SLOT_CALL(9) OB_LSM_SLOT_CALL(10)
#endif
}

/* inode_permission (fs/namei.c), with do_inode_permission() and devcgroup's check inline. */
OB_KFUNC_GLOBAL int KSYM(inode_permission)(struct mnt_idmap *idmap, struct inode *inode, int mask)
{
	/* The kernel's gcc loads i_sb before the MAY_WRITE test: so here. */
	struct super_block *sb = READ_ONCE(inode->i_sb);
	int ret;

	/* sb_permission: nobody writes to a read-only filesystem. */
	if (unlikely(mask & MAY_WRITE)) {
		unsigned int mode = inode->i_mode & OB_S_IFMT;

		if ((sb->s_flags & SB_RDONLY) &&
		    (mode == OB_S_IFREG || mode == OB_S_IFDIR || mode == 0120000u))
			return -EROFS;
		if (inode->i_flags & S_IMMUTABLE)
			return -EPERM;
		/* HAS_UNMAPPED_ID */
		if (OB_I_UID_MAPPED(idmap, inode) == (uint32_t)-1 ||
		    ob_cold_make_vfsgid(idmap, sb->s_user_ns, inode->i_gid) == (uint32_t)-1)
			return -EACCES;
	}

	/* do_inode_permission: a NULL test whose answer is cached as a flag bit. */
	if (likely(inode->i_opflags & IOP_FASTPERM)) {
		ret = KSYM(generic_permission)(idmap, inode, mask);
	} else if (likely(OP_PRESENT(inode, permission, IOP_OP_PERMISSION))) {
		ret = OP_CALL(inode, permission, idmap, inode, mask);
	} else {
		ob_cold_lock(&inode->i_lock);
		inode->i_opflags |= IOP_FASTPERM;
		ob_cold_unlock(&inode->i_lock);
		ret = KSYM(generic_permission)(idmap, inode, mask);
	}
	if (ret)
		return ret;

	/*
	 * devcgroup_inode_permission: nothing to check unless a device.  (The
	 * kernel's gcc loads i_mode with i_rdev, before the test: so here.)
	 */
	unsigned int mode = READ_ONCE(inode->i_mode) & OB_S_IFMT;

	if (unlikely(inode->i_rdev)) {
		short type, access = 0;

		if (mode == OB_S_IFBLK)
			type = 1;
		else if (mode == OB_S_IFCHR)
			type = 2;
		else
			goto lsm;
		if (mask & MAY_WRITE)
			access |= 2;
		if (mask & MAY_READ)
			access |= 4;
		ret = ob_cold_devcgroup_check(type, inode->i_rdev >> 20, inode->i_rdev & 0xfffff, access);
		if (ret)
			return ret;
	}
lsm:
	return KSYM(security_inode_permission)(inode, mask);
}

/* The inode ops tables, as ops.h's dentry ones: this kernel's generic_permission. */
static const struct inode_ops KSYM(plain_iops);

static const struct inode_ops KSYM(nfs_iops) = {
	.permission	= KSYM(nfs_permission),
};

static const struct inode_ops KSYM(plain_iops_full) = {
	.permission	= KSYM(generic_permission),
};

/*
 * Unlike d_op, i_op is never NULL: a filesystem without ->permission has a
 * table without it (ext4's directories, vfat's); the NFS-like ones
 * (revalidate, all) have one.
 */
static const struct inode_ops *const KSYM(iops_sparse)[PERS_COUNT] __maybe_unused = {
	[PERS_PLAIN]		= &KSYM(plain_iops),
	[PERS_CASEFOLD]		= &KSYM(plain_iops),
	[PERS_REVALIDATE]	= &KSYM(nfs_iops),
	[PERS_ALL]		= &KSYM(nfs_iops),
};

static const struct inode_ops *const KSYM(iops_full)[PERS_COUNT] __maybe_unused = {
	[PERS_PLAIN]		= &KSYM(plain_iops_full),
	[PERS_CASEFOLD]		= &KSYM(plain_iops_full),
	[PERS_REVALIDATE]	= &KSYM(nfs_iops),
	[PERS_ALL]		= &KSYM(nfs_iops),
};

static const struct inode_ops *const KSYM(iops_none)[PERS_COUNT] __maybe_unused = {
	[PERS_PLAIN]		= &KSYM(plain_iops),
	[PERS_CASEFOLD]		= &KSYM(plain_iops),
	[PERS_REVALIDATE]	= &KSYM(plain_iops),
	[PERS_ALL]		= &KSYM(plain_iops),
};

/* ---- the lookup: fs/dcache.c, fs/namei.c ---- */

/*
 * One chain entry of __d_lookup_rcu(), in the kernel's order: its d_seq,
 * the parent, d_unhashed(), then the name.  Where the strategy hoists the
 * compare-op test out of the loop (Linux 6.x) the name is compared
 * directly; else the test is made here, per entry (2.6.38 .. 5.x).
 */
static __always_inline bool KSYM(d_entry_matches)(const struct dentry *parent, const struct dentry *d,
						   const struct qstr *name, uint64_t hashlen,
						   const char *str)
{
	(void)name;			/* the compare op's, where it is tested here */
	if (d->d_parent != parent)
		return false;
	if (!d->d_hash.pprev)				/* d_unhashed */
		return false;
#ifndef STRATEGY_HOIST_COMPARE
	if (unlikely(OP_PRESENT(parent, d_compare, DCACHE_OP_COMPARE))) {
		if (d->d_name.hash != (uint32_t)hashlen)
			return false;
		return OP_CALL(parent, d_compare, d, d->d_name.len, d->d_name.name, name) == 0;
	}
#endif
	if (d->d_name.hash_len != hashlen)
		return false;
	return dentry_string_cmp(d->d_name.name, str, (unsigned int)(hashlen >> 32)) == 0;
}

#ifdef STRATEGY_HOIST_COMPARE
/* __d_lookup_rcu_op_compare: the chain walk of a directory with d_compare. */
OB_KFUNC struct dentry *KSYM(d_lookup_rcu_op_compare)(const struct dentry *parent,
							  const struct qstr *name,
							  unsigned int *seqp)
{
	struct hlist_bl_node *node;

	for (node = hlist_bl_first_rcu(KSYM(d_hash)(name->hash)); node; node = node->next) {
		struct dentry *d = chain_entry(node);
		unsigned int seq = READ_ONCE(d->d_seq) & ~1u;

		if (d->d_parent != parent || !d->d_hash.pprev || d->d_name.hash != name->hash)
			continue;
		if (OP_CALL(parent, d_compare, d, d->d_name.len, d->d_name.name, name) == 0) {
			*seqp = seq;
			return d;
		}
	}
	return NULL;
}
#endif

/* __d_lookup_rcu (fs/dcache.c): the child of @parent called @name, its d_seq in *@seqp. */
OB_KFUNC_GLOBAL struct dentry *KSYM(d_lookup_rcu)(const struct dentry *parent, const struct qstr *name,
					       unsigned int *seqp)
{
	uint64_t hashlen = name->hash_len;
	const char *str = name->name;
	struct hlist_bl_head *b = KSYM(d_hash)((uint32_t)hashlen);
	struct hlist_bl_node *node;

#ifdef STRATEGY_HOIST_COMPARE
	if (unlikely(OP_PRESENT(parent, d_compare, DCACHE_OP_COMPARE)))
		return KSYM(d_lookup_rcu_op_compare)(parent, name, seqp);
#endif
	for (node = hlist_bl_first_rcu(b); node; node = node->next) {
		struct dentry *d = chain_entry(node);
		unsigned int seq = READ_ONCE(d->d_seq) & ~1u;	/* raw_seqcount_begin */

		if (!KSYM(d_entry_matches)(parent, d, name, hashlen, str))
			continue;
		*seqp = seq;
		return d;
	}
	return NULL;
}

/* d_revalidate(): the child's op, where it has one (the strategy's seam). */
static __always_inline int KSYM(d_revalidate)(struct dentry *dentry, unsigned int flags)
{
	(void)flags;			/* unused where the strategy has no ops */
	if (unlikely(OP_PRESENT(dentry, d_revalidate, DCACHE_OP_REVALIDATE)))
		return OP_CALL(dentry, d_revalidate, dentry, flags);
	return 1;
}

/*
 * lookup_fast (fs/namei.c): the child in the dcache, or NULL (not there:
 * lookup_slow's job), or an ERR_PTR.  Under RCU-walk the model never
 * leaves it: ob_cold_try_to_unlazy() fails, and so does the walk.
 */
OB_KFUNC struct dentry *KSYM(lookup_fast)(struct KSYM(nameidata) *nd)
{
	struct dentry *dentry, *parent = nd->path.dentry;
	int status = 1;

	if (nd->flags & LOOKUP_RCU) {
		dentry = KSYM(d_lookup_rcu)(parent, &nd->last, &nd->next_seq);
		if (unlikely(!dentry)) {
			if (!ob_cold_try_to_unlazy(nd))
				return ERR_PTR(-ECHILD);
			return NULL;
		}
		/* read_seqcount_retry: the parent did not change while we looked. */
		if (unlikely(READ_ONCE(parent->d_seq) != READ_ONCE(nd->seq)))
			return ERR_PTR(-ECHILD);
		status = KSYM(d_revalidate)(dentry, nd->flags);
		if (likely(status > 0))
			return dentry;
		if (!ob_cold_try_to_unlazy_next(nd, dentry))
			return ERR_PTR(-ECHILD);
		if (status == -ECHILD)
			status = KSYM(d_revalidate)(dentry, nd->flags);
	} else {
		dentry = ob_cold_d_lookup(parent, &nd->last);
		if (unlikely(!dentry))
			return NULL;
		status = KSYM(d_revalidate)(dentry, nd->flags);
	}
	if (unlikely(status <= 0)) {
		if (!status)
			ob_cold_d_invalidate(dentry);
		ob_cold_dput(dentry);
		return ERR_PTR(status);
	}
	return dentry;
}

/* handle_mounts (fs/namei.c): @path is @dentry on nd's mount, or where its mounts lead. */
static __always_inline int KSYM(handle_mounts)(struct KSYM(nameidata) *nd, struct dentry *dentry,
						struct path *path)
{
	bool jumped;
	int ret;

	path->mnt = nd->path.mnt;
	path->dentry = dentry;
	if (nd->flags & LOOKUP_RCU) {
		unsigned int seq = nd->next_seq;

		/* __follow_mount_rcu: nothing to do unless the child is managed. */
		if (likely(!(READ_ONCE(dentry->d_flags) & DCACHE_MANAGED_DENTRY)))
			return 0;
		if (!(nd->flags & LOOKUP_NO_XDEV) && ob_cold_follow_managed(nd, path))
			return 0;
		path->mnt = nd->path.mnt;
		path->dentry = dentry;
		nd->next_seq = seq;
		if (!ob_cold_try_to_unlazy_next(nd, dentry))
			return -ECHILD;
	}
	ret = ob_cold_traverse_mounts(path, &jumped, &nd->total_link_count, nd->flags);
	if (jumped) {
		if (unlikely(nd->flags & LOOKUP_NO_XDEV))
			ret = -EXDEV;
		else
			nd->state |= ND_JUMPED;
	}
	if (unlikely(ret)) {
		ob_cold_dput(path->dentry);
		if (path->mnt != nd->path.mnt)
			ob_cold_mntput(path->mnt);
	}
	return ret;
}

/*
 * step_into (fs/namei.c): move to @dentry.  Returns NULL, a symlink's body
 * to follow (not modelled: pick_link fails), or an ERR_PTR.
 */
OB_KFUNC const char *KSYM(step_into)(struct KSYM(nameidata) *nd, int flags, struct dentry *dentry)
{
	struct path path;
	struct inode *inode;
	int err = KSYM(handle_mounts)(nd, dentry, &path);

	if (err < 0)
		return ERR_PTR(err);
	inode = path.dentry->d_inode;
	if (likely((READ_ONCE(path.dentry->d_flags) & DCACHE_ENTRY_TYPE) != DCACHE_SYMLINK_TYPE) ||
	    ((flags & WALK_TRAILING) && !(nd->flags & LOOKUP_FOLLOW)) ||
	    (flags & WALK_NOFOLLOW)) {
		/* Not a symlink, or one not to follow. */
		if (nd->flags & LOOKUP_RCU) {
			if (READ_ONCE(path.dentry->d_seq) != nd->next_seq)
				return ERR_PTR(-ECHILD);
			if (unlikely(!inode))
				return ERR_PTR(-ENOENT);
		} else {
			ob_cold_dput(nd->path.dentry);
			if (nd->path.mnt != path.mnt)
				ob_cold_mntput(nd->path.mnt);
		}
		nd->path = path;
		nd->inode = inode;
		nd->seq = nd->next_seq;
		return NULL;
	}
	if (nd->flags & LOOKUP_RCU) {
		if (READ_ONCE(path.dentry->d_seq) != nd->next_seq)
			return ERR_PTR(-ECHILD);
	}
	return ob_cold_pick_link(nd, &path, inode, flags);
}

/*
 * handle_dots (fs/namei.c): "." stays; ".." steps into the parent (the
 * tree has no mounts to cross, and the root is its own parent).
 */
OB_KFUNC const char *KSYM(handle_dots)(struct KSYM(nameidata) *nd, int type)
{
	struct dentry *parent;

	if (type != LAST_DOTDOT)
		return NULL;
	parent = nd->path.dentry->d_parent;
	nd->next_seq = READ_ONCE(parent->d_seq);
	return KSYM(step_into)(nd, WALK_NOFOLLOW, parent);
}

/* put_link (fs/namei.c): done with the symlink on top of nd->stack. */
static __always_inline void KSYM(put_link)(struct KSYM(nameidata) *nd)
{
	struct KSYM(saved) *last = nd->stack + --nd->depth;

	if (last->done.fn)			/* do_delayed_call() */
		last->done.fn(last->done.arg);
	if (!(nd->flags & LOOKUP_RCU)) {	/* path_put() */
		ob_cold_dput(last->link.dentry);
		ob_cold_mntput(last->link.mnt);
	}
}

/* lookup_slow (fs/namei.c): __lookup_slow() under the directory's i_rwsem. */
static __always_inline struct dentry *KSYM(lookup_slow)(const struct qstr *name, struct dentry *dir,
							 unsigned int flags)
{
	struct inode *inode = dir->d_inode;
	struct dentry *res;

	ob_cold_lock(inode);			/* inode_lock_shared */
	res = ob_cold_lookup_slow(name, dir, flags);
	ob_cold_unlock(inode);
	return res;
}

/* walk_component (fs/namei.c): the component nd->last, then step into it. */
OB_KFUNC const char *KSYM(walk_component)(struct KSYM(nameidata) *nd, int flags)
{
	struct dentry *dentry;

	if (unlikely(nd->last_type != LAST_NORM)) {
		if (!(flags & WALK_MORE) && nd->depth)
			KSYM(put_link)(nd);
		return KSYM(handle_dots)(nd, nd->last_type);
	}
	dentry = KSYM(lookup_fast)(nd);
	if (IS_ERR(dentry))
		return (const char *)dentry;
	if (unlikely(!dentry)) {
		dentry = KSYM(lookup_slow)(&nd->last, nd->path.dentry, nd->flags);
		if (IS_ERR(dentry))
			return (const char *)dentry;
	}
	if (!(flags & WALK_MORE) && nd->depth)
		KSYM(put_link)(nd);
	return KSYM(step_into)(nd, flags, dentry);
}

#if OB_COMPONENT_KERNEL == 612
/* may_lookup (fs/namei.c, 6.12): search permission, MAY_NOT_BLOCK under RCU-walk. */
static __always_inline int KSYM(may_lookup)(struct mnt_idmap *idmap, struct KSYM(nameidata) *nd)
{
	int err, mask;

	mask = nd->flags & LOOKUP_RCU ? MAY_NOT_BLOCK : 0;
	err = KSYM(inode_permission)(idmap, nd->inode, mask | MAY_EXEC);
	if (likely(!err))
		return 0;
	/* Failed outside RCU-walk: final.  Else once more, unlazy. */
	if (!(nd->flags & LOOKUP_RCU))
		return err;
	if (!ob_cold_try_to_unlazy(nd))
		return -ECHILD;
	if (err != -ECHILD)
		return err;
	return KSYM(inode_permission)(idmap, nd->inode, MAY_EXEC);
}
#else
/* may_lookup (fs/namei.c, 6.1): search permission, under RCU-walk first. */
static __always_inline int KSYM(may_lookup)(struct mnt_idmap *idmap, struct KSYM(nameidata) *nd)
{
	if (nd->flags & LOOKUP_RCU) {
		int err = KSYM(inode_permission)(idmap, nd->inode, MAY_EXEC | MAY_NOT_BLOCK);

		if (err != -ECHILD || !ob_cold_try_to_unlazy(nd))
			return err;
	}
	return KSYM(inode_permission)(idmap, nd->inode, MAY_EXEC);
}
#endif

/*
 * The component's hash and type (LAST_NORM, LAST_DOT, LAST_DOTDOT) into
 * nd->last and nd->last_type, and the parent's d_hash op (the strategy's
 * seam) for a normal one: < 0 to fail.  6.12 tells the dots from the last
 * word hash_name() loaded (Linux 6.11+), 6.1 from the name's bytes.
 */
static __always_inline int KSYM(hash_component)(struct KSYM(nameidata) *nd, const char *name)
{
	uint64_t hash_len;
	int type = LAST_NORM;

	nd->last.name = name;
#if OB_COMPONENT_KERNEL == 612
	uint64_t lastword;

	hash_len = hash_name_lastword(nd->path.dentry, name, &lastword);
	nd->last.hash_len = hash_len;
	switch (lastword) {
	case 0x2e2e:
		type = LAST_DOTDOT;
		nd->state |= ND_JUMPED;
		break;
	case 0x2e:
		type = LAST_DOT;
		break;
	}
#else
	hash_len = hash_name(nd->path.dentry, name);
	if (unlikely(name[0] == '.')) {
		switch (hashlen_len(hash_len)) {
		case 2:
			if (name[1] == '.') {
				type = LAST_DOTDOT;
				nd->state |= ND_JUMPED;
			}
			break;
		case 1:
			type = LAST_DOT;
		}
	}
	nd->last.hash_len = hash_len;
#endif
	nd->last_type = type;
	if (likely(type == LAST_NORM)) {
		nd->state &= ~ND_JUMPED;
		if (site_d_hash(nd->path.dentry, &nd->last) < 0)
			return -1;
	}
	return 0;
}

/*
 * link_path_walk's loop, and the last component as path_lookupat() walks
 * it: the dentry @path names from @dir, or NULL (no such name, stale, a
 * non-directory followed by '/', or search permission denied).  Slashes as
 * in the bare walk (src/model/walk.h).
 *
 * The kernel's nameidata lives in its caller's frame and link_path_walk()
 * reaches it through a pointer: so does this walk (OB_HIDE), which the
 * measured loop inlines.
 */
static __always_inline struct dentry *KSYM(walk_path)(struct dentry *dir, const char *name)
{
	struct KSYM(nameidata) nd_frame = {
		.path	= { .mnt = &ob_mnt, .dentry = dir },
		.inode	= dir->d_inode,
		.flags	= LOOKUP_RCU | LOOKUP_FOLLOW,
		.seq	= READ_ONCE(dir->d_seq),
	};
	struct KSYM(nameidata) *nd = &nd_frame;

	OB_HIDE(nd);
	while (*name == '/')
		name++;
	if (!*name)
		return dir;

	for (;;) {
		struct mnt_idmap *idmap = nd->path.mnt->mnt_idmap;

		if (KSYM(may_lookup)(idmap, nd))
			return NULL;
		if (KSYM(hash_component)(nd, name))
			return NULL;

		name += nd->last.len;
		if (!*name) {
			/*
			 * link_path_walk's end: the directory's owner and mode
			 * for later checks; then lookup_last() ->
			 * walk_component(nd, 0).
			 */
			nd->dir_vfsuid = OB_I_UID_MAPPED(idmap, nd->inode);
			nd->dir_mode = nd->inode->i_mode;
			if (KSYM(walk_component)(nd, 0))
				return NULL;
			return nd->path.dentry;
		}
		if (KSYM(walk_component)(nd, WALK_MORE))
			return NULL;		/* an error, or a symlink to follow (not modelled) */
		/* A '/' follows: d_can_lookup(), else ENOTDIR. */
		if ((nd->path.dentry->d_flags & DCACHE_ENTRY_TYPE) != DCACHE_DIRECTORY_TYPE)
			return NULL;
		do {
			name++;
		} while (unlikely(*name == '/'));
		if (!*name)
			return nd->path.dentry;
	}
}

/* Cold mode's walk in this context, out of line (as SYM(walk_cold), model/warmup.h). */
static OB_LOOP_FN void *KSYM(walk_cold)(void *dir, const char *path)
{
	return KSYM(walk_path)(dir, path);
}

#undef OB_I_UID_MAPPED
#undef OB_CURRENT_CRED
#undef OB_LSM_SLOT
#undef OB_LSM_SLOT_CALL
#undef KSYM
#undef OB_COMPONENT_KERNEL
#endif /* OB_COMPONENT_KERNEL */
