/* SPDX-License-Identifier: MIT */
/*
 * error.h - how opsbench reports a failure: a negative errno for the code, a
 * sentence for the person.  Functions that can fail take a struct ob_err *
 * (NULL allowed) and return the negative errno they stored in it.
 */
#ifndef OPSBENCH_ERROR_H
#define OPSBENCH_ERROR_H

#include "opsbench/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exit status of every opsbench program on bad input (a usage error). */
#define EXIT_USAGE	2

struct ob_err {
	int code;		/* negative errno, 0 when nothing failed */
	char msg[256];		/* one line, no trailing newline */
};

/*
 * ob_errorf - record an error.
 * @err:  where to record it (may be NULL)
 * @code: a negative errno
 * Returns @code, so that callers can write `return ob_errorf(err, -EINVAL, ...)`.
 */
OB_REALIGN int ob_errorf(struct ob_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * ob_check_stdout_at_exit - make a failed write to standard output (a full
 * disk, /dev/full, a closed pipe's EIO) a failure of the program: at exit,
 * stdout is flushed, and if that or any earlier write failed,
 * "@prog: cannot write the output: <reason>" goes to stderr and the exit
 * status becomes 1.  Call once, early in main().
 */
void ob_check_stdout_at_exit(const char *prog);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_ERROR_H */
