/* SPDX-License-Identifier: MIT */
/*
 * static_call.h - user-space static calls, after Linux's static_call (5.10+).
 *
 * A static call is a direct call to a small trampoline of its own; the
 * trampoline's first instruction is patched to jump to the current target
 * (x86-64 "jmp rel32", arm64 "b imm26"), or, with no target, to return 0
 * ("xor %eax,%eax; ret", "mov w0, #0; ret": the kernel's
 * DEFINE_STATIC_CALL_RET0).  The caller's call is direct, so it needs no
 * retpoline thunk, no kCFI check and no BTI landing pad; what it costs is
 * the extra direct jump.
 *
 * Inline static calls (x86-64, the kernel's HAVE_STATIC_CALL_INLINE): in
 * an object built through scripts/static_call_sites.awk (the x86-64
 * static_call strategy's, see the Makefile), every call of a trampoline is
 * recorded in section ob_static_call_sites, and an update patches each
 * such site too: "call rel32" to the target itself, or, with no target,
 * the kernel's 5-byte "xor %eax,%eax" (2e 2e 2e 31 c0); a jump (a tail
 * call) to the target, or back to the trampoline.  The extra jump is gone.
 * arm64 kernels have no inline static calls, and here neither.
 *
 * The trampolines live in a page of their own (.text.ob_static_call), and
 * an object with sites has code pages of its own; a patch makes the page
 * writable, writes the instruction, makes it executable again and flushes
 * the instruction cache (arm64).  Patching is for setup, not for timed
 * code: no thread may run a trampoline or a site while it is patched.  The
 * names are in static_call_list.h.
 */
#ifndef OPSBENCH_STATIC_CALL_H
#define OPSBENCH_STATIC_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "opsbench/error.h"

/* One static call: its trampoline, its target and who attached it. */
struct ob_static_call_key {
	const char *name;
	void *tramp;		/* the trampoline's address */
	void *func;		/* current target; NULL: the trampoline returns 0 */
	unsigned int users;	/* ob_static_call_attach() calls not yet detached */
};

/*
 * One inline call site, as scripts/static_call_sites.awk records it (the
 * kernel's struct static_call_site): each field is an offset from itself.
 */
struct ob_static_call_site {
	int32_t addr;		/* the call or jump instruction */
	int32_t key;		/* its struct ob_static_call_key */
};

#define OB_STATIC_CALL_TRAMP(name)	ob_static_call_tramp_##name
#define OB_STATIC_CALL_KEY(name)	ob_static_call_key_##name

/*
 * OB_DECLARE_STATIC_CALL - declare static call @name with the type of
 * function @func, as Linux's DECLARE_STATIC_CALL: the trampoline is declared
 * as a function of that type, so that calling it is a plain direct call.
 */
#define OB_DECLARE_STATIC_CALL(name, func)					\
	extern __typeof__(func) OB_STATIC_CALL_TRAMP(name);			\
	extern struct ob_static_call_key OB_STATIC_CALL_KEY(name)

/* ob_static_call(name)(args...) - call @name's current target. */
#define ob_static_call(name)	(OB_STATIC_CALL_TRAMP(name))

/*
 * ob_static_call_update - patch @key's trampoline to jump to @func (NULL:
 * return 0), and each of its inline call sites to reach @func directly,
 * whoever is attached.  Returns 0 or a negative errno: -ERANGE when @func
 * is beyond a jump's reach, -EINVAL for a site that is no call or jump
 * (nothing is patched then), or mprotect()'s error.
 */
int ob_static_call_update(struct ob_static_call_key *key, void *func, struct ob_err *err);

/*
 * ob_static_call_attach - one user's @func for @key: the first user patches
 * the trampoline; later users must want the same @func (a static call has
 * one target: -EBUSY otherwise).  Undo with ob_static_call_detach().
 */
OB_REALIGN int ob_static_call_attach(struct ob_static_call_key *key, void *func, struct ob_err *err);

/*
 * ob_static_call_detach - drop one user of @key; the last one patches the
 * trampoline back to return 0.
 */
OB_REALIGN void ob_static_call_detach(struct ob_static_call_key *key);

/* ob_static_call_query - @key's current target (NULL: returns 0). */
void *ob_static_call_query(const struct ob_static_call_key *key);

/*
 * ob_static_call_sites - the inline call sites of @key: stores the address
 * of the instruction of up to @max of them in @addrs and returns how many
 * there are (0 on arm64, and for a key only trampoline callers use).
 */
size_t ob_static_call_sites(const struct ob_static_call_key *key, void **addrs, size_t max);

#endif /* OPSBENCH_STATIC_CALL_H */
