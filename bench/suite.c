// SPDX-License-Identifier: MIT
/*
 * opsbench-suite - the benchmark suite: calibration, pure dispatch, and the
 * lookup scenarios, through Google Benchmark.
 *
 * One process runs one group (--group), every benchmark of it interleaved
 * with the others over the repetitions, so that strategies are compared
 * only within one process.  scripts/bench.sh (`make bench`) runs each group
 * of a profile in turn and merges their JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <sys/personality.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/build.h"
#include "opsbench/compiler.h"
#include "opsbench/error.h"
#include "opsbench/stack.h"
#include "suite.h"

/*
 * The profiles: the one place that says what each runs.  Calibration and
 * dispatch groups: Google Benchmark's repetitions (randomly interleaved) of
 * min_time seconds each; later --benchmark_* flags win.  Lookup groups: the
 * scenario matrix and the named scenarios, and their own rounds of paired
 * samples, each sample about sample_ms long, split into blocks (passes)
 * that make bench runs until each ratio is pinned.  The method:
 * docs/method.md#rounds and #blocks.
 */

/* The component context (docs/model.md#context), in every profile but smoke. */
#define COMPONENT_SCENARIOS	LIST(const char *const, "L1-0pct-component-6.12", \
				     "L1-10pct-component-6.12", "L1-0pct-component-6.1")
/*
 * What a build other than plain runs: dispatch; the L1 and L2 lookup
 * groups without custom ops; the L1 group with 10% custom ops, uniform and
 * unpolluted (where static_call and the indirect calls differ), in either
 * context.
 */
#define VARIANT_GROUPS	"^(dispatch$|lookup/size:(L1|L2)/[^/]*/custom:0/|" \
			"lookup/size:L1/[^/]*/custom:10/order:uniform/pollute:0/)"

const struct profile_info profiles[PROFILE_COUNT] = {
	[PROFILE_QUICK] = {
		.name = "quick",
		.summary = "L1 and L2, uniform order, bare and component context: minutes (the default)",
		.sizes = LIST(enum ob_size_class, OB_SIZE_L1, OB_SIZE_L2),
		.custom_pct = LIST(unsigned int, 0, 10),
		.orders = LIST(enum lookup_order, ORDER_UNIFORM),
		.depths = LIST(unsigned int, 1),
		.cold = LIST(bool, false, true),
		.named = COMPONENT_SCENARIOS,
		.variant_groups = VARIANT_GROUPS,
		.rounds = 96, .cold_rounds = 96, .sample_ms = 3.0, .sub_sample_us = 100,
		.passes = 32, .min_passes = 6, .target_pct = 1.0, .budget_s = 200,
		.repetitions = 8, .min_time = "0.01",
	},
	[PROFILE_STANDARD] = {
		.name = "standard",
		.summary = "quick with sorted order too, no time limit: about half an hour",
		.sizes = LIST(enum ob_size_class, OB_SIZE_L1, OB_SIZE_L2),
		.custom_pct = LIST(unsigned int, 0, 10),
		.orders = LIST(enum lookup_order, ORDER_SORTED, ORDER_UNIFORM),
		.depths = LIST(unsigned int, 1),
		.cold = LIST(bool, false, true),
		.named = COMPONENT_SCENARIOS,
		.variant_groups = VARIANT_GROUPS,
		.rounds = 160, .cold_rounds = 160, .sample_ms = 3.0, .sub_sample_us = 100,
		.passes = 32, .min_passes = 10, .target_pct = 1.0, .budget_s = 0,
		.repetitions = 20, .min_time = "0.02",
	},
	[PROFILE_FULL] = {
		.name = "full", .summary = "every size, share, order and depth, every build: hours",
		.sizes = LIST(enum ob_size_class, OB_SIZE_L1, OB_SIZE_L2, OB_SIZE_LLC, OB_SIZE_DRAM),
		.custom_pct = LIST(unsigned int, 0, 1, 10, 50, 100),
		.orders = LIST(enum lookup_order, ORDER_SORTED, ORDER_UNIFORM, ORDER_ZIPF),
		.depths = LIST(unsigned int, 1, 4),
		.cold = LIST(bool, false, true),
		.named = COMPONENT_SCENARIOS,
		.variant_groups = "^(dispatch$|lookup/)",	/* every group but calib and regulator */
		.rounds = 160, .cold_rounds = 160, .sample_ms = 3.0, .sub_sample_us = 100,
		.passes = 32, .min_passes = 10, .target_pct = 1.0, .budget_s = 0,
		.repetitions = 20, .min_time = "0.02",
	},
	[PROFILE_SMOKE] = {
		.name = "smoke", .summary = "tiny sizes, for the tests",
		.sizes = LIST(enum ob_size_class, OB_SIZE_TINY),
		.custom_pct = LIST(unsigned int, 0, 10),
		.orders = LIST(enum lookup_order, ORDER_UNIFORM),
		.depths = LIST(unsigned int, 1),
		.cold = LIST(bool, false),
		.variant_groups = "^(dispatch$|lookup/)",
		.rounds = 3, .cold_rounds = 3, .sample_ms = 0.05, .sub_sample_us = 20,
		.passes = 1, .min_passes = 1, .target_pct = 1.0, .budget_s = 0,
		.repetitions = 2, .min_time = "0.001",
	},
};

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("opsbench-suite");
		exit(1);
	}
	return p;
}

