/* SPDX-License-Identifier: MIT */
/*
 * gbench.h - Google Benchmark, driven from C.
 *
 * C code registers benchmarks at run time through this header; the only C++
 * in opsbench (src/shim/gbench.cc) turns each into a Google Benchmark.  The
 * method, for every benchmark:
 *
 *   1. prepare(arg), untimed: build what the benchmark needs (cached by the
 *      caller across runs);
 *   2. body(arg, n), timed: Google Benchmark picks the iteration count n of
 *      the run, and body runs its own loop of n iterations, so nothing
 *      crosses the C/C++ boundary per iteration; one call per run;
 *   3. report(arg, state, n), untimed: user counters and a label.
 *
 * Repetitions, random interleaving, minimum time, filters and output files
 * are Google Benchmark's own --benchmark_* flags.
 */
#ifndef OPSBENCH_GBENCH_H
#define OPSBENCH_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One run of one benchmark, as the report callback sees it. */
struct ob_gb_state;

/* How Google Benchmark shows a counter's value. */
enum ob_gb_kind {
	OB_GB_PLAIN,		/* as given: bytes per dentry */
	OB_GB_PER_ITER,		/* divided by the iterations: cycles per lookup */
	OB_GB_RATE,		/* divided by the run's time: lookups per second */
};

struct ob_gb_bench {
	/* Benchmark name, "group/arg:value/..." (copied). */
	const char *name;
	/*
	 * prepare - untimed, before every run.  NULL: nothing to do.
	 * Returns 0, or a negative errno with a one-line reason in @msg; the
	 * benchmark is then reported as skipped with that reason.
	 */
	int (*prepare)(void *arg, char *msg, size_t len);
	/*
	 * body - timed: @iters iterations of the measured work.  Returns a
	 * value that depends on all of it (kept from the optimiser).
	 */
	uint64_t (*body)(void *arg, uint64_t iters);
	/* report - untimed, after every run: counters and label.  NULL: none. */
	void (*report)(void *arg, struct ob_gb_state *st, uint64_t iters);
	/*
	 * elapsed_ns - the time the last body() call measured itself, in ns.
	 * NULL: Google Benchmark's own clock times body(); set: manual time
	 * (Google Benchmark's UseManualTime), for bodies that time only part
	 * of their work.
	 */
	double (*elapsed_ns)(void *arg);
	/*
	 * iterations - 0: Google Benchmark picks the count and the
	 * --benchmark_repetitions flag applies; else exactly this many
	 * iterations, once (one sample: the caller runs its own rounds).
	 */
	uint64_t iterations;
	/* Passed to the callbacks. */
	void *arg;
};

/*
 * ob_gb_init - take Google Benchmark's --benchmark_* flags out of @argv.
 * Returns 0; prints every argument left that neither the caller nor Google
 * Benchmark knows and returns 2 if there is one, and 2 with a message for
 * a value Google Benchmark would take silently or abort on: repetitions not
 * in 1..100000, a min_time that is not a positive number of seconds, a
 * format other than console, json or csv, a filter that does not compile.
 * Call after the caller has removed its own flags.
 */
int ob_gb_init(int *argc, char **argv);

/*
 * Benchmark filters exactly as Google Benchmark reads --benchmark_filter:
 * a std::regex of the extended syntax, searched in the name; a leading '-'
 * negates; empty or "all" matches every name.  One engine, so that what
 * the caller checks and counts is what Google Benchmark then runs.
 */
struct ob_gb_filter;

/*
 * The longest filter accepted, in bytes.  Benchmark names are under 200
 * bytes; std::regex compiles and matches by recursion, and a pattern of
 * 100,000 bytes overflowed the stack.
 */
#define OB_GB_FILTER_MAX	1024

/*
 * ob_gb_filter_new - compile @spec (at most OB_GB_FILTER_MAX bytes); NULL
 * and a reason in @msg when it is too long or does not compile.
 */
struct ob_gb_filter *ob_gb_filter_new(const char *spec, char *msg, size_t len);

/* ob_gb_filter_match - does @name pass @f? */
int ob_gb_filter_match(const struct ob_gb_filter *f, const char *name);

/* ob_gb_register - add a benchmark (before ob_gb_run()).  Returns 0 or -ENOMEM. */
int ob_gb_register(const struct ob_gb_bench *b);

/*
 * ob_gb_run - run the registered benchmarks that match --benchmark_filter,
 * printing "[k/N] name" progress on stderr as each finishes (N: @expected,
 * the caller's count of matching benchmarks).  Returns how many ran; sets
 * *@skipped to how many of them were skipped (their prepare step failed)
 * and writes the first one's name and reason to @why (@why_len bytes).
 */
size_t ob_gb_run(size_t expected, size_t *skipped, char *why, size_t why_len);

/* ob_gb_counter - set user counter @name of this run. */
void ob_gb_counter(struct ob_gb_state *st, const char *name, double value,
		   enum ob_gb_kind kind);

/* ob_gb_context - add @key: @value to the output's "context" (before ob_gb_run()). */
void ob_gb_context(const char *key, const char *value);

/* ob_gb_label - set the run's label (shown beside its name). */
void ob_gb_label(struct ob_gb_state *st, const char *label);

/* ob_gb_items - items processed in this run (Google Benchmark's items_per_second). */
void ob_gb_items(struct ob_gb_state *st, uint64_t items);

#ifdef __cplusplus
}
#endif

#endif /* OPSBENCH_GBENCH_H */
