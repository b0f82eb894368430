// SPDX-License-Identifier: MIT
/*
 * test_static_call.c - the static call trampolines and inline call sites
 * (include/opsbench/static_call.h) and the static_call strategies' attach
 * and detach.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "opsbench/compiler.h"
#include "opsbench/error.h"
#include "opsbench/static_call.h"
#include "opsbench/strategy.h"
#include "opsbench/workload.h"

typedef long selftest_fn(long x);

OB_DECLARE_STATIC_CALL(selftest, selftest_fn);
extern struct ob_static_call_key ob_static_call_key_d_hash;
extern struct ob_static_call_key ob_static_call_key_d_compare;
extern struct ob_static_call_key ob_static_call_key_d_revalidate;
extern struct ob_static_call_key ob_static_call_key_ool_d_hash;

static noinline long plus_one(long x)
{
	return x + 1;
}

static noinline long times_three(long x)
{
	return x * 3;
}

/* The trampoline's first instruction, decoded: its jump target, or NULL. */
static void *tramp_target(const struct ob_static_call_key *key)
{
	const unsigned char *p = key->tramp;
#if defined(__x86_64__)
	int32_t rel;

	if (p[0] != 0xe9)	/* jmp rel32 */
		return NULL;
	memcpy(&rel, p + 1, sizeof(rel));
	return (void *)((uintptr_t)p + 5 + (intptr_t)rel);
#else
	uint32_t insn;
	int64_t rel;

	memcpy(&insn, p, sizeof(insn));
	if ((insn & 0xfc000000u) != 0x14000000u)	/* b imm26 */
		return NULL;
	rel = (int32_t)((insn & 0x03ffffffu) << 6) >> 4;	/* sign-extend, x4 */
	return (void *)((uintptr_t)p + rel);
#endif
}

#if defined(__x86_64__)
/*
 * What call site @at reaches: a call's or jump's target, or NULL for the
 * kernel's xor5rax (return 0 without a call).  *@kind: 'c'all, 'j'ump
 * (either form) or 'x'or5rax.
 */
static void *site_target(const unsigned char *at, char *kind)
{
	static const unsigned char xor5rax[] = { 0x2e, 0x2e, 0x2e, 0x31, 0xc0 };
	size_t op_len = at[0] == 0x0f ? 2 : 1;
	int32_t rel;

	if (!memcmp(at, xor5rax, sizeof(xor5rax))) {
		*kind = 'x';
		return NULL;
	}
	assert_true(at[0] == 0xe8 || at[0] == 0xe9 || (at[0] == 0x0f && (at[1] & 0xf0) == 0x80));
	*kind = at[0] == 0xe8 ? 'c' : 'j';
	memcpy(&rel, at + op_len, sizeof(rel));
	return (void *)((uintptr_t)at + op_len + sizeof(rel) + (intptr_t)rel);
}

/*
 * Every inline call site of @key reaches @func directly (a call of it, or a
 * jump to it), or, @func NULL, returns 0: xor5rax, or a jump to the
 * trampoline.  Returns how many sites there are.
 */
static size_t assert_sites_reach(const struct ob_static_call_key *key, void *func)
{
	void *sites[256];
	size_t n = ob_static_call_sites(key, sites, 256);

	assert_in_range(n, 0, 256);
	for (size_t i = 0; i < n; i++) {
		char kind;
		void *to = site_target(sites[i], &kind);

		if (func)
			assert_ptr_equal(to, func);
		else if (kind == 'j')
			assert_ptr_equal(to, key->tramp);
		else
			assert_int_equal(kind, 'x');
	}
	return n;
}
#endif

/* Unpatched, the trampoline returns 0; patched, it jumps, and can be repatched. */
static void test_trampoline_returns_zero_then_jumps_to_each_target(void **state)
{
	struct ob_static_call_key *key = &OB_STATIC_CALL_KEY(selftest);

	(void)state;
	assert_null(ob_static_call_query(key));
	assert_null(tramp_target(key));
	assert_int_equal(ob_static_call(selftest)(41), 0);

	assert_int_equal(ob_static_call_update(key, (void *)plus_one, NULL), 0);
	assert_ptr_equal(tramp_target(key), (void *)plus_one);
	assert_int_equal(ob_static_call(selftest)(41), 42);

	/* A second patch must be seen by the next call (arm64: the icache flush). */
	assert_int_equal(ob_static_call_update(key, (void *)times_three, NULL), 0);
	assert_ptr_equal(tramp_target(key), (void *)times_three);
	assert_int_equal(ob_static_call(selftest)(41), 123);

	assert_int_equal(ob_static_call_update(key, NULL, NULL), 0);
	assert_null(tramp_target(key));
	assert_int_equal(ob_static_call(selftest)(41), 0);
}

/* One target per static call: a second function is refused; the last user resets it. */
static void test_attach_counts_users_and_refuses_a_second_target(void **state)
{
	struct ob_static_call_key *key = &OB_STATIC_CALL_KEY(selftest);
	struct ob_err err = { 0 };

	(void)state;
	assert_int_equal(ob_static_call_attach(key, (void *)plus_one, &err), 0);
	assert_int_equal(ob_static_call_attach(key, (void *)plus_one, &err), 0);
	assert_int_equal(ob_static_call_attach(key, (void *)times_three, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "one target"));
	assert_int_equal(ob_static_call(selftest)(1), 2);
	ob_static_call_detach(key);
	assert_int_equal(ob_static_call(selftest)(1), 2);
	ob_static_call_detach(key);
	assert_null(ob_static_call_query(key));
	assert_int_equal(ob_static_call(selftest)(1), 0);
	ob_static_call_detach(key);		/* one too many: harmless */
	assert_int_equal(key->users, 0);
}

