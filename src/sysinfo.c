// SPDX-License-Identifier: MIT
/* sysinfo.c - cache sizes from sysfs (or CPUID), available memory from /proc/meminfo. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "opsbench/sysinfo.h"

/* Read a one-line sysfs file into @buf; false if it is not there. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* "48K", "1024K", "32M" -> bytes. */
static size_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

/* Record one data or unified cache of @level: @size bytes, @ways ways. */
static void note_cache(struct ob_caches *c, int level, size_t size, unsigned int ways, int *top)
{
	if (level == 1) {
		c->l1d = size;
		c->l1d_ways = ways;
	} else if (level == 2) {
		c->l2 = size;
		c->l2_ways = ways;
	}
	if (level >= *top) {
		*top = level;
		c->llc = size;
		c->llc_ways = ways;
	}
}

#if defined(__x86_64__)
/*
 * The deterministic cache leaf @leaf (4 or 0x8000001D): each subleaf one
 * cache, until a null type.  True if it listed an L1D.
 */
static bool cpuid_leaf_caches(struct ob_caches *c, unsigned int leaf, int *top)
{
	bool l1d = false;

	for (unsigned int i = 0; i < 16; i++) {
		unsigned int a, b, cx, d;

		__cpuid_count(leaf, i, a, b, cx, d);
		unsigned int type = a & 31, level = (a >> 5) & 7;
		unsigned int line = (b & 0xfff) + 1, parts = ((b >> 12) & 0x3ff) + 1;
		unsigned int ways = (b >> 22) + 1;
		size_t size = (size_t)line * parts * ways * ((size_t)cx + 1);

		if (!type)
			break;
		if (type == 2) {			/* instruction */
			if (level == 1) {
				c->l1i = size;
				c->l1i_ways = ways;
			}
			continue;
		}
		if (type != 1 && type != 3)
			continue;
		if (level == 1)
			l1d = true, c->line = line;
		note_cache(c, (int)level, size, a & (1u << 9) ? 0 : ways, top);
	}
	return l1d;
}

/* AMD's associativity code (0x80000006) in ways; 0: none, not known, or fully associative. */
static unsigned int amd_ways(unsigned int code)
{
	static const unsigned int ways[16] = {
		[1] = 1, [2] = 2, [3] = 3, [4] = 4, [5] = 6, [6] = 8, [8] = 16,
		[0xa] = 32, [0xb] = 48, [0xc] = 64, [0xd] = 96, [0xe] = 128,
	};

	return ways[code & 15];
}

/*
 * The caches by CPUID: 0 if it says nothing of the L1D, 1 if it told all,
 * 2 if the LLC is an L3 it does not describe (left at the fallback).
 */
static int cpuid_caches(struct ob_caches *c)
{
	unsigned int a, b, cx, d, max, max_ext;
	char vendor[13] = { 0 };
	int top = 0;

	if (!__get_cpuid(0, &max, &b, &cx, &d))
		return 0;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &cx, 4);
	max_ext = __get_cpuid_max(0x80000000, NULL);
	bool amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");

	if (!amd)
		return max >= 4 && cpuid_leaf_caches(c, 4, &top);
	if (max_ext >= 0x8000001d && __get_cpuid(0x80000001, &a, &b, &cx, &d) && (cx & (1u << 22)) &&
	    cpuid_leaf_caches(c, 0x8000001d, &top))
		return 1;
	if (max_ext < 0x80000006)
		return 0;
	__cpuid(0x80000005, a, b, cx, d);
	if (!(cx >> 24))
		return 0;
	c->line = cx & 0xff;
	note_cache(c, 1, (size_t)(cx >> 24) << 10, (cx >> 16 & 0xff) == 0xff ? 0 : (cx >> 16) & 0xff, &top);
	c->l1i = (size_t)(d >> 24) << 10;
	c->l1i_ways = (d >> 16 & 0xff) == 0xff ? 0 : (d >> 16) & 0xff;
	__cpuid(0x80000006, a, b, cx, d);
	if (cx >> 16)
		note_cache(c, 2, (size_t)(cx >> 16) << 10, amd_ways(cx >> 12), &top);
	if (!(d >> 18) || !((d >> 12) & 15))
		return 1;				/* no L3 */
	if (((d >> 12) & 15) == 9) {
		/* "See 0x8000001D", which this CPU does not offer: an L3 of unknown size. */
		c->llc = OB_FALLBACK_LLC;
		c->llc_ways = 0;
		return 2;
	}
	note_cache(c, 3, (size_t)(d >> 18) << 19, amd_ways(d >> 12), &top);
	return 1;
}
#endif

