// SPDX-License-Identifier: MIT
/* sysinfo.c - cache sizes from sysfs, available memory from /proc/meminfo. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

void ob_read_caches(struct ob_caches *c, const char *sysfs_root)
{
	char path[512], buf[64];
	int top = 0;

	*c = (struct ob_caches) {
		.l1d = OB_FALLBACK_L1D, .l2 = OB_FALLBACK_L2, .llc = OB_FALLBACK_LLC, .line = 64,
	};
	for (int i = 0; i < 16; i++) {
		char type[32];
		int level;
		size_t size;

		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/level",
			 sysfs_root, i);
		if (!read_line(path, buf, sizeof(buf)))
			continue;
		level = atoi(buf);
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/type",
			 sysfs_root, i);
		if (!read_line(path, type, sizeof(type)) || !strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%d/size",
			 sysfs_root, i);
		if (!read_line(path, buf, sizeof(buf)) || !(size = parse_size(buf)))
			continue;
		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size",
			 sysfs_root, i);
		if (read_line(path, buf, sizeof(buf)) && atoi(buf) > 0)
			c->line = (size_t)atoi(buf);
		c->from_sysfs = true;
		if (level == 1)
			c->l1d = size;
		else if (level == 2)
			c->l2 = size;
		if (level >= top) {
			top = level;
			c->llc = size;
		}
	}
	if (c->from_sysfs && top < 2)
		c->llc = c->l2;		/* no L2 either: keep the fallback's shape */
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
