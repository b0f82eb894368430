/* SPDX-License-Identifier: MIT */
/*
 * compiler.h - the few compiler annotations the model uses, spelled the
 * kernel's way so that code reads like the code it models.
 */
#ifndef OPSBENCH_COMPILER_H
#define OPSBENCH_COMPILER_H

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "opsbench models the little-endian word-at-a-time dcache code (x86-64, arm64)"
#endif

/* OB_STR(X): the expansion of macro X as a string literal. */
#define OB_STR_(a)	#a
#define OB_STR(a)	OB_STR_(a)

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((noinline))
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has one too */
#define __always_inline	inline __attribute__((always_inline))
#endif
#define __maybe_unused	__attribute__((unused))

/* OB_ASAN: built with AddressSanitizer (gcc says so one way, clang another). */
#if defined(__SANITIZE_ADDRESS__)
#define OB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OB_ASAN 1
#endif
#endif
/* A function whose accesses AddressSanitizer must not check (it reads other frames). */
#ifdef OB_ASAN
#define __no_sanitize_address	__attribute__((no_sanitize_address))
#else
#define __no_sanitize_address
#endif

/* Size of a cache line on every machine opsbench targets (x86-64, arm64). */
#define L1_CACHE_BYTES	64
#define ____cacheline_aligned __attribute__((aligned(L1_CACHE_BYTES)))

/* A load the compiler must perform exactly once (RCU-walk style reads). */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
/* A store the compiler must perform exactly once (a device register). */
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
/*
 * The compiler forgets where pointer @p points (OPTIMIZER_HIDE_VAR): a
 * local reached through it is then reached as the kernel reaches its
 * caller's locals, through a register.
 */
#define OB_HIDE(p)	__asm__("" : "+r"(p))
/*
 * On a function that the measured code calls and that may call the C
 * library: it realigns the stack on entry.  The x86-64 kernel builds keep
 * the measured code's stack 8-byte aligned, as the kernel does
 * (-mpreferred-stack-boundary=3, Makefile KERNEL_MEASURED); the C library
 * expects 16.
 */
#if defined(__x86_64__)
#define OB_REALIGN	__attribute__((force_align_arg_pointer))
#else
#define OB_REALIGN
#endif

/*
 * Around tables built from a *_DEFAULTS initializer: overriding a designated
 * initializer is the point of the pattern, not a mistake to warn about.
 */
#ifdef __clang__
#define OB_DEFAULTS_BEGIN	_Pragma("GCC diagnostic push") \
				_Pragma("GCC diagnostic ignored \"-Winitializer-overrides\"")
#else
#define OB_DEFAULTS_BEGIN	_Pragma("GCC diagnostic push") \
				_Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#endif
#define OB_DEFAULTS_END		_Pragma("GCC diagnostic pop")

/* A busy-wait loop's pause, as the kernel's cpu_relax(). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__)
	__asm__ volatile("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

/* Keep @v alive and opaque to the optimiser without emitting any code. */
#define OPTIMIZER_HIDE_VAR(v)	__asm__ volatile("" : "+r"(v))

#endif /* OPSBENCH_COMPILER_H */
