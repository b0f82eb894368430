// SPDX-License-Identifier: MIT
/* error.c - recording failures for the caller to print. */
#include <stdarg.h>
#include <stdio.h>

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
