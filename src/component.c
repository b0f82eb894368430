// SPDX-License-Identifier: MIT
/*
 * component.c - the kernel's globals that a path component reads besides
 * the dentries and inodes (src/model/component.h): Linux 6.1's hash table
 * base and shift, the LSM hook list with the BPF LSM's stub on it, the
 * caller's credentials and the nop idmapping.  They are defined here, in a
 * translation unit of their own, so that no strategy's compiler sees their
 * values: they are loaded, and the hook is called through its pointer, as
 * in the kernel.
 */
#include "model/component.h"
#include "model/tree.h"

struct hlist_bl_head *ob_dentry_hashtable = OB_D_HASHTABLE;
unsigned int ob_d_hash_shift = 32 - OB_D_HASH_BITS;

struct mnt_idmap ob_nop_mnt_idmap;
struct user_namespace ob_init_user_ns;

/* The walker: an ordinary user, no capabilities (a Debian 12 login). */
static const struct cred walker_cred = {
	.fsuid		= OB_WALKER_UID,
	.fsgid		= OB_WALKER_GID,
	.cap_effective	= 0,
};
const struct cred *ob_current_cred = &walker_cred;

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
	{ .next = NULL, .inode_permission = ob_bpf_lsm_inode_permission, .lsm = "bpf" },
};

struct security_hook_heads ob_security_hook_heads = {
	.inode_permission = &bpf_lsm_hooks[0],
};
