/* SPDX-License-Identifier: MIT */
/*
 * build.h - which build this binary is: the commit of the tree it was built
 * from (git describe --always --dirty, "-dirty" when the tree had changes;
 * "unknown" outside git) and its code-generation variant.  Every output
 * records them, so that a results folder can tell when its files come from
 * different builds.
 */
#ifndef OPSBENCH_BUILD_H
#define OPSBENCH_BUILD_H

#ifdef __cplusplus
extern "C" {
#endif

/* "625b287c1a2b" or "625b287c1a2b-dirty", or "unknown". */
extern const char ob_build_commit[];

/* "plain", "retpoline", ... (VARIANT= of the build). */
extern const char ob_build_variant[];

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_BUILD_H */
