/* SPDX-License-Identifier: MIT */
/*
 * casefold.h - the case-insensitive hash and compare behind the casefold
 * personality (ASCII folding, as vfat's default; utf8 tables are out of
 * scope: the cost studied is the dispatch, the work is only made real).
 */
#ifndef OPSBENCH_CASEFOLD_H
#define OPSBENCH_CASEFOLD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest name a component may have (NAME_MAX). */
#define OB_NAME_MAX	255

/*
 * casefold_hash - full_name_hash() of @name folded to lower case.
 * @salt: the directory; @name: NAME_PAD readable bytes after it;
 * @len: at most OB_NAME_MAX.
 */
uint32_t casefold_hash(const void *salt, const char *name, unsigned int len);

/* Compare @len bytes of @a and @b ignoring ASCII case; 0 when equal. */
int casefold_cmp(const char *a, const char *b, unsigned int len);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_CASEFOLD_H */
