// SPDX-License-Identifier: MIT
/*
 * kernel.c - the running kernel's own path walk, the anchor the model's
 * component is compared with (docs/method.md#the-running-kernel):
 *
 *   kernel/fstatat/set:hot/depth:D    fstatat() of a D-component path in
 *                                     one tree: its dentries and inodes stay
 *                                     in the caches
 *   kernel/fstatat/set:cold/depth:D   the same over K / D trees walked in
 *                                     turn: K directories at every depth,
 *                                     K sized to take them out of L1 and L2
 *
 * A stat() walks one component per '/': time against depth is a line whose
 * slope is the kernel's cost per component and whose intercept is the
 * system call's fixed cost (scripts/lib/kernelwalk.py fits it).  The trees
 * are made under a directory of their own (tmpfs when /dev/shm is one) and
 * removed at exit and on every fatal signal that can be caught (SIGKILL
 * cannot: what it leaves is named opsbench-walk.* there).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "opsbench/compiler.h"
#include "suite.h"

#define MAX_DEPTH	32
#define TMPFS_MAGIC_	0x01021994
#define NAME_LEN	12		/* "t1023" and the NUL, padded */

static const unsigned int depths[] = { 1, 2, 4, 8, 16, 24, MAX_DEPTH };

/* The trees, made once for every benchmark of the group. */
static struct {
	char base[PATH_MAX];	/* the directory they live in ("" until made) */
	int fd;			/* open on @base */
	unsigned int k;		/* the cold set's directories at each depth, and its trees */
	char **paths;		/* [tree * MAX_DEPTH + depth - 1]: relative to @base, or NULL */
	char fs[96];		/* "tmpfs in /dev/shm": the label the report names it by */
	int err;		/* setup failed: -errno, and why in @why */
	char why[PATH_MAX + 128];
} walk = { .fd = -1 };

struct kernel_arg {
	unsigned int depth;
	bool cold;
	unsigned int next;	/* the cold set's next tree */
	uint64_t failed;	/* calls that failed (a tree removed from under us) */
};

/* Remove what exists of the trees, deepest first; async-signal-safe. */
static void remove_trees(void)
{
	if (!walk.base[0] || !walk.paths)
		return;
	for (unsigned int t = 0; t < walk.k; t++)
		for (unsigned int d = MAX_DEPTH; d > 0; d--)
			if (walk.paths[t * MAX_DEPTH + d - 1])
				unlinkat(walk.fd, walk.paths[t * MAX_DEPTH + d - 1], AT_REMOVEDIR);
	rmdir(walk.base);
	walk.base[0] = '\0';
}

/* The signals whose default action ends the process, and that can be caught. */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
};

