/* SPDX-License-Identifier: MIT */
/*
 * indirect_call.h - INDIRECT_CALL_1/2 as in Linux 4.20+
 * (include/linux/indirect_call_wrapper.h): compare a function pointer with
 * the targets the caller expects and call a match directly.  Under
 * retpolines a compare and a direct call cost far less than one indirect
 * call; without them the gain is a well-predicted branch at best, and so, as
 * in the kernel, the compares exist only in a retpoline build (OB_RETPOLINE,
 * the kernel's CONFIG_MITIGATION_RETPOLINE); elsewhere INDIRECT_CALL_N(f, ...)
 * is the plain call f(...).
 */
#ifndef OPSBENCH_INDIRECT_CALL_H
#define OPSBENCH_INDIRECT_CALL_H

#include "opsbench/compiler.h"

#ifdef OB_RETPOLINE

/* Call @f(...), directly as @f1 when it is @f1. */
#define INDIRECT_CALL_1(f, f1, ...)					\
	({								\
		likely((f) == (f1)) ? (f1)(__VA_ARGS__) : (f)(__VA_ARGS__); \
	})

/* Call @f(...), directly as @f2 or @f1 when it is one of them. */
#define INDIRECT_CALL_2(f, f2, f1, ...)					\
	({								\
		likely((f) == (f2)) ? (f2)(__VA_ARGS__) :		\
				      INDIRECT_CALL_1(f, f1, __VA_ARGS__); \
	})

#else

#define INDIRECT_CALL_1(f, f1, ...)		(f)(__VA_ARGS__)
#define INDIRECT_CALL_2(f, f2, f1, ...)		(f)(__VA_ARGS__)

#endif /* OB_RETPOLINE */

#endif /* OPSBENCH_INDIRECT_CALL_H */
