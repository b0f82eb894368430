/* SPDX-License-Identifier: MIT */
/*
 * hash.h - the dcache's word-at-a-time name hash and name compare.
 *
 * Written from the algorithm of Linux v6.12 fs/namei.c and fs/dcache.c
 * (64-bit, CONFIG_DCACHE_WORD_ACCESS; the HASH_MIX form dates from v4.8):
 *
 *   x = 0, y = salt (the parent dentry's address)
 *   for every full 8-byte word before the one holding the end of the name:
 *       x ^= a; y ^= x; x = rol64(x, 12); x += y; y = rol64(y, 45); y *= 9
 *   the last word (0..7 bytes, little-endian, rest masked off) is only XORed
 *   into x; then fold: y ^= x * GOLDEN_RATIO_64; y *= GOLDEN_RATIO_64;
 *   hash = y >> 32.
 *
 * Hash and length travel together as one u64 ("hashlen", length in the high
 * half) so that a candidate is rejected with a single 64-bit compare.
 *
 * Reading past the end: every routine here loads whole 8-byte words, so it
 * may read up to 7 bytes beyond the last byte of a name (and, for
 * hash_name(), beyond the terminating NUL).  The kernel makes that safe with
 * load_unaligned_zeropad() and exception fixups; user space cannot, so
 * opsbench keeps an invariant instead: every name and path buffer the model
 * hands to these functions is followed by at least NAME_PAD readable bytes.
 * ASan checks the invariant in `make test`.
 */
#ifndef OPSBENCH_HASH_H
#define OPSBENCH_HASH_H

#include <stdint.h>
#include <string.h>

#include "opsbench/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Readable bytes every name or path buffer must have after its end. */
#define NAME_PAD		8

#define GOLDEN_RATIO_64		0x61C8864680B583EBull
#define REPEAT_BYTE(x)		((~0ull / 0xff) * (x))

#define hashlen_hash(hl)	((uint32_t)(hl))
#define hashlen_len(hl)		((uint32_t)((hl) >> 32))
#define hashlen_create(h, l)	(((uint64_t)(l) << 32) | (uint32_t)(h))

static inline uint64_t rol64(uint64_t w, unsigned int s)
{
	return (w << s) | (w >> (64 - s));
}

/* An unaligned 8-byte little-endian load; one instruction on x86-64 and arm64. */
static __always_inline uint64_t load_word(const void *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* Mask of the low @count bytes of a word (0 <= @count < 8). */
static inline uint64_t bytemask_from_count(unsigned int count)
{
	return ~(~0ull << (count * 8));
}

/*
 * Nonzero iff some byte of @a is zero.  The lowest set bit (always bit 7 of
 * a byte) marks the first zero byte exactly on a little-endian machine:
 * borrows only propagate upwards, so false positives appear only above it.
 */
static inline uint64_t has_zero(uint64_t a)
{
	return (a - REPEAT_BYTE(0x01)) & ~a & REPEAT_BYTE(0x80);
}

/* Byte mask of the bytes below the first zero byte that has_zero() found. */
static inline uint64_t zero_bytemask(uint64_t bits)
{
	return ((bits & -bits) >> 7) - 1;
}

/* Index (0..7) of the first zero byte that has_zero() found. */
static inline unsigned int find_zero(uint64_t bits)
{
	return (unsigned int)__builtin_ctzll(bits) >> 3;
}

#define HASH_MIX(x, y, a)	do {			\
	(x) ^= (a);					\
	(y) ^= (x);	(x) = rol64((x), 12);		\
	(x) += (y);	(y) = rol64((y), 45);		\
	(y) *= 9;					\
} while (0)

static inline uint32_t fold_hash(uint64_t x, uint64_t y)
{
	y ^= x * GOLDEN_RATIO_64;
	y *= GOLDEN_RATIO_64;
	return (uint32_t)(y >> 32);
}

/*
 * full_name_hash - hash a name of known length.
 * @salt: the parent directory (its address salts the hash, like the kernel)
 * @name: the name; NAME_PAD readable bytes must follow it
 * @len:  its length in bytes
 */
static inline uint32_t full_name_hash(const void *salt, const char *name,
				      unsigned int len)
{
	uint64_t a = 0, x = 0, y = (uint64_t)(uintptr_t)salt;

	for (;;) {
		if (!len)
			return fold_hash(x, y);
		a = load_word(name);
		if (len < sizeof(a))
			break;
		HASH_MIX(x, y, a);
		name += sizeof(a);
		len -= sizeof(a);
	}
	x ^= a & bytemask_from_count(len);
	return fold_hash(x, y);
}

/* hash_name()'s loop from byte @len of @name on, @x and @y mixed so far. */
static __always_inline uint64_t hash_name_from(uint64_t x, uint64_t y, const char *name,
					       unsigned int len)
{
	uint64_t a, b, zero;

	for (;;) {
		a = load_word(name + len);
		b = a ^ REPEAT_BYTE('/');
		zero = has_zero(a) | has_zero(b);
		if (zero)
			break;
		HASH_MIX(x, y, a);
		len += sizeof(a);
	}
	x ^= a & zero_bytemask(zero);
	return hashlen_create(fold_hash(x, y), len + find_zero(zero));
}

/*
 * hash_name - hash the first component of a path.
 * @salt: the parent directory
 * @name: the component; it ends at the first '/' or NUL, and NAME_PAD
 *        readable bytes must follow that terminator
 *
 * Returns the hashlen of the component.  Agrees with full_name_hash() for the
 * same bytes: both stop mixing at the word that holds the end of the name.
 */
static inline uint64_t hash_name(const void *salt, const char *name)
{
	return hash_name_from(0, (uint64_t)(uintptr_t)salt, name, 0);
}

/*
 * hash_name_lastword - hash_name() as Linux 6.11+ writes it: a component
 * that fits in one word is hashed without mixing, and *@lastword is that
 * word with the bytes after the name cleared (the walk tells "." and ".."
 * from it); a longer one gives *@lastword = 0.  The same hashlen as
 * hash_name().
 */
static __always_inline uint64_t hash_name_lastword(const void *salt, const char *name,
						   uint64_t *lastword)
{
	uint64_t a, b, zero, x, y = (uint64_t)(uintptr_t)salt;

	a = load_word(name);
	b = a ^ REPEAT_BYTE('/');
	zero = has_zero(a) | has_zero(b);
	if (zero) {
		a &= zero_bytemask(zero);
		*lastword = a;
		return hashlen_create(fold_hash(a, y), find_zero(zero));
	}
	x = 0;
	HASH_MIX(x, y, a);
	*lastword = 0;
	return hash_name_from(x, y, name, sizeof(a));
}

/*
 * dentry_string_cmp - compare a dentry's name with a looked-up name.
 * @cs:     the dentry's name (NAME_PAD readable bytes after it)
 * @ct:     the looked-up name (likewise)
 * @tcount: their common length, at least 1
 *
 * Returns 0 when equal.  A word at a time; the last partial word is masked.
 */
static inline int dentry_string_cmp(const char *cs, const char *ct,
				    unsigned int tcount)
{
	uint64_t a, b;

	for (;;) {
		a = load_word(cs);
		b = load_word(ct);
		if (tcount < sizeof(a))
			break;
		if (unlikely(a != b))
			return 1;
		cs += sizeof(a);
		ct += sizeof(a);
		tcount -= sizeof(a);
		if (!tcount)
			return 0;
	}
	return unlikely(!!((a ^ b) & bytemask_from_count(tcount)));
}

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_HASH_H */