static void remove_on_signal(int sig)
{
	remove_trees();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The directory the trees go in: $OPSBENCH_WALK_DIR alone when it is set,
 * else /dev/shm (a tmpfs on most systems), else $TMPDIR or /tmp.
 */
static int make_base(void)
{
	const char *tmp = getenv("TMPDIR"), *only = getenv("OPSBENCH_WALK_DIR");
	const char *dirs[] = { "/dev/shm", tmp && *tmp ? tmp : "/tmp" };
	size_t n = 2;
	struct statfs fs;
	int err;

	if (only && *only) {
		dirs[0] = dirs[1] = only;
		n = 1;
	}
	err = -ENAMETOOLONG;
	for (size_t i = 0; i < n; i++) {
		if (strlen(dirs[i]) > sizeof(walk.base) - 24)
			continue;
		snprintf(walk.base, sizeof(walk.base), "%s/opsbench-walk.XXXXXX", dirs[i]);
		if (!mkdtemp(walk.base)) {
			err = -errno;
			continue;
		}
		snprintf(walk.fs, sizeof(walk.fs), "%s in %.64s",
			 !statfs(walk.base, &fs) && fs.f_type == TMPFS_MAGIC_ ? "tmpfs" : "not tmpfs", dirs[i]);
		walk.fd = open(walk.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (walk.fd >= 0)
			return 0;
		err = -errno;
		rmdir(walk.base);
	}
	walk.base[0] = '\0';
	snprintf(walk.why, sizeof(walk.why), "no directory for its trees in %s%s (%s)",
		 n == 2 ? "/dev/shm or " : "", dirs[1], strerror(-err));
	return err;
}

/*
 * Tree @t is as deep as the cold set asks of it: a path of depth D cycles
 * over trees 0 .. K/D - 1, so tree t goes K/(t+1) levels down (at most
 * MAX_DEPTH), and every depth walks K directories in all.
 */
static unsigned int tree_depth(unsigned int t)
{
	unsigned int d = walk.k / (t + 1);

	return d > MAX_DEPTH ? MAX_DEPTH : d;
}

/* Tree @t's chain of directories: "t<t>", "t<t>/a", "t<t>/a/a", ... */
static int make_tree(unsigned int t)
{
	size_t len = NAME_LEN + 2 * MAX_DEPTH;

	for (unsigned int d = 1; d <= tree_depth(t); d++) {
		char *p = malloc(len);

		if (!p)
			return -ENOMEM;
		if (d == 1)
			snprintf(p, len, "t%u", t);
		else
			snprintf(p, len, "%s/a", walk.paths[t * MAX_DEPTH + d - 2]);
		/* Recorded first: a signal between mkdirat() and here must still remove it. */
		walk.paths[t * MAX_DEPTH + d - 1] = p;
		if (mkdirat(walk.fd, p, 0700)) {
			int err = -errno;

			snprintf(walk.why, sizeof(walk.why), "cannot make %s/%s: %s", walk.base, p, strerror(errno));
			return err;
		}
	}
	return 0;
}

/*
 * K, the cold set's directories at each depth: four times L2 in kernel
 * objects, taking a dentry and its inode as about 1 KiB together (192 and
 * 600-odd bytes on tmpfs).  The forest holds about K ln(K / MAX_DEPTH) more.
 */
static unsigned int cold_directories(const struct suite_cfg *cfg)
{
	size_t k = 4 * cfg->caches.l2 / 1024;

	return k < 1024 ? 1024 : k > 16384 ? 16384 : (unsigned int)k;
}

static int set_up(const struct suite_cfg *cfg)
{
	if (walk.base[0] || walk.err)
		return walk.err;
	walk.k = cold_directories(cfg);
	walk.paths = calloc((size_t)walk.k * MAX_DEPTH, sizeof(*walk.paths));
	if (!walk.paths)
		return walk.err = -ENOMEM;
	if ((walk.err = make_base()))
		return walk.err;
	atexit(remove_trees);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		signal(fatal_signals[i], remove_on_signal);
	for (unsigned int t = 0; t < walk.k; t++)
		if ((walk.err = make_tree(t))) {
			remove_trees();
			return walk.err;
		}
	return 0;
}

static const struct suite_cfg *group_cfg;

static int kernel_prepare(void *arg, char *msg, size_t len)
{
	(void)arg;
	if (set_up(group_cfg)) {
		snprintf(msg, len, "%s", walk.why[0] ? walk.why : strerror(-walk.err));
		return walk.err;
	}
	return 0;
}

static uint64_t kernel_body(void *arg, uint64_t iters)
{
	struct kernel_arg *a = arg;
	unsigned int trees = a->cold ? walk.k / a->depth : 1, t = a->next;
	uint64_t sum = 0;
	struct stat st;

	for (uint64_t i = 0; i < iters; i++) {
		if (fstatat(walk.fd, walk.paths[t * MAX_DEPTH + a->depth - 1], &st, 0))
			a->failed++;	/* reported: the analysis refuses such samples */
		else
			sum += st.st_ino;
		t = t + 1 == trees ? 0 : t + 1;
	}
	a->next = t;
	return sum;
}

static void kernel_report(void *arg, struct ob_gb_state *st, uint64_t iters)
{
	struct kernel_arg *a = arg;
	unsigned int trees = a->cold ? walk.k / a->depth : 1;

	(void)iters;
	ob_gb_counter(st, "depth", a->depth, OB_GB_PLAIN);
	ob_gb_counter(st, "trees", trees, OB_GB_PLAIN);
	ob_gb_counter(st, "directories_walked", (double)trees * a->depth, OB_GB_PLAIN);
	ob_gb_counter(st, "failed_calls", (double)a->failed, OB_GB_PLAIN);
	/* make bench runs the group in several processes (--pass K/N): which one this is */
	ob_gb_counter(st, "pass", group_cfg->pass, OB_GB_PLAIN);
	ob_gb_label(st, walk.fs);
}

void kernel_list(const struct suite_cfg *cfg, struct bench_list *l)
{
	char name[96];

	group_cfg = cfg;
	for (int cold = 0; cold < 2; cold++)
		for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
			struct kernel_arg *a = xcalloc(1, sizeof(*a));

			a->depth = depths[i];
			a->cold = cold;
			snprintf(name, sizeof(name), "kernel/fstatat/set:%s/depth:%u", cold ? "cold" : "hot",
				 depths[i]);
			bench_add(l, name, kernel_prepare, kernel_body, kernel_report, a);
		}
}
