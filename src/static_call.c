// SPDX-License-Identifier: MIT
/*
 * static_call.c - patching the trampolines of include/opsbench/static_call.h.
 */
#include <errno.h>
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

/* Page protections of the trampolines when they are not being patched. */
#if defined(__aarch64__) && defined(__ARM_FEATURE_BTI_DEFAULT)
#define TRAMP_PROT	(PROT_READ | PROT_EXEC | 0x10 /* PROT_BTI */)
#else
#define TRAMP_PROT	(PROT_READ | PROT_EXEC)
#endif

int ob_static_call_update(struct ob_static_call_key *key, void *func, struct ob_err *err)
{
	unsigned char insn[TRAMP_BYTES];
	uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t at = (uintptr_t)key->tramp;
	void *page = (void *)(at & ~(page_size - 1));
	int ret;

	ret = encode(insn, at, (uintptr_t)func);
	if (ret)
		return ob_errorf(err, ret, "static call %s: target %p is out of the jump's reach",
				 key->name, func);
	if (!memcmp(key->tramp, insn, TRAMP_BYTES)) {
		key->func = func;
		return 0;
	}
	if (mprotect(page, page_size, PROT_READ | PROT_WRITE))
		return ob_errorf(err, -errno, "static call %s: cannot make its trampoline writable: %s",
				 key->name, strerror(errno));
	memcpy(key->tramp, insn, TRAMP_BYTES);
	/*
	 * A kernel without BTI (arch_validate_prot()), and valgrind, refuse
	 * PROT_BTI with EINVAL: the page is then executable without it, as
	 * every page of such a process is.
	 */
	if (mprotect(page, page_size, TRAMP_PROT) &&
	    (errno != EINVAL || TRAMP_PROT == (PROT_READ | PROT_EXEC) ||
	     mprotect(page, page_size, PROT_READ | PROT_EXEC)))
		return ob_errorf(err, -errno, "static call %s: cannot make its trampoline executable again: %s",
				 key->name, strerror(errno));
	__builtin___clear_cache((char *)key->tramp, (char *)key->tramp + TRAMP_BYTES);
	key->func = func;
	return 0;
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