void bench_add(struct bench_list *l, const char *name,
	       int (*prepare)(void *, char *, size_t),
	       uint64_t (*body)(void *, uint64_t),
	       void (*report)(void *, struct ob_gb_state *, uint64_t), void *arg)
{
	const struct ob_gb_bench b = {
		.name = name, .prepare = prepare, .body = body, .report = report, .arg = arg,
	};

	bench_push(l, &b);
}

void bench_push(struct bench_list *l, const struct ob_gb_bench *b)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct ob_gb_bench *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			perror("opsbench-suite");
			exit(1);
		}
		l->v = v;
		l->cap = cap;
	}
	char *name = NULL;

	if (strcmp(OB_VARIANT, "plain")) {
		if (asprintf(&name, "%s/variant:%s", b->name, OB_VARIANT) < 0)
			name = NULL;
	} else {
		name = strdup(b->name);
	}
	l->v[l->n] = *b;
	l->v[l->n].name = name;
	if (!l->v[l->n].name) {
		perror("opsbench-suite");
		exit(1);
	}
	l->n++;
}

/* ---- groups ---- */

struct group {
	const char *name;
	struct scenario *sc;	/* lookup groups only */
	struct bench_list list;	/* its benchmarks, once listed (group_list()) */
};

/*
 * Every group of the profile and the benchmarks listed for them: owned here
 * until the process exits, since Google Benchmark keeps pointers into the
 * lists it registered, and a benchmark's argument lives as long as its entry.
 */
static struct {
	struct group *v;
	size_t n;
} groups;

/*
 * The --filter, a --benchmark_filter given to Google Benchmark (matched
 * here first, within the same time limit), and the command line handed to
 * Google Benchmark: until exit too.
 */
static struct ob_gb_filter *filter, *gb_filter;
static char **gb_argv;

/* Does @name match the POSIX extended regular expression @re (a valid one)? */
static bool name_matches(const char *re, const char *name)
{
	regex_t r;
	bool match;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "opsbench-suite: bad expression in the profile table: %s\n", re);
		exit(1);
	}
	match = !regexec(&r, name, 0, NULL, 0);
	regfree(&r);
	return match;
}

/* Every group of @cfg's profile (with --variant-build, those that other builds run), in order. */
static void all_groups(const struct suite_cfg *cfg)
{
	struct scenario *sc;
	size_t n_sc = lookup_scenarios(cfg, &sc), n = 0;
	struct group *g = xcalloc(n_sc + 4, sizeof(*g));
	const char *re = profiles[cfg->profile].variant_groups;

	g[n++].name = "calib";
	g[n++].name = "dispatch";
	g[n++].name = "regulator";
	if (cfg->profile != PROFILE_SMOKE)
		g[n++].name = "kernel";
	for (size_t i = 0; i < n_sc; i++) {
		g[n].name = sc[i].group;
		g[n++].sc = &sc[i];
	}
	groups.v = g;
	groups.n = 0;
	for (size_t i = 0; i < n; i++)
		if (!cfg->variant_build || name_matches(re, g[i].name))
			g[groups.n++] = g[i];
}

/* The benchmarks of @g (to run them: @run, their state too); once a group. */
static const struct bench_list *group_list(const struct suite_cfg *cfg, struct group *g, bool run)
{
	struct bench_list *l = &g->list;

	if (g->sc && run)
		lookup_schedule(cfg, g->sc, l);
	else if (g->sc)
		lookup_list(cfg, g->sc, l);
	else if (!strcmp(g->name, "calib"))
		calib_list(cfg, l);
	else if (!strcmp(g->name, "regulator"))
		regulator_list(cfg, l);
	else if (!strcmp(g->name, "kernel"))
		kernel_list(cfg, l);
	else
		dispatch_list(cfg, l);
	return l;
}

/* ---- the filter: Google Benchmark's own engine (include/opsbench/gbench.h) ---- */

static struct ob_gb_filter *filter_init(const char *spec)
{
	char msg[256];
	struct ob_gb_filter *f = ob_gb_filter_new(spec, msg, sizeof(msg));

	if (!f) {
		fprintf(stderr, "opsbench-suite: --filter '%.80s%s': %s\n", spec,
			strlen(spec) > 80 ? "..." : "", msg);
		exit(EXIT_USAGE);
	}
	return f;
}

