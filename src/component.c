// SPDX-License-Identifier: MIT
/*
 * component.c - the kernel's globals that a path component reads besides
 * the dentries and inodes (src/model/component.h): Linux 6.1's hash table
 * base and shift, the LSM hook list with the BPF LSM's stub on it, the
 * caller's credentials, the mount and the nop idmapping; and what the
 * kernel's functions call on the branches the modelled walk never takes
 * (ob_cold_*).  They are defined here, in a translation unit of their own,
 * so that no strategy's compiler sees their values or bodies: they are
 * loaded, and the hook is called through its pointer, as in the kernel.
 */
#include <errno.h>

#include "model/component.h"
#include "model/tree.h"

struct hlist_bl_head *ob_dentry_hashtable = OB_D_HASHTABLE;
unsigned int ob_d_hash_shift = 32 - OB_D_HASH_BITS;

struct mnt_idmap ob_nop_mnt_idmap, ob_invalid_mnt_idmap;
struct user_namespace ob_init_user_ns;

/* The walker: an ordinary user, no capabilities (a Debian 12 login). */
static const struct cred walker_cred = {
	.fsuid		= OB_WALKER_UID,
	.fsgid		= OB_WALKER_GID,
	.cap_effective	= 0,
};
static struct task_struct walker = { .cred = &walker_cred };
struct task_struct *ob_current = &walker;

struct vfsmount ob_mnt = { .mnt_idmap = &ob_nop_mnt_idmap };

/*
 * bpf_lsm_inode_permission: the BPF LSM's default hook, which Debian's
 * CONFIG_BPF_LSM=y puts on every list (kernel/bpf/bpf_lsm.c; 0: allowed).
 */
noinline int ob_bpf_lsm_inode_permission(struct inode *inode, int mask)
{
	(void)inode;
	(void)mask;
	return 0;
}

static struct security_hook_list bpf_lsm_hooks[] = {
	{ .next = NULL, .pprev = &ob_security_hook_heads.inode_permission,
	  .inode_permission = ob_bpf_lsm_inode_permission, .lsm = "bpf" },
};

struct security_hook_heads ob_security_hook_heads = {
	.inode_permission = &bpf_lsm_hooks[0],
};

/*
 * The branches the modelled walk never takes (src/model/component.h).  Each
 * answers what ends the walk, so that a test that reached one would see a
 * lookup fail; none is reached by a lookup of the model's trees.
 */
noinline bool ob_cold_try_to_unlazy(void *nd)
{
	(void)nd;
	return false;
}

noinline bool ob_cold_try_to_unlazy_next(void *nd, struct dentry *dentry)
{
	(void)nd;
	(void)dentry;
	return false;
}

noinline struct dentry *ob_cold_lookup_slow(const struct qstr *name, struct dentry *dir, unsigned int flags)
{
	(void)name;
	(void)dir;
	(void)flags;
	return ERR_PTR(-ENOENT);
}

noinline struct dentry *ob_cold_d_lookup(const struct dentry *parent, const struct qstr *name)
{
	(void)parent;
	(void)name;
	return NULL;
}

noinline void ob_cold_dput(struct dentry *dentry)
{
	(void)dentry;
}

noinline void ob_cold_mntput(struct vfsmount *mnt)
{
	(void)mnt;
}

noinline void ob_cold_d_invalidate(struct dentry *dentry)
{
	(void)dentry;
}

noinline bool ob_cold_follow_managed(void *nd, struct path *path)
{
	(void)nd;
	(void)path;
	return false;
}

noinline int ob_cold_traverse_mounts(struct path *path, bool *jumped, int *count, unsigned int flags)
{
	(void)path;
	(void)count;
	(void)flags;
	*jumped = false;
	return -ENOENT;
}

noinline const char *ob_cold_pick_link(void *nd, struct path *link, struct inode *inode, int flags)
{
	(void)nd;
	(void)link;
	(void)inode;
	(void)flags;
	return ERR_PTR(-ELOOP);
}

noinline void ob_cold_lock(void *lock)
{
	(void)lock;
}

noinline void ob_cold_unlock(void *lock)
{
	(void)lock;
}

noinline void *ob_cold_get_acl(struct inode *inode, int type, bool rcu)
{
	(void)inode;
	(void)type;
	(void)rcu;
	return NULL;
}

noinline int ob_cold_acl_permission(struct mnt_idmap *idmap, struct inode *inode, void *acl, int mask)
{
	(void)idmap;
	(void)inode;
	(void)acl;
	(void)mask;
	return -EACCES;
}

noinline void ob_cold_acl_release(void *acl)
{
	(void)acl;
}

noinline uint32_t ob_cold_make_vfsgid(struct mnt_idmap *idmap, struct user_namespace *fs_userns,
				      uint32_t kgid)
{
	(void)idmap;
	(void)fs_userns;
	return kgid;
}

noinline uint32_t ob_cold_from_kuid(struct user_namespace *ns, uint32_t kuid)
{
	(void)ns;
	return kuid;
}

noinline uint32_t ob_cold_map_id(struct mnt_idmap *idmap, uint32_t id)
{
	(void)idmap;
	(void)id;
	return (uint32_t)-1;
}

noinline bool ob_cold_capable_wrt_inode_uidgid(struct mnt_idmap *idmap, const struct inode *inode, int cap)
{
	(void)idmap;
	(void)inode;
	(void)cap;
	return false;
}

noinline bool ob_cold_in_group_p(uint32_t gid)
{
	return gid == walker_cred.fsgid;
}

noinline int ob_cold_devcgroup_check(short type, unsigned int major, unsigned int minor, short access)
{
	(void)type;
	(void)major;
	(void)minor;
	(void)access;
	return -EPERM;
}

noinline int ob_cold_lsm_hook(struct inode *inode, int mask)
{
	(void)inode;
	(void)mask;
	return -EACCES;
}
