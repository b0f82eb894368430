// SPDX-License-Identifier: MIT
/* test_hash.c - the word-at-a-time name hash and compare (include/opsbench/hash.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "opsbench/casefold.h"
#include "opsbench/hash.h"
#include "opsbench/rng.h"

/* A name copied into a buffer with exactly NAME_PAD readable bytes after it. */
struct padded {
	char buf[300 + NAME_PAD];
};

static const char *pad(struct padded *p, const char *s, size_t len, char after)
{
	memset(p->buf, 0x5a, sizeof(p->buf));
	memcpy(p->buf, s, len);
	p->buf[len] = after;
	return p->buf;
}

/* Check values of the kernel's hash with salt 0 (KERNEL-NOTES.md). */
static void test_full_name_hash_matches_kernel_check_values(void **state)
{
	static const struct { const char *name; uint32_t hash; } v[] = {
		{ "", 0x00000000 },
		{ "a", 0x98d51a30 },
		{ "readme", 0x6523721d },
		{ "abcdefgh", 0x53b6e476 },
	};
	struct padded p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		size_t len = strlen(v[i].name);

		assert_int_equal(full_name_hash(NULL, pad(&p, v[i].name, len, 0), len), v[i].hash);
		assert_int_equal(hashlen_hash(hash_name(NULL, pad(&p, v[i].name, len, 0))), v[i].hash);
	}
}

/* Bytes after the end of the name never change its hash. */
static void test_full_name_hash_ignores_bytes_past_the_end(void **state)
{
	struct padded p1, p2;

	(void)state;
	for (size_t len = 0; len <= 24; len++) {
		const char *a = pad(&p1, "abcdefghijklmnopqrstuvwxyz", len, 0);
		const char *b = pad(&p2, "abcdefghijklmnopqrstuvwxyz", len, 'Q');

		memset(p2.buf + len + 1, 0xa5, NAME_PAD - 1);
		assert_int_equal(full_name_hash(NULL, a, (unsigned int)len),
				 full_name_hash(NULL, b, (unsigned int)len));
	}
}

/* hash_name() stops at '/' or NUL and agrees with the known-length hash. */
static void test_hash_name_agrees_with_full_name_hash(void **state)
{
	struct ob_rng rng;
	struct padded p;
	char name[300];

	(void)state;
	ob_rng_seed(&rng, 42);
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = ob_rng_below(&rng, 70);
		const void *salt = (const void *)(uintptr_t)ob_rng_next(&rng);
		char term = (iter & 1) ? '/' : '\0';
		uint64_t hl;

		for (size_t i = 0; i < len; i++) {
			char c;

			do
				c = (char)(1 + ob_rng_below(&rng, 255));
			while (c == '/');
			name[i] = c;
		}
		pad(&p, name, len, term);
		hl = hash_name(salt, p.buf);
		assert_int_equal(hashlen_len(hl), len);
		assert_int_equal(hashlen_hash(hl), full_name_hash(salt, p.buf, (unsigned int)len));
		/* 6.11+'s form: the same hashlen; the last word only for one word. */
		uint64_t last = ~0ull;

		assert_int_equal(hash_name_lastword(salt, p.buf, &last), hl);
		if (len < sizeof(uint64_t))
			assert_int_equal(last, load_word(p.buf) & bytemask_from_count((unsigned int)len));
		else
			assert_int_equal(last, 0);
	}
}

static void test_hash_depends_on_the_salt(void **state)
{
	struct padded p;
	const char *s = pad(&p, "readme", 6, 0);

	(void)state;
	assert_int_not_equal(full_name_hash((void *)0x1000, s, 6), full_name_hash((void *)0x2000, s, 6));
}

static void test_dentry_string_cmp_finds_every_differing_byte(void **state)
{
	struct padded a, b;
	const char *base = "0123456789abcdefghijklmnopqrstuvwxyzABCDEF";

	(void)state;
	for (unsigned int len = 1; len <= 40; len++) {
		pad(&a, base, len, 0);
		pad(&b, base, len, 0);
		assert_int_equal(dentry_string_cmp(a.buf, b.buf, len), 0);
		for (unsigned int i = 0; i < len; i++) {
			b.buf[i] ^= 0x20;
			assert_int_not_equal(dentry_string_cmp(a.buf, b.buf, len), 0);
			b.buf[i] ^= 0x20;
		}
		/* A difference past the length does not count. */
		b.buf[len] = 'x';
		assert_int_equal(dentry_string_cmp(a.buf, b.buf, len), 0);
	}
}

static void test_word_helpers(void **state)
{
	(void)state;
	assert_true(bytemask_from_count(0) == 0);
	assert_true(bytemask_from_count(3) == 0xffffffull);
	assert_true(bytemask_from_count(7) == 0x00ffffffffffffffull);
	for (unsigned int i = 0; i < 8; i++) {
		uint64_t w = REPEAT_BYTE(0x41) & ~(0xffull << (8 * i));
		uint64_t z = has_zero(w);

		assert_true(z != 0);
		assert_int_equal(find_zero(z), i);
		assert_true(zero_bytemask(z) == bytemask_from_count(i));
	}
	assert_true(has_zero(REPEAT_BYTE(0x41)) == 0);
	/* A 0x01 byte above a zero (borrow) must not move the first zero. */
	assert_int_equal(find_zero(has_zero(0x0100ull)), 0);
}

static void test_casefold_hash_and_compare_ignore_case(void **state)
{
	struct padded a, b;

	(void)state;
	pad(&a, "README.txt", 10, 0);
	pad(&b, "readme.TXT", 10, 0);
	assert_int_equal(casefold_hash((void *)0x40, a.buf, 10), casefold_hash((void *)0x40, b.buf, 10));
	assert_int_equal(casefold_cmp(a.buf, b.buf, 10), 0);
	pad(&b, "readme.TXu", 10, 0);
	assert_int_not_equal(casefold_cmp(a.buf, b.buf, 10), 0);
	/* Lower-case input hashes as full_name_hash() does. */
	pad(&a, "readme", 6, 0);
	assert_int_equal(casefold_hash(NULL, a.buf, 6), 0x6523721d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_name_hash_matches_kernel_check_values),
		cmocka_unit_test(test_full_name_hash_ignores_bytes_past_the_end),
		cmocka_unit_test(test_hash_name_agrees_with_full_name_hash),
		cmocka_unit_test(test_hash_depends_on_the_salt),
		cmocka_unit_test(test_dentry_string_cmp_finds_every_differing_byte),
		cmocka_unit_test(test_word_helpers),
		cmocka_unit_test(test_casefold_hash_and_compare_ignore_case),
	};

	return cmocka_run_group_tests_name("hash", tests, NULL, NULL);
}
