/* SPDX-License-Identifier: MIT */
/*
 * personality.h - what a filesystem's dentry ops are.
 *
 * A directory's personality decides how names are hashed and compared in it
 * (its d_hash and d_compare); a dentry's own personality decides whether it
 * is revalidated when found (its d_revalidate).  Files share their
 * directory's personality, as dentries share their superblock's ops.
 */
#ifndef OPSBENCH_PERSONALITY_H
#define OPSBENCH_PERSONALITY_H

#include <stdbool.h>

#include "opsbench/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

enum personality {
	PERS_PLAIN,		/* no ops, like ext4 */
	PERS_CASEFOLD,		/* d_hash + d_compare, case-insensitive, like vfat */
	PERS_REVALIDATE,	/* d_revalidate checks a generation, like NFS */
	PERS_ALL,		/* all three */
	PERS_COUNT
};

/* Which ops a personality has (bits of enum personality_op). */
enum personality_op {
	POP_HASH	= 1u << 0,
	POP_COMPARE	= 1u << 1,
	POP_REVALIDATE	= 1u << 2,
};

/* Bitmask of every personality with custom ops. */
#define PERS_MASK_CUSTOM ((1u << PERS_CASEFOLD) | (1u << PERS_REVALIDATE) | (1u << PERS_ALL))

/* Name of @p ("plain", "casefold", "revalidate", "all"). */
OB_REALIGN const char *personality_name(enum personality p);
/* The enum personality called @name, or -1. */
int personality_from_name(const char *name);
/* Does @p have every op in @ops (POP_* bits)? */
bool personality_has(enum personality p, unsigned int ops);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_PERSONALITY_H */