/*
 * Matching is bounded in time: the first match starts a clock (SIGALRM)
 * that filter_done() stops.  A pattern nested_repeat() lets through can
 * still backtrack for minutes ('.*.*.*.*.*.*X'); it ends here in one line.
 */
#define FILTER_SECONDS	10

static void filter_too_slow(int sig)
{
	static const char msg[] = "opsbench-suite: a filter is still matching names after "
		OB_STR(FILTER_SECONDS) " s: std::regex backtracks on this pattern; write a simpler one\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);	/* nothing else to do if it fails */
	_exit(EXIT_USAGE);
}

static bool filter_match(const struct ob_gb_filter *f, const char *name)
{
	static bool clock_started;

	if (!clock_started) {
		signal(SIGALRM, filter_too_slow);
		alarm(FILTER_SECONDS);
		clock_started = true;
	}
	return ob_gb_filter_match(f, name);
}

/* Every name is matched: stop the clock. */
static void filter_done(void)
{
	alarm(0);
	signal(SIGALRM, SIG_DFL);
}

/* ---- placement ---- */

/*
 * Run without address-space randomisation (as `setarch -R` does): the
 * code, stack and heap then sit at the same addresses in every process, so
 * that branch-predictor and cache aliasing, which depend on them, do not
 * change from one run to the next.  Re-executes itself once; where the
 * kernel refuses, it goes on randomised and says so in the context.
 */
static void no_aslr(char **argv)
{
	int pers = personality(0xffffffff);

	if (pers == -1 || (pers & ADDR_NO_RANDOMIZE)) {
		ob_gb_context("aslr", pers == -1 ? "unknown" : "off");
		return;
	}
	if (getenv("OPSBENCH_ASLR_TRIED") || personality(pers | ADDR_NO_RANDOMIZE) == -1) {
		ob_gb_context("aslr", "on (the kernel refused to turn it off)");
		return;
	}
	setenv("OPSBENCH_ASLR_TRIED", "1", 1);
	execv("/proc/self/exe", argv);
	ob_gb_context("aslr", "on (re-executing failed)");
}

/* ---- pinning ---- */

/*
 * Pin the process to one CPU (@cpu, or the highest it may run on for -1;
 * -2: leave it) so that its samples are not split between cores with
 * different cache contents and clocks.  Said in the output's context.
 */
static void pin_cpu(int cpu)
{
	cpu_set_t set;
	char text[32] = "no";

	if (cpu == -2) {
		ob_gb_context("pinned_cpu", "none (--no-pin)");
		return;
	}
	if (cpu == -1 && !sched_getaffinity(0, sizeof(set), &set))
		for (int c = CPU_SETSIZE - 1; c >= 0; c--)
			if (CPU_ISSET(c, &set)) {
				cpu = c;
				break;
			}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "opsbench-suite: cannot pin to CPU %d (%s); running unpinned\n",
				cpu, strerror(errno));
			cpu = -1;
		}
	}
	if (cpu >= 0)
		snprintf(text, sizeof(text), "%d", cpu);
	ob_gb_context("pinned_cpu", text);
}

/* 0 if this process may run on CPU @cpu; else -1, after saying which it may use. */
static int check_cpu(int cpu)
{
	cpu_set_t set;
	char allowed[256] = "";
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_ISSET(cpu, &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < sizeof(allowed) - 16; c++)
		if (CPU_ISSET(c, &set))
			n += (size_t)snprintf(allowed + n, sizeof(allowed) - n, "%s%d", n ? "," : "", c);
	fprintf(stderr, "opsbench-suite: --cpu %d: not a CPU this process may run on (allowed: %s)\n",
		cpu, allowed);
	return -1;
}

/* ---- the command line ---- */

