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
#include <sched.h>
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

#define EXIT_USAGE 2

/*
 * The settings of each profile.  Calibration and dispatch groups: Google
 * Benchmark's repetitions (randomly interleaved) of min_time seconds each;
 * later --benchmark_* flags win.  Lookup groups: their own rounds of
 * paired samples (see bench/lookup.c), each sample about sample_ms long.
 */
static const struct profile_info {
	const char *name;
	const char *repetitions;	/* samples per benchmark (medians are taken over them) */
	const char *min_time;		/* seconds per repetition */
	unsigned int rounds;		/* lookup groups: rounds of one sample per benchmark */
	unsigned int cold_rounds;	/* the same, for cold (polluted) scenarios */
	double sample_ms;		/* lookup groups: milliseconds one sample aims at */
} profiles[] = {
	[PROFILE_QUICK] = { "quick", "--benchmark_repetitions=20", "--benchmark_min_time=0.02", 160, 160, 3.0 },
	[PROFILE_FULL]	= { "full",  "--benchmark_repetitions=20", "--benchmark_min_time=0.02", 160, 160, 3.0 },
	[PROFILE_SMOKE] = { "smoke", "--benchmark_repetitions=2",  "--benchmark_min_time=0.001", 3, 3, 0.05 },
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

/* The --filter, and the command line handed to Google Benchmark: until exit too. */
static struct ob_gb_filter *filter;
static char **gb_argv, *filter_flag;

static void all_groups(const struct suite_cfg *cfg)
{
	struct scenario *sc;
	size_t n_sc = lookup_scenarios(cfg, &sc);
	struct group *g = xcalloc(n_sc + 3, sizeof(*g));

	g[0].name = "calib";
	g[1].name = "dispatch";
	g[2].name = "regulator";
	for (size_t i = 0; i < n_sc; i++) {
		g[i + 3].name = sc[i].group;
		g[i + 3].sc = &sc[i];
	}
	groups.v = g;
	groups.n = n_sc + 3;
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
		fprintf(stderr, "opsbench-suite: --filter '%s': %s\n", spec, msg);
		exit(EXIT_USAGE);
	}
	return f;
}

static bool filter_match(const struct ob_gb_filter *f, const char *name)
{
	return ob_gb_filter_match(f, name);
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

/* ---- the command line ---- */

static const struct flag {
	struct option opt;
	const char *arg;
	const char *help;
} flags[] = {
	{ { "profile",	   required_argument, NULL, 'p' }, "NAME",  "quick (default), full, or smoke (tiny, for tests)" },
	{ { "group",	   required_argument, NULL, 'g' }, "NAME",  "run this group (see --list-groups); 'all' runs every group" },
	{ { "filter",	   required_argument, NULL, 'f' }, "REGEX", "only benchmarks whose name matches (a leading '-' negates)" },
	{ { "list-groups", no_argument,	      NULL, 'G' }, NULL,    "print the groups with a matching benchmark, one a line" },
	{ { "list",	   no_argument,	      NULL, 'l' }, NULL,    "print the matching benchmarks of the selected groups" },
	{ { "scenario",	   required_argument, NULL, 's' }, "NAME",  "the lookup groups are this named scenario alone (see opsbench-run --list)" },
	{ { "rounds",	   required_argument, NULL, 'r' }, "N",     "lookup groups: rounds of samples, 2..100000 (default: the profile's)" },
	{ { "sample-ms",   required_argument, NULL, 'm' }, "MS",    "lookup groups: milliseconds one sample aims at, 0.001..1000 (default: the profile's)" },
	{ { "pass",	   required_argument, NULL, 'k' }, "K/N",   "lookup groups: run the K-th of N equal slices of the rounds, 1 <= K <= N <= 64 (default 1/1)" },
	{ { "cpu",	   required_argument, NULL, 'c' }, "N",     "pin the process to CPU N (default: the highest CPU it may use)" },
	{ { "no-pin",	   no_argument,	      NULL, 'P' }, NULL,    "do not pin the process to one CPU" },
	{ { "help",	   no_argument,	      NULL, 'h' }, NULL,    "this help" },
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
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
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

static void usage(void)
{
	printf("usage: opsbench-suite [--profile P] (--list-groups | --list | --group G) [--filter RE] [--cpu N | --no-pin]\n"
	       "                      [--scenario NAME] [--rounds N] [--sample-ms MS] [--pass K/N]\n"
	       "                      [--benchmark_* flags of Google Benchmark]\n\n"
	       "Runs one group of opsbench benchmarks, interleaved, through Google Benchmark.\n"
	       "The profile sets --benchmark_repetitions and --benchmark_min_time (quick and\n"
	       "full: 20 and 0.02 s; smoke: 2 and 0.001 s) with random interleaving for the\n"
	       "calib and dispatch groups (flags given later override them), and the rounds\n"
	       "of lookup groups (quick and full: 160 rounds of 3 ms samples, warm and\n"
	       "cold; smoke: 3 of 0.05 ms).  The process is pinned to one CPU.  Exit status 2 on bad input.\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s%s", flags[i].opt.name,
			 flags[i].arg ? " " : "", flags[i].arg ? flags[i].arg : "");
		printf("  %-22s %s\n", left, flags[i].help);
	}
}

/*
 * Google Benchmark does not check its writes: on a full disk it leaves an
 * empty or cut --benchmark_out file and exits 0.  A written file must end
 * like a whole JSON document (or CSV line).  Returns the exit status.
 */
static int check_out_file(int argc, char **argv)
{
	const char *out = NULL, *fmt = "json";
	char last = 0;
	FILE *f;
	int c;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--benchmark_out=", 16))
			out = argv[i] + 16;
		else if (!strncmp(argv[i], "--benchmark_out_format=", 23))
			fmt = argv[i] + 23;
	}
	if (!out)
		return 0;
	f = fopen(out, "r");
	if (!f) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: not written: %s\n", out, strerror(errno));
		return 1;
	}
	while ((c = getc(f)) != EOF)
		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			last = (char)c;
	fclose(f);
	if (!strcmp(fmt, "json") ? last != '}' : !last) {
		fprintf(stderr, "opsbench-suite: --benchmark_out=%s: the file is empty or cut short (a full disk?)\n", out);
		return 1;
	}
	return 0;
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

