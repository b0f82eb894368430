// SPDX-License-Identifier: MIT
/*
 * dispatch.c - the call mechanisms alone, without the lookup around them.
 *
 * Every benchmark walks an array of OBJECTS small objects (16 KiB objects of
 * 16 bytes: 256 KiB, in L2, read sequentially) and, for each, computes
 * x = f(x) with the method the object names, so the calls form one
 * dependency chain and the time per iteration is the latency of one
 * dispatch plus one add.  Targets are noinline; the inline default is the
 * same add, inline.
 *
 * The "_dep" variants put the method pointer itself on the critical path:
 * the object is the one the last result chose (obj[x % OBJECTS]), so its
 * pointer is loaded, tested and called only once x is known, as a path
 * walk loads the next dentry's d_op only once the lookup has found it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "opsbench/compiler.h"
#include "opsbench/rng.h"
#include "opsbench/static_call.h"
#include "suite.h"

#define OBJECTS		(16u << 10)	/* a power of two */
#define FLAG_OP		1u

typedef uint64_t method_fn(uint64_t x);

struct object {
	method_fn *fn;		/* NULL: no method */
	unsigned int flags;	/* FLAG_OP: the method is there */
};

#define TARGET(k) static noinline uint64_t target##k(uint64_t x) { return x + (k) + 1; }
TARGET(0) TARGET(1) TARGET(2) TARGET(3) TARGET(4) TARGET(5) TARGET(6) TARGET(7)
TARGET(8) TARGET(9) TARGET(10) TARGET(11) TARGET(12) TARGET(13) TARGET(14) TARGET(15)
#undef TARGET

/* The static_call case: a direct call to a trampoline patched to target0. */
OB_DECLARE_STATIC_CALL(dispatch_method, method_fn);

static method_fn *const targets[16] = {
	target0, target1, target2, target3, target4, target5, target6, target7,
	target8, target9, target10, target11, target12, target13, target14, target15,
};

static inline uint64_t inline_default(uint64_t x)
{
	return x + 1;
}

enum kind { DIRECT, INLINED, NULL_TEST, FLAG_TEST, INDIRECT, NULL_TEST_DEP, INDIRECT_DEP, STATIC_CALL };

struct dispatch_arg {
	enum kind kind;
	unsigned int share;	/* NULL_TEST: % non-NULL; FLAG_TEST: % flagged */
	unsigned int n_targets;	/* INDIRECT */
	bool random;		/* INDIRECT: targets in random order */
	struct object *obj;
};

static int dispatch_prepare(void *arg, char *msg, size_t len)
{
	struct dispatch_arg *a = arg;
	struct ob_rng rng;

	if (a->kind == STATIC_CALL) {
		struct ob_err err = { 0 };

		if (ob_static_call_update(&OB_STATIC_CALL_KEY(dispatch_method), (void *)target0, &err)) {
			snprintf(msg, len, "%s", err.msg);
			return -1;
		}
	}
	if (a->obj)
		return 0;
	a->obj = calloc(OBJECTS, sizeof(*a->obj));
	if (!a->obj) {
		snprintf(msg, len, "out of memory for %u objects", OBJECTS);
		return -1;
	}
	ob_rng_seed(&rng, 7);
	for (unsigned int i = 0; i < OBJECTS; i++) {
		struct object *o = &a->obj[i];
		bool on = ob_rng_below(&rng, 100) < a->share;

		switch (a->kind) {
		case NULL_TEST:
		case NULL_TEST_DEP:
			o->fn = on ? target0 : NULL;
			break;
		case FLAG_TEST:
			o->fn = target0;
			o->flags = on ? FLAG_OP : 0;
			break;
		case INDIRECT:
			o->fn = targets[a->random ? ob_rng_below(&rng, a->n_targets) : i % a->n_targets];
			break;
		default:
			o->fn = target0;
			break;
		}
	}
	return 0;
}