static const struct flag {
	struct option opt;
	const char *arg;
	const char *help;
} flags[] = {
	{ { "profile",	     required_argument, NULL, 'p' }, "NAME",  "what to run: a profile of --list-profiles (default: the first)" },
	{ { "group",	     required_argument, NULL, 'g' }, "NAME",  "run this group (see --list-groups); 'all' runs every group" },
	{ { "filter",	     required_argument, NULL, 'f' }, "REGEX", "only benchmarks whose name matches (a leading '-' negates)" },
	{ { "list-groups",   no_argument,	NULL, 'G' }, NULL,    "print the groups with a matching benchmark, one a line" },
	{ { "list",	     no_argument,	NULL, 'l' }, NULL,    "print the matching benchmarks of the selected groups" },
	{ { "list-profiles", no_argument,	NULL, 'L' }, NULL,    "print what each profile runs, as a table, and exit" },
	{ { "print-schedule", no_argument,	NULL, 'S' }, NULL,    "print make bench's schedule of the profile, 'BLOCKS MIN_BLOCKS TARGET_PCT BUDGET_S', and exit" },
	{ { "variant-build", no_argument,	NULL, 'V' }, NULL,    "only the profile's groups that make bench runs in builds other than plain" },
	{ { "scenario",	     required_argument, NULL, 's' }, "NAME",  "the lookup groups are this named scenario alone (see opsbench-run --list)" },
	{ { "rounds",	     required_argument, NULL, 'r' }, "N",     "lookup groups: rounds of samples, 2..100000 (default: the profile's)" },
	{ { "sample-ms",     required_argument, NULL, 'm' }, "MS",    "lookup groups: milliseconds one sample aims at, 0.001..1000 (default: the profile's)" },
	{ { "sub-sample-us", required_argument, NULL, 'u' }, "US",    "lookup groups: microseconds the shortest warm sub-sample aims at, 1..100000 (default: the profile's)" },
	{ { "pass",	     required_argument, NULL, 'k' }, "K/N",   "lookup groups: run block K of N, the K-th of N equal shares of the rounds, 1 <= K <= N <= 64 (default 1/1)" },
	{ { "stack-offset",  required_argument, NULL, 'o' }, "BYTES", "lookup groups: start the measured code's stack BYTES lower, a multiple of 16, 0..65536 (make bench's layouts; default 0)" },
	{ { "cpu",	     required_argument, NULL, 'c' }, "N",     "pin the process to CPU N (default: the highest CPU it may use)" },
	{ { "no-pin",	     no_argument,	NULL, 'P' }, NULL,    "do not pin the process to one CPU" },
	{ { "help",	     no_argument,	NULL, 'h' }, NULL,    "this help" },
};

/*
 * The value of --@flag: a number in [@lo, @hi], whole when @whole names what
 * it is ("a whole number"), any when @whole is NULL.  Prints one line naming
 * the flag and the range, and returns -1, when it is not.
 */
static int parse_number(const char *flag, const char *s, double lo, double hi, const char *whole,
			double *out)
{
	char *end;
	double v;

	errno = 0;
	v = whole ? (double)strtol(s, &end, 10) : strtod(s, &end);
	/* Decimal only: strtod would also take hex ("0x5"), as strtol(..., 10) does not. */
	if (errno || end == s || *end || strpbrk(s, "xX") || !(v >= lo && v <= hi)) {
		if (whole)
			fprintf(stderr, "opsbench-suite: --%s '%s': expected %s, %.0f..%.0f\n",
				flag, s, whole, lo, hi);
		else
			fprintf(stderr, "opsbench-suite: --%s '%s': expected a number in [%g, %g]\n",
				flag, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* --pass K/N: 1 <= K <= N <= 64.  Prints one line and returns -1 when it is not. */
static int parse_pass(const char *s, unsigned int *k, unsigned int *n)
{
	unsigned int a, b;
	int end = 0;

	if (sscanf(s, "%u/%u%n", &a, &b, &end) != 2 || s[end] || !strchr("0123456789", *s) ||
	    a < 1 || b > 64 || a > b) {
		fprintf(stderr, "opsbench-suite: --pass '%s': expected K/N with 1 <= K <= N <= 64\n", s);
		return -1;
	}
	*k = a;
	*n = b;
	return 0;
}

/* "quick, full or smoke": the profiles' names, from the table. */
static const char *profile_names(void)
{
	static char names[128];
	size_t len = 0;

	for (size_t p = 0; p < PROFILE_COUNT; p++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					!p ? "" : p + 1 < PROFILE_COUNT ? ", " : " or ", profiles[p].name);
	return names;
}

static void usage(void)
{
	printf("usage: opsbench-suite [--profile P] (--list-groups | --list | --group G) [--filter RE] [--cpu N | --no-pin]\n"
	       "                      [--scenario NAME] [--rounds N] [--sample-ms MS] [--sub-sample-us US] [--pass K/N]\n"
	       "                      [--stack-offset BYTES]\n"
	       "                      [--benchmark_* flags of Google Benchmark]\n"
	       "       opsbench-suite --list-profiles\n"
	       "       opsbench-suite [--profile P] --print-schedule\n\n"
	       "Runs one group of opsbench benchmarks, interleaved, through Google Benchmark.\n"
	       "The profile (%s) sets the groups, the Google Benchmark repetitions\n"
	       "and min_time of the calib, dispatch, regulator and kernel groups (random\n"
	       "interleaving; the kernel group at least " OB_STR(KERNEL_REPETITIONS) " repetitions; flags\n"
	       "given later override them), and the rounds and sample length of the lookup\n"
	       "groups: --list-profiles prints them.  The process is pinned to one CPU.\n"
	       "Exit status 2 on bad input.\n\n", profile_names());
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s%s", flags[i].opt.name,
			 flags[i].arg ? " " : "", flags[i].arg ? flags[i].arg : "");
		printf("  %-22s %s\n", left, flags[i].help);
	}
}

/* ---- --list-profiles: the table for people ---- */

/* "a,b,c": the @n names @name(i) gives, into @buf. */
static const char *join(char *buf, size_t len, size_t n, const char *(*name)(const void *, size_t),
			const void *v)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", name(v, i));
	return buf;
}

