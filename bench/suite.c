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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/compiler.h"
#include "suite.h"

#define EXIT_USAGE 2

/* Google Benchmark settings of each profile; later --benchmark_* flags win. */
static const struct profile_info {
	const char *name;
	const char *repetitions;	/* samples per benchmark (medians are taken over them) */
	const char *min_time;		/* seconds per repetition */
} profiles[] = {
	[PROFILE_QUICK] = { "quick", "--benchmark_repetitions=20", "--benchmark_min_time=0.02" },
	[PROFILE_FULL]	= { "full",  "--benchmark_repetitions=20", "--benchmark_min_time=0.02" },
	[PROFILE_SMOKE] = { "smoke", "--benchmark_repetitions=2",  "--benchmark_min_time=0.001" },
};

void bench_add(struct bench_list *l, const char *name,
	       int (*prepare)(void *, char *, size_t),
	       uint64_t (*body)(void *, uint64_t),
	       void (*report)(void *, struct ob_gb_state *, uint64_t), void *arg)
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
	l->v[l->n] = (struct ob_gb_bench) {
		.name = strdup(name), .prepare = prepare, .body = body, .report = report, .arg = arg,
	};
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
};

static size_t all_groups(const struct suite_cfg *cfg, struct group **out)
{
	struct scenario *sc;
	size_t n_sc = lookup_scenarios(cfg, &sc);
	struct group *g = calloc(n_sc + 2, sizeof(*g));

	if (!g) {
		perror("opsbench-suite");
		exit(1);
	}
	g[0].name = "calib";
	g[1].name = "dispatch";
	for (size_t i = 0; i < n_sc; i++) {
		g[i + 2].name = sc[i].group;
		g[i + 2].sc = &sc[i];
	}
	*out = g;
	return n_sc + 2;
}

static void group_list(const struct suite_cfg *cfg, const struct group *g, struct bench_list *l)
{
	if (g->sc)
		lookup_list(cfg, g->sc, l);
	else if (!strcmp(g->name, "calib"))
		calib_list(cfg, l);
	else
		dispatch_list(cfg, l);
}

/* ---- the filter: Google Benchmark's syntax, a POSIX ERE, '-' negates ---- */

struct filter {
	regex_t re;
	bool negate, any;
};

static void filter_init(struct filter *f, const char *spec)
{
	char msg[128];
	int ret;

	f->any = !spec || !*spec || !strcmp(spec, "all");
	if (f->any)
		return;
	f->negate = spec[0] == '-';
	ret = regcomp(&f->re, spec + f->negate, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &f->re, msg, sizeof(msg));
		fprintf(stderr, "opsbench-suite: --filter '%s': %s\n", spec, msg);
		exit(EXIT_USAGE);
	}
}

static bool filter_match(const struct filter *f, const char *name)
{
	if (f->any)
		return true;
	return (regexec(&f->re, name, 0, NULL, 0) == 0) != f->negate;
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
	{ { "help",	   no_argument,	      NULL, 'h' }, NULL,    "this help" },
};

static void usage(void)
{
	printf("usage: opsbench-suite [--profile P] (--list-groups | --list | --group G) [--filter RE]\n"
	       "                      [--benchmark_* flags of Google Benchmark]\n\n"
	       "Runs one group of opsbench benchmarks, interleaved, through Google Benchmark.\n"
	       "The profile sets --benchmark_repetitions and --benchmark_min_time (quick and\n"
	       "full: 20 and 0.02 s; smoke: 2 and 0.001 s) and turns on random interleaving;\n"
	       "flags given later override them.  Exit status 2 on bad input.\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s%s", flags[i].opt.name,
			 flags[i].arg ? " " : "", flags[i].arg ? flags[i].arg : "");
		printf("  %-22s %s\n", left, flags[i].help);
	}
}

int main(int argc, char **argv)
{
	struct option longopts[ARRAY_SIZE(flags) + 1] = { 0 };
	struct suite_cfg cfg = { .profile = PROFILE_QUICK };
	const char *group = NULL, *spec = NULL;
	bool list = false, list_groups = false;
	struct filter filter;
	struct group *groups;
	size_t n_groups, matched = 0, expected = 0;
	int c;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		longopts[i] = flags[i].opt;
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
		case 'f': spec = optarg; break;
		case 'G': list_groups = true; break;
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
	filter_init(&filter, spec);
	n_groups = all_groups(&cfg, &groups);

	if (list_groups || list) {
		for (size_t i = 0; i < n_groups; i++) {
			struct bench_list l = { 0 };
			bool any = false;

			if (list && group && strcmp(group, "all") && strcmp(group, groups[i].name))
				continue;
			group_list(&cfg, &groups[i], &l);
			for (size_t k = 0; k < l.n; k++) {
				if (!filter_match(&filter, l.v[k].name))
					continue;
				any = true;
				if (list)
					printf("%s\n", l.v[k].name);
			}
			if (list_groups && any)
				printf("%s\n", groups[i].name);
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

	/* Profile defaults first, then whatever is left of the command line. */
	char filter_flag[512];
	char **gb_argv = calloc((size_t)(argc - optind) + 8, sizeof(char *));
	int gb_argc = 0;

	if (!gb_argv) {
		perror("opsbench-suite");
		return 1;
	}
	gb_argv[gb_argc++] = argv[0];
	gb_argv[gb_argc++] = (char *)profiles[cfg.profile].repetitions;
	gb_argv[gb_argc++] = (char *)profiles[cfg.profile].min_time;
	gb_argv[gb_argc++] = (char *)"--benchmark_enable_random_interleaving=true";
	if (spec) {
		snprintf(filter_flag, sizeof(filter_flag), "--benchmark_filter=%s", spec);
		gb_argv[gb_argc++] = filter_flag;
	}
	for (int i = optind; i < argc; i++)
		gb_argv[gb_argc++] = argv[i];
	if (ob_gb_init(&gb_argc, gb_argv))
		return EXIT_USAGE;

	for (size_t i = 0; i < n_groups; i++) {
		struct bench_list l = { 0 };

		if (strcmp(group, "all") && strcmp(group, groups[i].name))
			continue;
		matched++;
		group_list(&cfg, &groups[i], &l);
		for (size_t k = 0; k < l.n; k++) {
			if (ob_gb_register(&l.v[k]))
				return 1;
			expected += filter_match(&filter, l.v[k].name);
		}
	}
	if (!matched) {
		fprintf(stderr, "opsbench-suite: --group '%s': no such group in profile %s (see --list-groups)\n",
			group, profiles[cfg.profile].name);
		return EXIT_USAGE;
	}
	if (!ob_gb_run(expected)) {
		fprintf(stderr, "opsbench-suite: no benchmark of group '%s' matches the filter\n", group);
		return EXIT_USAGE;
	}
	return 0;
}
