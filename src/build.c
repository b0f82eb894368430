// SPDX-License-Identifier: MIT
/*
 * build.c - the build's identity (opsbench/build.h).  The Makefile writes
 * the commit into <build>/gen/commit.h, rewriting it only when it changes,
 * so that only this file is recompiled when the tree moves.
 */
#include "opsbench/build.h"

#if defined(__has_include)
#if __has_include("commit.h")
#include "commit.h"
#endif
#endif
#ifndef OB_COMMIT
#define OB_COMMIT "unknown"
#endif
#ifndef OB_VARIANT
#define OB_VARIANT "plain"
#endif

const char ob_build_commit[] = OB_COMMIT;
const char ob_build_variant[] = OB_VARIANT;