static const char *size_name(const void *v, size_t i)
{
	return ob_size_class_name(((const enum ob_size_class *)v)[i]);
}

static const char *order_name(const void *v, size_t i)
{
	return lookup_order_name(((const enum lookup_order *)v)[i]);
}

static const char *uint_name(const void *v, size_t i)
{
	static char text[16];

	snprintf(text, sizeof(text), "%u", ((const unsigned int *)v)[i]);
	return text;
}

static const char *named_name(const void *v, size_t i)
{
	return ((const char *const *)v)[i];
}

static const char *cold_name(const void *v, size_t i)
{
	return ((const bool *)v)[i] ? "cold" : "warm";
}

/* How many groups profile @p has, lookup groups alone (@lookup), or those other builds run (@variant). */
static size_t count_groups(const struct suite_cfg *base, enum profile p, bool lookup, bool variant)
{
	struct suite_cfg cfg = *base;
	size_t n = 0;

	cfg.profile = p;
	cfg.variant_build = variant;
	all_groups(&cfg);
	for (size_t i = 0; i < groups.n; i++)
		n += !lookup || groups.v[i].sc;
	return n;
}

/* Every profile: one row of figures each, then what its groups are. */
static void list_profiles(const struct suite_cfg *cfg)
{
	char a[64], b[64], c[64], d[64], e[64], f[160];

	printf("%-9s %-14s %-15s %-7s %-12s %-10s %-7s %-11s %-9s %-12s %-11s %s\n", "profile",
	       "lookup_groups", "variant_groups", "rounds", "cold_rounds", "sample_ms", "blocks",
	       "min_blocks", "budget_s", "repetitions", "min_time_s", "what it runs");
	for (size_t p = 0; p < PROFILE_COUNT; p++) {
		const struct profile_info *pr = &profiles[p];

		printf("%-9s %-14zu %-15zu %-7u %-12u %-10g %-7u %-11u %-9u %-12u %-11s %s\n", pr->name,
		       count_groups(cfg, (enum profile)p, true, false),
		       count_groups(cfg, (enum profile)p, false, true), pr->rounds, pr->cold_rounds,
		       pr->sample_ms, pr->passes, pr->min_passes, pr->budget_s, pr->repetitions,
		       pr->min_time, pr->summary);
	}
	printf("\nlookup_groups: the plain build's lookup groups (besides calib, dispatch, regulator\n"
	       "and kernel),\n"
	       "one per combination of\n");
	for (size_t p = 0; p < PROFILE_COUNT; p++) {
		const struct profile_info *pr = &profiles[p];

		printf("  %-8s size %s; custom %% %s; order %s; depth %s; %s%s%s\n", pr->name,
		       join(a, sizeof(a), pr->sizes.n, size_name, pr->sizes.v),
		       join(b, sizeof(b), pr->custom_pct.n, uint_name, pr->custom_pct.v),
		       join(c, sizeof(c), pr->orders.n, order_name, pr->orders.v),
		       join(d, sizeof(d), pr->depths.n, uint_name, pr->depths.v),
		       join(e, sizeof(e), pr->cold.n, cold_name, pr->cold.v),
		       pr->named.n ? "; and " : "",
		       join(f, sizeof(f), pr->named.n, named_name, pr->named.v));
	}
	printf("variant_groups: the groups make bench runs in each build other than plain\n"
	       "(--variant-build), those whose name matches\n");
	for (size_t p = 0; p < PROFILE_COUNT; p++)
		printf("  %-8s %s\n", profiles[p].name, profiles[p].variant_groups);
	printf("rounds, cold_rounds: samples of each benchmark of a warm, a cold lookup group, at most;\n"
	       "sample_ms: the time one sample aims at; blocks: the processes make bench splits a\n"
	       "lookup group's rounds into, at most (PASSES=N overrides it); min_blocks: those it\n"
	       "runs before it stops a group whose every ratio is within +-%g%%; budget_s: the\n"
	       "lookup groups' time, 0 for none (BUDGET=S); repetitions, min_time_s: Google\n"
	       "Benchmark's, for each benchmark of the calib, dispatch, regulator and kernel groups\n"
	       "(kernel: at least " OB_STR(KERNEL_REPETITIONS) " repetitions, for its fit's interval).\n"
	       "The method: docs/method.md#blocks.\n", profiles[PROFILE_QUICK].target_pct);
}

/* ob_gb_run()'s arguments and result, for ob_call_on_fixed_stack(). */
struct gb_call {
	size_t expected, skipped, ran;
	char why[512];
};

