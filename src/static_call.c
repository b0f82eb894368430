// SPDX-License-Identifier: MIT
/*
 * static_call.c - patching the trampolines and the inline call sites of
 * include/opsbench/static_call.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opsbench/static_call.h"

/* The trampolines (src/arch/<arch>/static_call.S) and their keys. */
#define OB_STATIC_CALL(id)							\
	extern char OB_STATIC_CALL_TRAMP(id)[];					\
	struct ob_static_call_key OB_STATIC_CALL_KEY(id) = {			\
		.name = #id, .tramp = OB_STATIC_CALL_TRAMP(id),			\
	};
#include "opsbench/static_call_list.h"
#undef OB_STATIC_CALL

/* Bytes of the first instruction(s) that a patch writes, and what they are. */
#define TRAMP_BYTES	8

#if defined(__x86_64__)
#ifdef OB_RETHUNK
void __x86_return_thunk(void);		/* src/arch/x86_64/retpoline.S */
#endif

static int encode(unsigned char *insn, uintptr_t at, uintptr_t func)
{
	static const unsigned char ret0[TRAMP_BYTES] = {
		0x31, 0xc0,		/* xor %eax,%eax */
		0xc3,			/* ret */
		0xcc, 0xcc, 0xcc, 0xcc, 0xcc,	/* int3 */
	};
	int64_t rel;
	int32_t rel32;

	memcpy(insn, ret0, TRAMP_BYTES);
#ifdef OB_RETHUNK
	/* The kernel's RET there: "jmp __x86_return_thunk" after the xor. */
	if (!func) {
		rel = (int64_t)((uintptr_t)__x86_return_thunk - (at + 2 + 5));
		if (rel != (int32_t)rel)
			return -ERANGE;
		rel32 = (int32_t)rel;
		insn[2] = 0xe9;
		memcpy(insn + 3, &rel32, sizeof(rel32));
		return 0;
	}
#endif
	if (!func)
		return 0;
	rel = (int64_t)(func - (at + 5));
	if (rel != (int32_t)rel)
		return -ERANGE;
	rel32 = (int32_t)rel;
	insn[0] = 0xe9;			/* jmp rel32 */
	memcpy(insn + 1, &rel32, sizeof(rel32));
	return 0;
}
#elif defined(__aarch64__)
static int encode(unsigned char *insn, uintptr_t at, uintptr_t func)
{
	uint32_t words[2] = {
		0x52800000,		/* mov w0, #0 */
		0xd65f03c0,		/* ret */
	};
	int64_t rel;

	if (func) {
		rel = (int64_t)(func - at);
		if (rel % 4 || rel < -(INT64_C(1) << 27) || rel >= (INT64_C(1) << 27))
			return -ERANGE;
		words[0] = 0x14000000u | ((uint32_t)(rel >> 2) & 0x03ffffffu);	/* b */
	}
	memcpy(insn, words, TRAMP_BYTES);
	return 0;
}
#else
#error "static calls are written for x86-64 and arm64"
#endif

/* The longest call site instruction: a conditional jump, "0f 8x rel32". */
#define SITE_MAX_BYTES	6

#if defined(__x86_64__)
/* The kernel's xor5rax: a call site of a static call with no target. */
static const unsigned char xor5rax[5] = {
	0x2e, 0x2e, 0x2e, 0x31, 0xc0,	/* cs cs cs xor %eax,%eax */
};

/*
 * The instruction that call site @at must hold to reach @func (NULL: what
 * returns 0), written to @insn: a call becomes "call func" (or xor5rax), a
 * jump or conditional jump (a tail call) one to @func (or to @tramp, which
 * returns 0).  Returns its length, or -EINVAL (not a site) or -ERANGE.
 */
static int encode_site(unsigned char *insn, const unsigned char *at, uintptr_t func,
		       uintptr_t tramp)
{
	size_t op_len = 1;
	int64_t rel;
	int32_t rel32;

	if (at[0] == 0xe8 || !memcmp(at, xor5rax, sizeof(xor5rax))) {
		if (!func) {
			memcpy(insn, xor5rax, sizeof(xor5rax));
			return sizeof(xor5rax);
		}
		insn[0] = 0xe8;				/* call rel32 */
	} else if (at[0] == 0xe9) {
		insn[0] = 0xe9;				/* jmp rel32 */
	} else if (at[0] == 0x0f && (at[1] & 0xf0) == 0x80) {
		insn[0] = 0x0f;				/* jcc rel32 */
		insn[1] = at[1];
		op_len = 2;
	} else {
		return -EINVAL;
	}
	if (!func)
		func = tramp;
	rel = (int64_t)(func - ((uintptr_t)at + op_len + sizeof(rel32)));
	if (rel != (int32_t)rel)
		return -ERANGE;
	rel32 = (int32_t)rel;
	memcpy(insn + op_len, &rel32, sizeof(rel32));
	return (int)(op_len + sizeof(rel32));
}
#else
/* No inline static calls here (arm64 kernels have none either). */
static int encode_site(unsigned char *insn, const unsigned char *at, uintptr_t func,
		       uintptr_t tramp)
{
	(void)insn, (void)at, (void)func, (void)tramp;
	return -EINVAL;
}
#endif

