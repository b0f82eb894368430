// SPDX-License-Identifier: MIT
/* error.c - recording failures for the caller to print. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opsbench/error.h"

int ob_errorf(struct ob_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

static const char *stdout_prog = "opsbench";

static void check_stdout(void)
{
	int failed = ferror(stdout);
	int saved;

	/* Flushed, not closed: C++ streams may still flush it after this. */
	errno = 0;
	if (fflush(stdout) != 0)
		failed = 1;
	saved = errno;
	if (failed) {
		fprintf(stderr, "%s: cannot write the output: %s\n", stdout_prog,
			saved ? strerror(saved) : "write error");
		_exit(1);
	}
}

void ob_check_stdout_at_exit(const char *prog)
{
	stdout_prog = prog;
	atexit(check_stdout);
}