static void run_benchmarks(void *arg)
{
	struct gb_call *c = arg;

	c->ran = ob_gb_run(c->expected, &c->skipped, c->why, sizeof(c->why));
}

/* What the command line asks for, besides @cfg. */
struct args {
	const char *group, *spec;
	bool list, list_groups, list_profiles, print_schedule;
	int pin;		/* -1: the highest allowed CPU; -2: none */
	unsigned int rounds;	/* 0: the profile's */
	double sample_ms;	/* 0: the profile's */
	double sub_sample_us;	/* 0: the profile's */
	int rest;		/* argv[rest...]: Google Benchmark's */
	char **gb_flags;	/* the flags that are not ours, in order: Google Benchmark's */
	int n_gb_flags;
};

/* --profile NAME into @cfg.  0, or -1 after saying why. */
static int parse_profile(const char *name, struct suite_cfg *cfg)
{
	for (size_t p = 0; p < PROFILE_COUNT; p++)
		if (!strcmp(name, profiles[p].name)) {
			cfg->profile = (enum profile)p;
			return 0;
		}
	fprintf(stderr, "opsbench-suite: --profile '%s': expected %s\n", name, profile_names());
	return -1;
}

/*
 * Our flags, wherever they stand; the flags that are not ours are kept in
 * order for Google Benchmark (ob_gb_init() checks them and names one it
 * does not know), and so is everything from the first non-option on.
 * Returns -1 to go on, or the exit status (--help, bad input).
 */
static int parse_args(int argc, char **argv, struct suite_cfg *cfg, struct args *a)
{
	struct option longopts[ARRAY_SIZE(flags) + 1] = { 0 };
	double num;
	int c;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		longopts[i] = flags[i].opt;
	opterr = 0;
	/* Owned for the life of the process (main()'s @a is static, for LeakSanitizer). */
	a->gb_flags = calloc((size_t)argc, sizeof(char *));
	if (!a->gb_flags) {
		perror("opsbench-suite");
		return 1;
	}
	/* Stop at the first non-option: it and the rest go to Google Benchmark. */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_profile(optarg, cfg))
				return EXIT_USAGE;
			break;
		case 'g': a->group = optarg; break;
		case 's':
			cfg->scenario = ob_scenario_find(optarg);
			if (!cfg->scenario) {
				fprintf(stderr, "opsbench-suite: --scenario '%s': no such scenario (see opsbench-run --list)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'f': a->spec = optarg; break;
		case 'G': a->list_groups = true; break;
		case 'L': a->list_profiles = true; break;
		case 'S': a->print_schedule = true; break;
		case 'V': cfg->variant_build = true; break;
		case 'c':
			if (parse_number("cpu", optarg, 0, CPU_SETSIZE - 1, "a CPU number", &num) ||
			    check_cpu((int)num))
				return EXIT_USAGE;
			a->pin = (int)num;
			break;
		case 'P': a->pin = -2; break;
		case 'o':
			if (parse_number("stack-offset", optarg, 0, OB_STACK_OFFSET_MAX, "a whole number of bytes", &num))
				return EXIT_USAGE;
			if (ob_set_stack_offset((size_t)num)) {
				fprintf(stderr, "opsbench-suite: --stack-offset '%s': expected a multiple of 16, 0..%u\n",
					optarg, OB_STACK_OFFSET_MAX);
				return EXIT_USAGE;
			}
			ob_layout_stack_bytes = (unsigned int)num;
			break;
		case 'r':
			if (parse_number("rounds", optarg, 2, 100000, "a whole number", &num))
				return EXIT_USAGE;
			a->rounds = (unsigned int)num;
			break;
		case 'm':
			if (parse_number("sample-ms", optarg, 0.001, 1000, NULL, &num))
				return EXIT_USAGE;
			a->sample_ms = num;
			break;
		case 'u':
			if (parse_number("sub-sample-us", optarg, 1, 100000, NULL, &num))
				return EXIT_USAGE;
			a->sub_sample_us = num;
			break;
		case 'k':
			if (parse_pass(optarg, &cfg->pass, &cfg->passes))
				return EXIT_USAGE;
			break;
		case 'l': a->list = true; break;
		case 'h': usage(); return 0;
		case ':':
			fprintf(stderr, "opsbench-suite: %s needs a value (see --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			/* Not ours: Google Benchmark's (ob_gb_init checks them), or unknown. */
			if (strncmp(argv[optind - 1], "--benchmark_", 12) && strncmp(argv[optind - 1], "--v", 3)) {
				fprintf(stderr, "opsbench-suite: unknown argument '%s' (see --help)\n", argv[optind - 1]);
				return EXIT_USAGE;
			}
			a->gb_flags[a->n_gb_flags++] = argv[optind - 1];
			break;
		}
	}
	a->rest = optind;
	return -1;
}