int main(int argc, char **argv)
{
	struct option longopts[ARRAY_SIZE(flags) + 1] = { 0 };
	struct suite_cfg cfg = { .profile = PROFILE_QUICK, .pass = 1, .passes = 1 };
	const char *group = NULL, *spec = NULL;
	bool list = false, list_groups = false;
	int pin = -1;		/* -1: the highest allowed CPU; -2: none */
	double num;
	unsigned int rounds = 0;	/* 0: the profile's */
	double sample_ms = 0;		/* 0: the profile's */
	size_t matched = 0, expected = 0;
	int c;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		longopts[i] = flags[i].opt;
	no_aslr(argv);
	ob_check_stdout_at_exit("opsbench-suite");
	ob_gb_context("variant", OB_VARIANT);
	ob_gb_context("commit", ob_build_commit);
	opterr = 0;
	/* Stop at the first non-option: the rest goes to Google Benchmark. */
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			size_t p;

			for (p = 0; p < ARRAY_SIZE(profiles); p++)
				if (!strcmp(optarg, profiles[p].name))
					break;
			if (p == ARRAY_SIZE(profiles)) {
				fprintf(stderr, "opsbench-suite: --profile '%s': expected quick, full or smoke\n",
					optarg);
				return EXIT_USAGE;
			}
			cfg.profile = (enum profile)p;
			break;
		}
		case 'g': group = optarg; break;
		case 's':
			cfg.scenario = ob_scenario_find(optarg);
			if (!cfg.scenario) {
				fprintf(stderr, "opsbench-suite: --scenario '%s': no such scenario (see opsbench-run --list)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'f': spec = optarg; break;
		case 'G': list_groups = true; break;
		case 'c':
			if (parse_number("cpu", optarg, 0, CPU_SETSIZE - 1, "a CPU number", &num))
				return EXIT_USAGE;
			pin = (int)num;
			break;
		case 'P': pin = -2; break;
		case 'r':
			if (parse_number("rounds", optarg, 2, 100000, "a whole number", &num))
				return EXIT_USAGE;
			rounds = (unsigned int)num;
			break;
		case 'm':
			if (parse_number("sample-ms", optarg, 0.001, 1000, NULL, &num))
				return EXIT_USAGE;
			sample_ms = num;
			break;
		case 'k':
			if (parse_pass(optarg, &cfg.pass, &cfg.passes))
				return EXIT_USAGE;
			break;
		case 'l': list = true; break;
		case 'h': usage(); return 0;
		case ':':
			fprintf(stderr, "opsbench-suite: %s needs a value (see --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			/* Not ours: Google Benchmark's, or unknown (ob_gb_init says). */
			optind--;
			goto rest;
		}
	}
rest:
	ob_read_caches(&cfg.caches, "");
	cfg.rounds = rounds ? rounds : profiles[cfg.profile].rounds;
	cfg.cold_rounds = rounds ? rounds : profiles[cfg.profile].cold_rounds;
	cfg.sample_ns = (sample_ms > 0 ? sample_ms : profiles[cfg.profile].sample_ms) * 1e6;
	if (cfg.passes > cfg.rounds || cfg.passes > cfg.cold_rounds) {
		fprintf(stderr, "opsbench-suite: --pass %u/%u: more slices than the %u rounds\n",
			cfg.pass, cfg.passes, cfg.rounds < cfg.cold_rounds ? cfg.rounds : cfg.cold_rounds);
		return EXIT_USAGE;
	}
	filter = filter_init(spec);
	all_groups(&cfg);

	if (list_groups || list) {
		size_t shown = 0;

		if (list && group && strcmp(group, "all")) {
			size_t i;

			for (i = 0; i < groups.n && strcmp(group, groups.v[i].name); i++)
				;
			if (i == groups.n) {
				fprintf(stderr, "opsbench-suite: --group '%s': no such group in profile %s (see --list-groups)\n",
					group, profiles[cfg.profile].name);
				return EXIT_USAGE;
			}
		}

		for (size_t i = 0; i < groups.n; i++) {
			const struct bench_list *l;
			bool any = false;

			if (list && group && strcmp(group, "all") && strcmp(group, groups.v[i].name))
				continue;
			l = group_list(&cfg, &groups.v[i], false);
			for (size_t k = 0; k < l->n; k++) {
				if (!filter_match(filter, l->v[k].name))
					continue;
				any = true;
				shown++;
				if (list)
					printf("%s\n", l->v[k].name);
			}
			if (list_groups && any)
				printf("%s\n", groups.v[i].name);
		}
		if (list && !shown) {
			fprintf(stderr, "opsbench-suite: --list: no benchmark matches (group '%s', filter '%s')\n",
				group ? group : "all", spec ? spec : "");
			return EXIT_USAGE;
		}
		return 0;
	}
	if (!group) {
		fprintf(stderr, "opsbench-suite: say which --group to run (--list-groups lists them; "
				"`make bench` runs them all)\n");
		return EXIT_USAGE;
	}

	char why[256];

	if (ob_emulated(why, sizeof(why)))
		fprintf(stderr, "opsbench-suite: %s; its timings mean nothing and are not results\n", why);
	pin_cpu(pin);

	/* Profile defaults first, then whatever is left of the command line. */
	gb_argv = calloc((size_t)(argc - optind) + 8, sizeof(char *));
	int gb_argc = 0;

	if (!gb_argv) {
		perror("opsbench-suite");
		return 1;
	}
	gb_argv[gb_argc++] = argv[0];
	gb_argv[gb_argc++] = (char *)profiles[cfg.profile].repetitions;
	gb_argv[gb_argc++] = (char *)profiles[cfg.profile].min_time;
	/* Lookup groups interleave by their own shuffled rounds, in registration order. */
	gb_argv[gb_argc++] = strncmp(group, "lookup/", 7) ?
		(char *)"--benchmark_enable_random_interleaving=true" :
		(char *)"--benchmark_enable_random_interleaving=false";
	if (spec) {
		if (asprintf(&filter_flag, "--benchmark_filter=%s", spec) < 0) {
			perror("opsbench-suite");
			return 1;
		}
		gb_argv[gb_argc++] = filter_flag;
	}
	for (int i = optind; i < argc; i++)
		gb_argv[gb_argc++] = argv[i];
	if (ob_gb_init(&gb_argc, gb_argv))
		return EXIT_USAGE;

	for (size_t i = 0; i < groups.n; i++) {
		const struct bench_list *l;

		if (strcmp(group, "all") && strcmp(group, groups.v[i].name))
			continue;
		matched++;
		l = group_list(&cfg, &groups.v[i], true);
		for (size_t k = 0; k < l->n; k++) {
			if (ob_gb_register(&l->v[k]))
				return 1;
			expected += filter_match(filter, l->v[k].name);
		}
	}
	if (!matched) {
		fprintf(stderr, "opsbench-suite: --group '%s': no such group in profile %s (see --list-groups)\n",
			group, profiles[cfg.profile].name);
		return EXIT_USAGE;
	}
	/*
	 * On a stack at a fixed address: where the process's own stack starts
	 * moves with the environment, argv and the checkout's path, and with it
	 * the cache sets of the stack lines a lookup touches.  Seen: the same
	 * binary's cold default_ops/direct ratio was 1.05 to 1.14 as only the
	 * size of the environment changed.
	 */
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
	if (call.skipped == call.ran) {
		fprintf(stderr, "opsbench-suite: every benchmark of group '%s' was skipped (%zu; the first: %s)\n",
			group, call.skipped, call.why);
		return 1;
	}
	return check_out_file(gb_argc, gb_argv);
}
