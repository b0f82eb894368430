// SPDX-License-Identifier: MIT
/*
 * outfile.c - opsbench-suite's --benchmark_out, written whole or not at all.
 *
 * Google Benchmark opens its output file when it starts (emptying what was
 * there), writes as it goes and checks none of its writes, so a stopped
 * run or a full disk would leave a cut file where a good one was.  The
 * suite hands it "<out>.<pid>.part" beside the file asked for instead, and
 * renames the part file over it only once the run succeeded and the file
 * ends like a whole document.  SIGINT, SIGTERM and SIGHUP remove the part
 * file and end the process with 130 (unless the suite started with one
 * ignored, as under nohup).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opsbench/compiler.h"
#include "opsbench/error.h"
#include "suite.h"

static const char *out;			/* the file asked for, or NULL */
static const char *format = "json";	/* --benchmark_out_format */
static char part[PATH_MAX];		/* the file Google Benchmark writes */
static char part_flag[PATH_MAX + 32];	/* --benchmark_out=<part> */
static volatile sig_atomic_t have_part;
/* The signals that stop a run: the part file goes with it. */
static const int stops[] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop(int sig)
{
	(void)sig;
	if (have_part)
		unlink(part);	/* async-signal-safe, as is _exit */
	_exit(130);
}

/* The value of the last @flag ("--benchmark_out=") in @argv, or NULL. */
static const char *last_value(int argc, char **argv, const char *flag)
{
	const char *v = NULL;
	size_t n = strlen(flag);

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], flag, n))
			v = argv[i] + n;
	return v;
}

int ob_out_begin(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	const char *fmt = last_value(argc, argv, "--benchmark_out_format=");
	struct stat st;
	int fd;

	out = last_value(argc, argv, "--benchmark_out=");
	if (fmt)
		format = fmt;
	if (!out)
		return 0;
	if (!*out) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=: expected a file name\n");
		return EXIT_USAGE;
	}
	/* What is written is read back and checked: a regular file only, never through a link. */
	if (!lstat(out, &st) && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: a symbolic link; refusing to write through it\n", out);
		return EXIT_USAGE;
	}
	if (!stat(out, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: not a regular file\n", out);
		return EXIT_USAGE;
	}
	if (snprintf(part, sizeof(part), "%s.%ld.part", out, (long)getpid()) >= (int)sizeof(part)) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%.80s...: the name is too long\n", out);
		return EXIT_USAGE;
	}
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stops); i++) {
		struct sigaction old;

		/* A signal ignored when the suite started (nohup) stays ignored. */
		if (!sigaction(stops[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(stops[i], &sa, NULL);
	}
	fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: cannot write there (%s: %s)\n", out, part,
			strerror(errno));
		return EXIT_USAGE;
	}
	have_part = 1;
	close(fd);
	snprintf(part_flag, sizeof(part_flag), "--benchmark_out=%s", part);
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--benchmark_out=", 16))
			argv[i] = part_flag;
	return 0;
}

/* Whether the part file ends like a whole JSON document (or a CSV line). */
static int part_whole(void)
{
	char tail[4096], last = 0;
	struct stat st;
	size_t got;
	FILE *f = fopen(part, "r");

	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: not written: %s\n", out,
			f ? "not a regular file" : strerror(errno));
		if (f)
			fclose(f);
		return 0;
	}
	/* The end of the file is enough to see whether it is whole. */
	if (st.st_size > (off_t)sizeof(tail))
		fseeko(f, st.st_size - (off_t)sizeof(tail), SEEK_SET);
	got = fread(tail, 1, sizeof(tail), f);
	fclose(f);
	for (size_t i = 0; i < got; i++)
		if (tail[i] != ' ' && tail[i] != '\n' && tail[i] != '\r' && tail[i] != '\t')
			last = tail[i];
	if (!strcmp(format, "json") ? last != '}' : !last) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: the file is empty or cut short (a full disk?)\n", out);
		return 0;
	}
	return 1;
}

int ob_out_finish(int status)
{
	if (!have_part)
		return status;
	if (status == 0 && !part_whole())
		status = 1;
	if (status == 0 && rename(part, out)) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: not written: %s\n", out, strerror(errno));
		status = 1;
	}
	if (status != 0)
		unlink(part);
	have_part = 0;
	return status;
}