void ob_read_caches(struct ob_caches *c, const char *sysfs_root)
{
	char path[512], buf[64];
	int top = 0;

	*c = (struct ob_caches) {
		.l1d = OB_FALLBACK_L1D, .l2 = OB_FALLBACK_L2, .llc = OB_FALLBACK_LLC, .line = 64,
		.source = "fallbacks",
	};
	for (int i = 0; i < 16; i++) {
		char type[32];
		int level;
		size_t size;
		unsigned int ways = 0;

		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/level",
			 sysfs_root, i);
		if (!read_line(path, buf, sizeof(buf)))
			continue;
		level = atoi(buf);
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/type",
			 sysfs_root, i);
		if (!read_line(path, type, sizeof(type)))
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/size",
			 sysfs_root, i);
		if (!read_line(path, buf, sizeof(buf)) || !(size = parse_size(buf)))
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity",
			 sysfs_root, i);
		if (read_line(path, buf, sizeof(buf)) && atoi(buf) > 0)
			ways = (unsigned int)atoi(buf);
		if (!strcmp(type, "Instruction")) {
			if (level == 1)
				c->l1i = size, c->l1i_ways = ways;
			continue;
		}
		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size",
			 sysfs_root, i);
		if (read_line(path, buf, sizeof(buf)) && atoi(buf) > 0)
			c->line = (size_t)atoi(buf);
		c->from_sysfs = true;
		c->source = "sysfs";
		note_cache(c, level, size, ways, &top);
	}
	if (c->from_sysfs && top < 2)
		c->llc = c->l2, c->llc_ways = c->l2_ways;	/* no L2 either: keep the fallback's shape */
#if defined(__x86_64__)
	if (!c->from_sysfs && !*sysfs_root) {
		int got = cpuid_caches(c);

		if (got)
			c->source = got == 1 ? "cpuid" : "cpuid and fallbacks";
	}
#endif
}

/* The "Key: N kB" line of a /proc file that @format matches, in bytes; 0 if none. */
static size_t proc_kib(const char *path, const char *format)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned long long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, format, &kib) == 1)
			break;
	fclose(f);
	return (size_t)kib << 10;
}

bool ob_emulated(char *why, size_t len)
{
#if defined(__aarch64__)
	static const char *const foreign[] = { "vendor_id", "GenuineIntel", "AuthenticAMD" };
	const char *self = "aarch64";
#elif defined(__x86_64__)
	static const char *const foreign[] = { "CPU implementer", "CPU architecture: 8" };
	const char *self = "x86-64";
#else
	static const char *const foreign[] = { NULL };
	const char *self = "this architecture";
#endif
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	bool hit = false;

	if (!f)
		return false;
	while (!hit && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]) && foreign[i]; i++)
			if (!strncmp(line, foreign[i], strlen(foreign[i])) || strstr(line, foreign[i]))
				hit = true;
	fclose(f);
	if (hit && why)
		snprintf(why, len, "an %s program on a CPU that /proc/cpuinfo says is another "
			 "architecture: running under emulation (qemu-user?)", self);
	return hit;
}

size_t ob_mem_available(void)
{
	return proc_kib("/proc/meminfo", "MemAvailable: %llu kB");
}

/* Bytes of address space in use now (VmSize), or 0 if unknown. */
static size_t vm_size(void)
{
	return proc_kib("/proc/self/status", "VmSize: %llu kB");
}

int ob_check_memory(size_t need, const char *what, struct ob_err *err)
{
	size_t avail = ob_mem_available();
	struct rlimit rl;

	if (getenv("OPSBENCH_NO_MEMCHECK"))
		return 0;
	if (avail && need > avail)
		return ob_errorf(err, -ENOMEM,
				 "%s needs about %zu MiB, but only %zu MiB of memory are available",
				 what, need >> 20, avail >> 20);
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		size_t used = vm_size(), left = rl.rlim_cur > used ? rl.rlim_cur - used : 0;

		if (need > left)
			return ob_errorf(err, -ENOMEM,
					 "%s needs about %zu MiB, but the address-space limit (ulimit -v) leaves %zu MiB",
					 what, need >> 20, left >> 20);
	}
	return 0;
}

size_t ob_huge_page_bytes(const void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool inside = false;
	size_t total = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, kb;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = start >= lo && start < hi;
		else if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			total += (size_t)kb << 10;
	}
	fclose(f);
	return total;
}