static uint64_t dispatch_body(void *arg, uint64_t iters)
{
	const struct dispatch_arg *a = arg;
	const struct object *obj = a->obj;
	uint64_t x = 0;

	switch (a->kind) {
	case DIRECT:
		for (uint64_t i = 0; i < iters; i++)
			x = target0(x);
		break;
	case STATIC_CALL:
		for (uint64_t i = 0; i < iters; i++)
			x = ob_static_call(dispatch_method)(x);
		break;
	case INLINED:
		for (uint64_t i = 0; i < iters; i++) {
			x = inline_default(x);
			OPTIMIZER_HIDE_VAR(x);
		}
		break;
	case NULL_TEST:
		for (uint64_t i = 0; i < iters; i++) {
			const struct object *o = &obj[i & (OBJECTS - 1)];

			x = o->fn ? o->fn(x) : inline_default(x);
			OPTIMIZER_HIDE_VAR(x);
		}
		break;
	case FLAG_TEST:
		for (uint64_t i = 0; i < iters; i++) {
			const struct object *o = &obj[i & (OBJECTS - 1)];

			x = (o->flags & FLAG_OP) ? o->fn(x) : inline_default(x);
			OPTIMIZER_HIDE_VAR(x);
		}
		break;
	case INDIRECT:
		for (uint64_t i = 0; i < iters; i++)
			x = obj[i & (OBJECTS - 1)].fn(x);
		break;
	case NULL_TEST_DEP:
		for (uint64_t i = 0; i < iters; i++) {
			const struct object *o = &obj[x & (OBJECTS - 1)];

			x = o->fn ? o->fn(x) : inline_default(x);
			OPTIMIZER_HIDE_VAR(x);
		}
		break;
	case INDIRECT_DEP:
		for (uint64_t i = 0; i < iters; i++)
			x = obj[x & (OBJECTS - 1)].fn(x);
		break;
	}
	return x;
}

static void dispatch_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	(void)arg;
	ob_gb_items(st, iters);
}

void dispatch_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	static struct dispatch_arg fixed[] = {
		{ .kind = DIRECT }, { .kind = STATIC_CALL }, { .kind = INLINED },
		{ .kind = NULL_TEST, .share = 0 }, { .kind = NULL_TEST, .share = 10 },
		{ .kind = NULL_TEST, .share = 90 }, { .kind = NULL_TEST, .share = 100 },
		{ .kind = FLAG_TEST, .share = 0 }, { .kind = FLAG_TEST, .share = 100 },
		{ .kind = NULL_TEST_DEP, .share = 0 }, { .kind = NULL_TEST_DEP, .share = 100 },
		{ .kind = INDIRECT_DEP },
	};
	static const unsigned int n_targets[] = { 1, 2, 4, 16 };
	static struct dispatch_arg indirect[2 * ARRAY_SIZE(n_targets)];
	char name[128];

	(void)cfg;
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		struct dispatch_arg *a = &fixed[i];

		switch (a->kind) {
		case DIRECT:	snprintf(name, sizeof(name), "dispatch/direct_call"); break;
		case STATIC_CALL: snprintf(name, sizeof(name), "dispatch/static_call"); break;
		case INLINED:	snprintf(name, sizeof(name), "dispatch/inlined_default"); break;
		case NULL_TEST:	snprintf(name, sizeof(name), "dispatch/null_test/nonnull:%u", a->share); break;
		case NULL_TEST_DEP:
			snprintf(name, sizeof(name), "dispatch/null_test_dep/nonnull:%u", a->share);
			break;
		case INDIRECT_DEP:
			snprintf(name, sizeof(name), "dispatch/indirect_dep/targets:1");
			break;
		default:	snprintf(name, sizeof(name), "dispatch/flag_test/set:%u", a->share); break;
		}
		bench_add(l, name, dispatch_prepare, dispatch_body, dispatch_report, a);
	}
	for (size_t i = 0; i < ARRAY_SIZE(n_targets); i++) {
		for (int r = 0; r < 2; r++) {
			struct dispatch_arg *a = &indirect[2 * i + r];

			*a = (struct dispatch_arg) {
				.kind = INDIRECT, .n_targets = n_targets[i], .random = r,
			};
			snprintf(name, sizeof(name), "dispatch/indirect/targets:%u/order:%s",
				 n_targets[i], r ? "random" : "predictable");
			bench_add(l, name, dispatch_prepare, dispatch_body, dispatch_report, a);
		}
	}
}
