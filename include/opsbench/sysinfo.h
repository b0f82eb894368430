/* SPDX-License-Identifier: MIT */
/*
 * sysinfo.h - facts about the machine the benchmarks size themselves by.
 */
#ifndef OPSBENCH_SYSINFO_H
#define OPSBENCH_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "opsbench/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Cache sizes in bytes, from sysfs; where it has none (some VMs, containers),
 * from CPUID on x86-64; else fallbacks.  Ways: 0 where not known.
 */
struct ob_caches {
	size_t l1d;		/* level-1 data cache */
	size_t l2;		/* level-2 (unified) */
	size_t llc;		/* last level: L3 if there is one, else L2 */
	size_t line;		/* coherency line size */
	size_t l1i;		/* level-1 instruction cache (0: not known) */
	unsigned int l1d_ways, l1i_ways, l2_ways, llc_ways;
	bool from_sysfs;	/* the sizes are sysfs' */
	const char *source;	/* "sysfs", "cpuid", "cpuid and fallbacks", "--caches", "fallbacks" */
};

/* Used for what neither sysfs nor CPUID says (emulators, some VMs). */
#define OB_FALLBACK_L1D		(32u << 10)
#define OB_FALLBACK_L2		(1u << 20)
#define OB_FALLBACK_LLC		(8u << 20)

/*
 * ob_read_caches - fill @c from /sys/devices/system/cpu/cpu0/cache under
 * @sysfs_root ("" for the real one; tests point it at a fixture).  Where the
 * real sysfs lists no cache, x86-64 asks CPUID: leaf 4 (Intel) or 0x8000001D
 * (AMD with topology extensions), else AMD's 0x80000005/0x80000006, whose
 * L3 a KVM guest may leave to 0x8000001D: the LLC then stays the fallback.
 */
void ob_read_caches(struct ob_caches *c, const char *sysfs_root);

/*
 * ob_emulated - are we running under a user-mode emulator (qemu-user)?
 * Detected when /proc/cpuinfo describes another architecture than the one
 * this program was built for (qemu-user passes the host's through).  When
 * true, @why (if not NULL) gets a phrase for messages.  Emulated timings mean
 * nothing: callers say so and never report them as measurements.
 */
bool ob_emulated(char *why, size_t len);

/* Bytes of memory available now (MemAvailable), or 0 if unknown. */
size_t ob_mem_available(void);

/*
 * ob_huge_page_bytes - bytes of [@addr, @addr + @len) backed by transparent
 * huge pages, from /proc/self/smaps (AnonHugePages of the mappings that
 * start inside the range); 0 when unknown.
 */
size_t ob_huge_page_bytes(const void *addr, size_t len);

/*
 * ob_check_memory - refuse to allocate @need bytes for @what when they are
 * not there: more than MemAvailable, or than `ulimit -v` leaves.  Returns 0,
 * or -ENOMEM with a message in @err naming both figures.  Setting
 * OPSBENCH_NO_MEMCHECK skips the check (tests use it to reach the
 * allocation failures themselves).
 */
int ob_check_memory(size_t need, const char *what, struct ob_err *err);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_SYSINFO_H */