/* The lookup groups' rounds and sample length: the flags', else the profile's.  0, or -1 after saying why. */
static int set_rounds(struct suite_cfg *cfg, const struct args *a)
{
	const struct profile_info *pr = &profiles[cfg->profile];

	cfg->rounds = a->rounds ? a->rounds : pr->rounds;
	cfg->cold_rounds = a->rounds ? a->rounds : pr->cold_rounds;
	cfg->sample_ns = (a->sample_ms > 0 ? a->sample_ms : pr->sample_ms) * 1e6;
	cfg->sub_sample_ns = (a->sub_sample_us > 0 ? a->sub_sample_us : pr->sub_sample_us) * 1e3;
	if (cfg->passes > cfg->rounds || cfg->passes > cfg->cold_rounds) {
		fprintf(stderr, "opsbench-suite: --pass %u/%u: more blocks than the %u rounds\n",
			cfg->pass, cfg->passes, cfg->rounds < cfg->cold_rounds ? cfg->rounds : cfg->cold_rounds);
		return -1;
	}
	return 0;
}

/* The index of group @name, or groups.n after saying there is none. */
static size_t find_group(const struct suite_cfg *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < groups.n && strcmp(name, groups.v[i].name); i++)
		;
	if (i == groups.n)
		fprintf(stderr, "opsbench-suite: --group '%s': no such group in profile %s (see --list-groups)\n",
			name, profiles[cfg->profile].name);
	return i;
}