static struct workload *make_workload(double custom_share)
{
	static struct workload wl[2];
	static int next;
	struct workload_params p;
	struct workload *w = &wl[next++ % 2];

	workload_params_default(&p);
	p.dentries = 2000;
	p.custom_share = custom_share;
	assert_int_equal(workload_generate(&p, w, NULL), 0);
	return w;
}

/* The strategy patches the dentry ops' trampolines while a tree needs them. */
static void test_strategy_attaches_while_a_tree_with_custom_ops_lives(void **state)
{
	const struct strategy *s = ob_strategy_find("static_call");
	struct workload *plain = make_workload(0.0), *custom = make_workload(0.5);
	struct ob_tree *a, *b;

	(void)state;
	assert_non_null(s);
	assert_int_equal(s->build(plain, OB_CTX_BARE, &a, NULL), 0);
	assert_null(ob_static_call_query(&ob_static_call_key_d_hash));
	assert_null(tramp_target(&ob_static_call_key_d_hash));

	assert_int_equal(s->build(custom, OB_CTX_BARE, &b, NULL), 0);
	assert_non_null(ob_static_call_query(&ob_static_call_key_d_hash));
	assert_non_null(ob_static_call_query(&ob_static_call_key_d_compare));
	assert_non_null(ob_static_call_query(&ob_static_call_key_d_revalidate));
	assert_ptr_equal(tramp_target(&ob_static_call_key_d_hash),
			 ob_static_call_query(&ob_static_call_key_d_hash));

	s->destroy(b);
	assert_null(ob_static_call_query(&ob_static_call_key_d_hash));
	assert_null(tramp_target(&ob_static_call_key_d_revalidate));
	s->destroy(a);
	workload_free(plain);
	workload_free(custom);
}

#if defined(__x86_64__)
/* What null_tested finds for the first @n lookups of @wl, in @want. */
static void reference_lookups(const struct workload *wl, long *want, size_t n)
{
	const struct strategy *ref = ob_strategy_find("null_tested");
	struct ob_tree *t;

	assert_int_equal(ref->build(wl, OB_CTX_BARE, &t, NULL), 0);
	for (size_t i = 0; i < n; i++)
		want[i] = ref->lookup(t, wl->lookups[i].start, workload_path(wl, i));
	ref->destroy(t);
}
#endif

/*
 * x86-64: static_call's call sites are patched to call the op itself
 * (HAVE_STATIC_CALL_INLINE), and back to "return 0" when it is detached.
 * arm64 records none (the kernel's arm64 static calls are out of line).
 */
static void test_static_call_patches_its_call_sites_to_the_target(void **state)
{
	const struct strategy *s = ob_strategy_find("static_call");
	struct ob_static_call_key *keys[] = {
		&ob_static_call_key_d_hash, &ob_static_call_key_d_compare,
		&ob_static_call_key_d_revalidate,
	};
	struct workload *custom = make_workload(0.5);
	size_t n = custom->n_lookups < 256 ? custom->n_lookups : 256;
	long want[256];
	struct ob_tree *t;

	(void)state;
#if defined(__x86_64__)
	for (size_t k = 0; k < 3; k++)
		assert_int_not_equal(assert_sites_reach(keys[k], NULL), 0);
	assert_int_equal(assert_sites_reach(&OB_STATIC_CALL_KEY(selftest), NULL), 0);
	reference_lookups(custom, want, n);

	assert_int_equal(s->build(custom, OB_CTX_BARE, &t, NULL), 0);
	for (size_t k = 0; k < 3; k++) {
		assert_non_null(ob_static_call_query(keys[k]));
		assert_int_not_equal(assert_sites_reach(keys[k], ob_static_call_query(keys[k])), 0);
	}
	/* Lookups run through the patched sites and find what null_tested finds. */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s->lookup(t, custom->lookups[i].start, workload_path(custom, i)), want[i]);
	s->destroy(t);
	for (size_t k = 0; k < 3; k++)
		assert_sites_reach(keys[k], NULL);
#else
	for (size_t k = 0; k < 3; k++)
		assert_int_equal(ob_static_call_sites(keys[k], NULL, 0), 0);
	(void)s, (void)n, (void)want, (void)t;
#endif
	workload_free(custom);
}

/* static_call_tramp patches its own trampolines; its calls of them are no sites. */
static void test_static_call_tramp_patches_only_its_own_trampolines(void **state)
{
	const struct strategy *tramp = ob_strategy_find("static_call_tramp");
	struct ob_static_call_key *key = &ob_static_call_key_ool_d_hash;
	struct workload *custom = make_workload(0.5);
	struct ob_tree *t;

	(void)state;
	assert_non_null(tramp);
	assert_int_equal(tramp->build(custom, OB_CTX_BARE, &t, NULL), 0);
	assert_non_null(ob_static_call_query(key));
	assert_ptr_equal(tramp_target(key), ob_static_call_query(key));
	assert_null(ob_static_call_query(&ob_static_call_key_d_hash));
	assert_int_equal(ob_static_call_sites(key, NULL, 0), 0);
	tramp->destroy(t);
	assert_null(tramp_target(key));
	workload_free(custom);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trampoline_returns_zero_then_jumps_to_each_target),
		cmocka_unit_test(test_attach_counts_users_and_refuses_a_second_target),
		cmocka_unit_test(test_strategy_attaches_while_a_tree_with_custom_ops_lives),
		cmocka_unit_test(test_static_call_patches_its_call_sites_to_the_target),
		cmocka_unit_test(test_static_call_tramp_patches_only_its_own_trampolines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