/*
 * The call sites that scripts/static_call_sites.awk recorded, as the linker
 * gathers them; weak, as an executable whose objects have none has no
 * such section (arm64, or a program without the static_call strategy).
 */
extern const struct ob_static_call_site __start_ob_static_call_sites[] __attribute__((weak));
extern const struct ob_static_call_site __stop_ob_static_call_sites[] __attribute__((weak));

#define for_each_site(s)							\
	for (const struct ob_static_call_site *s = __start_ob_static_call_sites;	\
	     s < __stop_ob_static_call_sites; s++)

static unsigned char *site_addr(const struct ob_static_call_site *s)
{
	return (unsigned char *)((uintptr_t)&s->addr + (intptr_t)s->addr);
}

static const struct ob_static_call_key *site_key(const struct ob_static_call_site *s)
{
	return (const struct ob_static_call_key *)((uintptr_t)&s->key + (intptr_t)s->key);
}

/* Page protections of patched code when it is not being patched. */
#if defined(__aarch64__) && defined(__ARM_FEATURE_BTI_DEFAULT)
#define TRAMP_PROT	(PROT_READ | PROT_EXEC | 0x10 /* PROT_BTI */)
#else
#define TRAMP_PROT	(PROT_READ | PROT_EXEC)
#endif

/*
 * Write the @len bytes of @insn at @at, code of @key's (@what: its
 * trampoline or a call site), unless they are there: the page(s) made
 * writable, written, made executable again.
 */
static int poke(const struct ob_static_call_key *key, const char *what, void *at,
		const void *insn, size_t len, struct ob_err *err)
{
	uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t first = (uintptr_t)at & ~(page_size - 1);
	uintptr_t last = ((uintptr_t)at + len - 1) & ~(page_size - 1);
	size_t span = last - first + page_size;
	void *page = (void *)first;

	if (!memcmp(at, insn, len))
		return 0;
	if (mprotect(page, span, PROT_READ | PROT_WRITE))
		return ob_errorf(err, -errno, "static call %s: cannot make its %s writable: %s",
				 key->name, what, strerror(errno));
	memcpy(at, insn, len);
	/*
	 * A kernel without BTI (arch_validate_prot()), and valgrind, refuse
	 * PROT_BTI with EINVAL: the page is then executable without it, as
	 * every page of such a process is.
	 */
	if (mprotect(page, span, TRAMP_PROT) &&
	    (errno != EINVAL || TRAMP_PROT == (PROT_READ | PROT_EXEC) ||
	     mprotect(page, span, PROT_READ | PROT_EXEC)))
		return ob_errorf(err, -errno, "static call %s: cannot make its %s executable again: %s",
				 key->name, what, strerror(errno));
	__builtin___clear_cache((char *)at, (char *)at + len);
	return 0;
}

/* Patch each call site of @key to reach @func; @check: only see that each can be. */
static int patch_sites(struct ob_static_call_key *key, void *func, bool check, struct ob_err *err)
{
	for_each_site(s) {
		unsigned char insn[SITE_MAX_BYTES];
		unsigned char *at = site_addr(s);
		int len, ret;

		if (site_key(s) != key)
			continue;
		len = encode_site(insn, at, (uintptr_t)func, (uintptr_t)key->tramp);
		if (len < 0)
			return ob_errorf(err, len, "static call %s: %s (site %p, target %p)", key->name,
					 len == -ERANGE ? "target out of the call site's reach" :
							  "the call site is no call or jump", (void *)at, func);
		ret = check ? 0 : poke(key, "call site", at, insn, (size_t)len, err);
		if (ret)
			return ret;
	}
	return 0;
}

int ob_static_call_update(struct ob_static_call_key *key, void *func, struct ob_err *err)
{
	unsigned char insn[TRAMP_BYTES];
	int ret;

	ret = encode(insn, (uintptr_t)key->tramp, (uintptr_t)func);
	if (ret)
		return ob_errorf(err, ret, "static call %s: target %p is out of the jump's reach",
				 key->name, func);
	ret = patch_sites(key, func, true, err);
	if (!ret)
		ret = poke(key, "trampoline", key->tramp, insn, TRAMP_BYTES, err);
	if (!ret)
		ret = patch_sites(key, func, false, err);
	if (!ret)
		key->func = func;
	return ret;
}

int ob_static_call_attach(struct ob_static_call_key *key, void *func, struct ob_err *err)
{
	int ret;

	if (key->users) {
		if (key->func != func)
			return ob_errorf(err, -EBUSY,
					 "static call %s already jumps to another function (%p, not %p): a static call has one target",
					 key->name, key->func, func);
		key->users++;
		return 0;
	}
	ret = ob_static_call_update(key, func, err);
	if (!ret)
		key->users = 1;
	return ret;
}

void ob_static_call_detach(struct ob_static_call_key *key)
{
	if (!key->users || --key->users)
		return;
	/* Back to "return 0"; a failure leaves a target that is still valid code. */
	ob_static_call_update(key, NULL, NULL);
}

void *ob_static_call_query(const struct ob_static_call_key *key)
{
	return key->func;
}

size_t ob_static_call_sites(const struct ob_static_call_key *key, void **addrs, size_t max)
{
	size_t n = 0;

	for_each_site(s) {
		if (site_key(s) != key)
			continue;
		if (n < max)
			addrs[n] = site_addr(s);
		n++;
	}
	return n;
}