/* --list and --list-groups: the matching benchmarks, or the groups that have one.  The exit status. */
static int list(const struct suite_cfg *cfg, const struct args *a)
{
	bool one = a->group && strcmp(a->group, "all");
	size_t shown = 0;

	if (one && find_group(cfg, a->group) == groups.n)
		return EXIT_USAGE;
	for (size_t i = 0; i < groups.n; i++) {
		const struct bench_list *l;
		bool any = false;

		if (one && strcmp(a->group, groups.v[i].name))
			continue;
		l = group_list(cfg, &groups.v[i], false);
		for (size_t k = 0; k < l->n; k++) {
			if (!filter_match(filter, l->v[k].name) ||
			    (gb_filter && !filter_match(gb_filter, l->v[k].name)))
				continue;
			any = true;
			shown++;
			if (a->list)
				printf("%s\n", l->v[k].name);
		}
		if (a->list_groups && any)
			printf("%s\n", groups.v[i].name);
	}
	if (a->list && !shown) {
		fprintf(stderr, "opsbench-suite: --list: no benchmark matches (group '%s', filter '%s')\n",
			a->group ? a->group : "all", a->spec ? a->spec : "");
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Google Benchmark's command line: the profile's settings first, then
 * whatever is left of ours (which wins).  0, or the exit status.
 */
static int gb_init(const struct suite_cfg *cfg, const struct args *a, int argc, char **argv, int *gb_argc)
{
	const struct profile_info *pr = &profiles[cfg->profile];
	/*
	 * Static: Google Benchmark takes the flags it reads out of gb_argv, so
	 * strings allocated here would be left unreferenced (LeakSanitizer).
	 */
	static char repetitions[48], min_time[48];
	int ret;

	/* The kernel group's lines, one per repetition: at least KERNEL_REPETITIONS of them. */
	snprintf(repetitions, sizeof(repetitions), "--benchmark_repetitions=%u",
		 strcmp(a->group, "kernel") || pr->repetitions >= KERNEL_REPETITIONS ?
		 pr->repetitions : KERNEL_REPETITIONS);
	snprintf(min_time, sizeof(min_time), "--benchmark_min_time=%s", pr->min_time);
	gb_argv = calloc((size_t)(argc - a->rest + a->n_gb_flags) + 8, sizeof(char *));
	if (!gb_argv) {
		perror("opsbench-suite");
		return 1;
	}
	*gb_argc = 0;
	gb_argv[(*gb_argc)++] = argv[0];
	gb_argv[(*gb_argc)++] = repetitions;
	gb_argv[(*gb_argc)++] = min_time;
	/* Lookup groups interleave by their own shuffled rounds, in registration order. */
	gb_argv[(*gb_argc)++] = strncmp(a->group, "lookup/", 7) ?
		(char *)"--benchmark_enable_random_interleaving=true" :
		(char *)"--benchmark_enable_random_interleaving=false";
	for (int i = 0; i < a->n_gb_flags; i++)
		gb_argv[(*gb_argc)++] = a->gb_flags[i];
	for (int i = a->rest; i < argc; i++)
		gb_argv[(*gb_argc)++] = argv[i];
	for (int i = 1; i < *gb_argc; i++)	/* the last one wins, as in Google Benchmark */
		if (!strncmp(gb_argv[i], "--benchmark_filter=", 19))
			gb_filter = filter_init(gb_argv[i] + 19);
	if ((ret = ob_out_begin(*gb_argc, gb_argv)))
		return ret;
	return ob_gb_init(gb_argc, gb_argv) ? ob_out_finish(EXIT_USAGE) : 0;
}

/* Register group @name's benchmarks ('all': every group's); *@expected: those the filter lets through.  The exit status. */
static int register_groups(const struct suite_cfg *cfg, const char *name, size_t *expected)
{
	size_t matched = 0;

	for (size_t i = 0; i < groups.n; i++) {
		const struct bench_list *l;

		if (strcmp(name, "all") && strcmp(name, groups.v[i].name))
			continue;
		matched++;
		l = group_list(cfg, &groups.v[i], true);
		for (size_t k = 0; k < l->n; k++) {
			if (!filter_match(filter, l->v[k].name) ||
			    (gb_filter && !filter_match(gb_filter, l->v[k].name)))
				continue;
			if (ob_gb_register(&l->v[k]))
				return 1;
			++*expected;
		}
	}
	if (!matched) {
		fprintf(stderr, "opsbench-suite: --group '%s': no such group in profile %s (see --list-groups)\n",
			name, profiles[cfg->profile].name);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Run the registered benchmarks, on a stack at a fixed address: where the
 * process's own stack starts moves with the environment, argv and the
 * checkout's path, and with it the cache sets of the stack lines a lookup
 * touches (docs/method.md#lookup-groups).  The exit status.
 */
static int run(const char *group, size_t expected)
{
	struct gb_call call = { .expected = expected };
	struct ob_err err = { 0 };

	if (ob_call_on_fixed_stack(run_benchmarks, &call, &err)) {
		fprintf(stderr, "opsbench-suite: %s\n", err.msg);
		return 1;
	}
	if (!call.ran) {
		fprintf(stderr, "opsbench-suite: no benchmark of group '%s' matches the filter\n", group);
		return EXIT_USAGE;
	}
	if (call.skipped == call.ran && !strcmp(group, "kernel")) {
		/* The host refused the walk (bench/kernel.c): the run goes on without it. */
		fprintf(stderr, "opsbench-suite: the running kernel's path walk is left out: %s\n", call.why);
		return 0;
	}
	if (call.skipped == call.ran) {
		fprintf(stderr, "opsbench-suite: every benchmark of group '%s' was skipped (%zu; the first: %s)\n",
			group, call.skipped, call.why);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct suite_cfg cfg = { .profile = PROFILE_QUICK, .pass = 1, .passes = 1 };
	/* Static: what it points to lives until exit, and LeakSanitizer sees it. */
	static struct args a = { .pin = -1 };
	size_t expected = 0;
	char why[256];
	int ret, gb_argc;

	no_aslr(argv);
	ob_check_stdout_at_exit("opsbench-suite");
	ob_gb_context("variant", OB_VARIANT);
	ob_gb_context("commit", ob_build_commit);
	if ((ret = parse_args(argc, argv, &cfg, &a)) >= 0)
		return ret;
	ob_read_caches(&cfg.caches, "");
	if ((a.list_profiles || a.print_schedule || a.list_groups || a.list) &&
	    (a.n_gb_flags || a.rest < argc)) {
		fprintf(stderr, "opsbench-suite: %s: not with --list, --list-groups, --list-profiles or --print-schedule "
			"(Google Benchmark's flags apply to a run; --filter narrows a list)\n",
			a.n_gb_flags ? a.gb_flags[0] : argv[a.rest]);
		return EXIT_USAGE;
	}
	if (a.list_profiles) {
		list_profiles(&cfg);
		return 0;
	}
	if (a.print_schedule) {
		const struct profile_info *pr = &profiles[cfg.profile];

		printf("%u %u %g %u\n", pr->passes, pr->min_passes, pr->target_pct, pr->budget_s);
		return 0;
	}
	if (set_rounds(&cfg, &a))
		return EXIT_USAGE;
	filter = filter_init(a.spec);
	all_groups(&cfg);
	if (a.list_groups || a.list) {
		ret = list(&cfg, &a);
		filter_done();
		return ret;
	}
	if (!a.group) {
		fprintf(stderr, "opsbench-suite: say which --group to run (--list-groups lists them; "
				"`make bench` runs them all)\n");
		return EXIT_USAGE;
	}
	if (ob_emulated(why, sizeof(why)))
		fprintf(stderr, "opsbench-suite: %s; its timings mean nothing and are not results\n", why);
	pin_cpu(a.pin);
	if ((ret = gb_init(&cfg, &a, argc, argv, &gb_argc)))
		return ret;
	ret = register_groups(&cfg, a.group, &expected);
	filter_done();
	return ob_out_finish(ret ? ret : run(a.group, expected));
}
