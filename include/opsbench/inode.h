/* SPDX-License-Identifier: MIT */
/*
 * inode.h - the inode behind a dentry, its ops table, and what the
 * permission step of a path component reads besides (the caller's
 * credentials, the mount's idmapping).
 *
 * The layout follows the start of struct inode of Linux v6.12
 * (include/linux/fs.h) on 64-bit with CONFIG_FS_POSIX_ACL and
 * CONFIG_SECURITY, as distribution kernels build it.  Path walk's
 * permission step (may_lookup -> inode_permission -> generic_permission)
 * and step_into read line 0 only:
 *
 *   0   i_mode       file type and permission bits (u16)
 *   2   i_opflags    IOP_* bits, IOP_FASTPERM among them (u16)
 *   4   i_uid        owner (kuid_t)
 *   8   i_gid        group (kgid_t)
 *   12  i_flags      S_* bits (S_PRIVATE: no LSM check)
 *   16  i_acl        cached access ACL; NULL: none (no_acl_inode())
 *   24  i_default_acl
 *   32  i_op         the inode ops, never NULL
 *   40  i_sb         the filesystem
 *   48  i_mapping    (not read)
 *   56  i_security   (not read: no LSM keeps state here on a plain fs)
 *   64  i_ino        line 1: the model's answer, the workload node index
 *
 * The kernel's inode goes on for some 600 bytes (times, sizes, locks,
 * lists), which path walk does not read; the model's stops after line 1,
 * where it also keeps the one method of the `embedded` strategy (i_m, at
 * 72, where the kernel has i_nlink and i_rdev).
 *
 * Only the strategy files (and tests of the layout) include this header,
 * through opsbench/dentry.h.
 */
#ifndef OPSBENCH_INODE_H
#define OPSBENCH_INODE_H

#include <stddef.h>
#include <stdint.h>

#include "opsbench/compiler.h"

struct inode;
struct super_block;

/* i_mode: the kernel's S_IF* and permission bits (include/uapi/linux/stat.h). */
#define OB_S_IFMT	0170000u
#define OB_S_IFDIR	0040000u
#define OB_S_IFREG	0100000u
#define OB_S_IFBLK	0060000u
#define OB_S_IFCHR	0020000u
#define OB_S_IRWXG	00070u

/* i_opflags (include/linux/fs.h). */
#define IOP_FASTPERM	0x0001u		/* ->permission is NULL: generic_permission(), cached */
#define IOP_LOOKUP	0x0002u
/*
 * The model's own bit: the inode's ops have ->permission, set once when
 * they are attached, as DCACHE_OP_* for dentries.  The flag strategies
 * test it; the kernel has no such bit (IOP_FASTPERM caches its negation).
 */
#define IOP_OP_PERMISSION 0x8000u

/* i_flags (include/linux/fs.h). */
#define S_PRIVATE	0x0200u		/* internal inode: no LSM checks */

/* s_flags (include/uapi/linux/mount.h). */
#define SB_POSIXACL	0x00010000u

/* MAY_* (include/linux/fs.h): what permission asks for. */
#define MAY_EXEC	0x0001
#define MAY_WRITE	0x0002
#define MAY_READ	0x0004
#define MAY_NOT_BLOCK	0x0080

/* Capabilities generic_permission() falls back on for directories. */
#define CAP_DAC_OVERRIDE	1
#define CAP_DAC_READ_SEARCH	2

/* An idmapping of a mount; path walk on an ordinary mount has nop_mnt_idmap. */
struct mnt_idmap {
	unsigned int count;
};

/* A user namespace; a filesystem's is the initial one here. */
struct user_namespace {
	unsigned int level;
};

/* What permission checks read of the caller's credentials (struct cred). */
struct cred {
	uint32_t fsuid;
	uint32_t fsgid;
	uint64_t cap_effective;		/* bit CAP_*: held */
};

/*
 * permission_fn - may the caller do @mask to @inode?
 * @idmap: the mount's idmapping (nop_mnt_idmap here)
 * @inode: the directory being walked (path walk asks MAY_EXEC)
 * @mask:  MAY_* bits; MAY_NOT_BLOCK under RCU-walk
 * Returns 0 or -EACCES (-ECHILD to leave RCU-walk, never here).
 */
typedef int permission_fn(struct mnt_idmap *idmap, struct inode *inode, int mask);

/*
 * struct inode_ops - a filesystem's inode methods (inode_operations), of
 * which path walk calls one.  Const, shared by the inodes of a filesystem.
 */
struct inode_ops {
	/*
	 * permission: called by inode_permission() unless IOP_FASTPERM is
	 * set.  NULL: generic_permission(), and the first caller sets
	 * IOP_FASTPERM so that later ones skip the test (most filesystems;
	 * NFS has one).  Default: generic_permission() itself.
	 */
	permission_fn *permission;
} ____cacheline_aligned;

/* The same method stored in the inode (the `embedded` strategy). */
struct inode_methods {
	permission_fn *permission;	/* as inode_ops.permission */
};

struct inode {
	/* ---- line 0: what path walk reads ---- */
	uint16_t i_mode;
	uint16_t i_opflags;		/* IOP_* */
	uint32_t i_uid;
	uint32_t i_gid;
	unsigned int i_flags;		/* S_* */
	void *i_acl;			/* NULL: no ACL (ACL_NOT_CACHED is not modelled) */
	void *i_default_acl;
	const struct inode_ops *i_op;	/* never NULL */
	struct super_block *i_sb;
	void *i_mapping;
	void *i_security;
	/* ---- line 1 ---- */
	unsigned long i_ino;		/* the workload node index */
	unsigned int i_nlink;
	uint32_t i_rdev;		/* a device's number; 0 (devcgroup's test) */
	struct inode_methods i_m;	/* model only: the embedded strategy's method */
	unsigned int i_lock;		/* spinlock_t (not modelled) */
} ____cacheline_aligned;

_Static_assert(offsetof(struct inode, i_mode) == 0, "i_mode at 0");
_Static_assert(offsetof(struct inode, i_opflags) == 2, "i_opflags at 2");
_Static_assert(offsetof(struct inode, i_uid) == 4, "i_uid at 4");
_Static_assert(offsetof(struct inode, i_gid) == 8, "i_gid at 8");
_Static_assert(offsetof(struct inode, i_flags) == 12, "i_flags at 12");
_Static_assert(offsetof(struct inode, i_acl) == 16, "i_acl at 16");
_Static_assert(offsetof(struct inode, i_op) == 32, "i_op at 32");
_Static_assert(offsetof(struct inode, i_sb) == 40, "i_sb at 40");
_Static_assert(offsetof(struct inode, i_security) == 56, "i_security at 56");
_Static_assert(offsetof(struct inode, i_ino) == 64, "i_ino at 64, on line 1");
_Static_assert(offsetof(struct inode, i_rdev) == 76, "i_rdev at 76, on line 1 (as Linux 6.x)");
_Static_assert(sizeof(struct inode) == 2 * L1_CACHE_BYTES, "two lines");
_Static_assert(sizeof(struct inode_ops) == L1_CACHE_BYTES, "inode ops table is one line");

#endif /* OPSBENCH_INODE_H */
