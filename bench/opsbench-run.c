// SPDX-License-Identifier: MIT
/*
 * opsbench-run - run exactly one scenario: build the tree for one strategy,
 * check its answers, do N lookups, print one line for people and one JSON
 * line for programs.  With --lookups 0 it only builds, so that whole-process
 * tools (perf stat, hyperfine) can subtract the setup.
 */
#include <alloca.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsbench/build.h"
#include "opsbench/compiler.h"
#include "opsbench/pmu.h"
#include "opsbench/regulator.h"
#include "opsbench/scenario.h"
#include "opsbench/stack.h"
#include "opsbench/error.h"
#include "opsbench/strategy.h"
#include "opsbench/tsc.h"
#include "opsbench/sysinfo.h"
#include "opsbench/workload.h"

/* The code-generation variant this driver was built as (Makefile VARIANT). */
#ifndef OB_VARIANT
#define OB_VARIANT "plain"
#endif

struct options {
	const char *strategy;
	struct workload_params wl;
	uint64_t lookups;	/* lookups to time (0: setup only) */
	size_t pollute;		/* bytes touched between lookups */
	enum ob_mode mode;	/* how lookups are timed */
	int list;
	int json;		/* --list --json */
	int no_pmu;		/* do not open hardware counters */
	unsigned int stack_offset;	/* bytes the measured loop starts lower on its stack */
	const struct ob_scenario *scenario;	/* --scenario: the base of the parameters */
	struct ob_caches caches;	/* what scenarios are sized by: sysfs, or --caches */
	const char *zipf;	/* --zipf as given: meaningful only with --order zipf */
	const char *caches_arg;	/* --caches as given: it sizes a --scenario (or --list) */
	enum ob_context context;	/* what is around each lookup: the scenario's, or bare */
	const char *context_name;	/* --context as given */
	const char *kernel;	/* --kernel as given */
	const char *case_arg;	/* --case as given: meaningful only with casefolding dentries */
	const char *stale_arg;	/* --stale as given: meaningful only with revalidating dentries */
};

/* ---- the command line: every flag with its help beside it ---- */

enum {
	OPT_STRATEGY = 's', OPT_DENTRIES = 'n', OPT_LOOKUPS = 'l', OPT_HELP = 'h',
	OPT_LIST = 256, OPT_SEED, OPT_FANOUT, OPT_DIR_SHARE, OPT_NAME_MIN, OPT_NAME_MAX,
	OPT_CUSTOM, OPT_PERS, OPT_DEPTH, OPT_ORDER, OPT_ZIPF, OPT_NEGATIVE, OPT_CASE,
	OPT_STALE, OPT_PATHS, OPT_POLLUTE, OPT_NO_PMU, OPT_MODE, OPT_SCENARIO, OPT_CACHES, OPT_JSON,
	OPT_STACK_OFFSET, OPT_CONTEXT, OPT_KERNEL,
};

static const struct flag {
	struct option opt;
	const char *arg;
	const char *help;
} flags[] = {
	{ { "strategy",	     required_argument, NULL, OPT_STRATEGY }, "NAME",  "dispatch strategy (see --list)" },
	{ { "scenario",	     required_argument, NULL, OPT_SCENARIO }, "NAME",  "a named scenario (see --list) as the base; the flags below override it" },
	{ { "caches",	     required_argument, NULL, OPT_CACHES },   "L1D,L2,LLC", "size scenarios by these cache sizes (bytes, K/M) instead of sysfs'" },
	{ { "lookups",	     required_argument, NULL, OPT_LOOKUPS },  "N",     "lookups to time; 0 builds only (default 1000000)" },
	{ { "dentries",	     required_argument, NULL, OPT_DENTRIES }, "N",     "dentries in the tree, root included (default 4096)" },
	{ { "seed",	     required_argument, NULL, OPT_SEED },     "N",     "seed of the workload (default 1)" },
	{ { "fanout",	     required_argument, NULL, OPT_FANOUT },   "N",     "children per directory, 0 = auto (default 0)" },
	{ { "dir-share",     required_argument, NULL, OPT_DIR_SHARE },"F",     "share of children that are directories (default 0.25)" },
	{ { "name-min",	     required_argument, NULL, OPT_NAME_MIN }, "N",     "shortest name in bytes (default 4)" },
	{ { "name-max",	     required_argument, NULL, OPT_NAME_MAX }, "N",     "longest name in bytes, up to 255 (default 16)" },
	{ { "custom",	     required_argument, NULL, OPT_CUSTOM },   "F",     "share of directories with custom ops, 0..1 (default 0)" },
	{ { "personalities", required_argument, NULL, OPT_PERS },     "LIST",  "custom personalities to draw from: casefold,revalidate,all (default all three)" },
	{ { "depth",	     required_argument, NULL, OPT_DEPTH },    "N",     "components per path (default 1)" },
	{ { "order",	     required_argument, NULL, OPT_ORDER },    "ORDER", "sorted, uniform or zipf (default uniform)" },
	{ { "zipf",	     required_argument, NULL, OPT_ZIPF },     "S",     "Zipf exponent, in [1e-9, 10] (default 1.0)" },
	{ { "negative",	     required_argument, NULL, OPT_NEGATIVE }, "F",     "share of lookups of names that do not exist (default 0.1)" },
	{ { "case",	     required_argument, NULL, OPT_CASE },     "F",     "share of case-insensitive lookups spelled in another case (default 0.5)" },
	{ { "stale",	     required_argument, NULL, OPT_STALE },    "F",     "share of dentries that fail revalidation (default 0)" },
	{ { "paths",	     required_argument, NULL, OPT_PATHS },    "N",     "length of the cycled lookup list, 0 = auto (default 0)" },
	{ { "pollute",	     required_argument, NULL, OPT_POLLUTE },  "BYTES", "memory touched between lookups, K/M suffixes (default 0)" },
	{ { "mode",	     required_argument, NULL, OPT_MODE },     "MODE",  "throughput (default), latency (each lookup waits for the last) or cold (one lookup at a time, serialised timestamps; the pollution and a warm-up lookup on copies untimed)" },
	{ { "context",	     required_argument, NULL, OPT_CONTEXT },  "CTX",   "what is around each lookup: bare (the dcache lookup alone) or component (a whole path component: permission, LSM hook, step_into; docs/model.md#context) (default bare, or the scenario's)" },
	{ { "kernel",	     required_argument, NULL, OPT_KERNEL },   "VER",   "kernel generation of the component context: 6.12 (LSM hook off, table constants) or 6.1 (LSM hook called indirectly, table base and shift loaded) (default 6.12, or the scenario's)" },
	{ { "no-pmu",	     no_argument,	NULL, OPT_NO_PMU },   NULL,    "do not open hardware counters (time only)" },
	{ { "stack-offset",  required_argument, NULL, OPT_STACK_OFFSET }, "BYTES", "start the measured loop this much lower on its stack, a multiple of 16 up to 4096 (default 0; tests show the counts do not depend on it)" },
	{ { "list",	     no_argument,	NULL, OPT_LIST },     NULL,    "list the strategies and the named scenarios, then exit" },
	{ { "json",	     no_argument,	NULL, OPT_JSON },     NULL,    "with --list: as JSON, every parameter resolved (what scripts read)" },
	{ { "help",	     no_argument,	NULL, OPT_HELP },     NULL,    "this help" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: opsbench-run --strategy NAME [options]\n"
		   "       opsbench-run --list\n\n"
		   "Runs one lookup scenario with one dispatch strategy and prints one line for\n"
		   "people and one JSON line for programs.  Exit status 2 on bad input.\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		char left[40];

		if (flags[i].opt.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", flags[i].opt.val,
				 flags[i].opt.name, flags[i].arg ? " " : "",
				 flags[i].arg ? flags[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", flags[i].opt.name,
				 flags[i].arg ? " " : "", flags[i].arg ? flags[i].arg : "");
		fprintf(f, "  %-28s %s\n", left, flags[i].help);
	}
}

static _Noreturn void bad(const char *flag, const char *value, const char *range)
{
	fprintf(stderr, "opsbench-run: --%s '%s': %s\n", flag, value, range);
	exit(EXIT_USAGE);
}

static uint64_t parse_count(const char *flag, const char *s, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	/* Digits only: strtoull would take " -1" as 2^64-1. */
	if (*s < '0' || *s > '9')
		bad(flag, s, "expected a whole number");
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max) {
		char range[64];

		snprintf(range, sizeof(range), "expected a whole number, 0..%" PRIu64, max);
		bad(flag, s, range);
	}
	return v;
}

static size_t parse_bytes(const char *flag, const char *s)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	errno = 0;
	/* Digits first: "K" alone would be 0 bytes, " -1" 2^64-1. */
	if (*s < '0' || *s > '9')
		bad(flag, s, "expected bytes, e.g. 4096, 64K, 2M");
	v = strtoull(s, &end, 10);
	if (!strcmp(end, "K") || !strcmp(end, "KiB"))
		shift = 10;
	else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
		shift = 20;
	else if (*end)
		bad(flag, s, "expected bytes, e.g. 4096, 64K, 2M");
	if (errno || v > (1ull << 30) >> shift)
		bad(flag, s, "expected bytes, at most 1G");
	return (size_t)v << shift;
}

static double parse_real(const char *flag, const char *s, double lo, double hi)
{
	char *end, range[64];
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* Decimal only: strtod would also take hex ("0x5"), as no other flag does. */
	if (errno || end == s || *end || strpbrk(s, "xX") || !(v >= lo && v <= hi)) {
		snprintf(range, sizeof(range), "expected a number in [%g, %g]", lo, hi);
		bad(flag, s, range);
	}
	return v;
}

static unsigned int parse_personalities(const char *s)
{
	char *copy = strdup(s), *save = NULL;
	unsigned int mask = 0;

	if (!copy) {
		perror("opsbench-run");
		exit(1);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = personality_from_name(tok);

		if (p <= PERS_PLAIN) {
			free(copy);
			bad("personalities", s, "expected a comma-separated list of casefold, revalidate, all");
		}
		mask |= 1u << p;
	}
	free(copy);
	if (!mask)
		bad("personalities", s, "expected a comma-separated list of casefold, revalidate, all");
	return mask;
}

/* Flag @c, as getopt_long() just returned it (its value in optarg), over @o; exits on bad input. */
static void parse_flag(int c, char **argv, struct options *o)
{
	switch (c) {
	case OPT_SCENARIO:
	case OPT_CACHES:	break;
	case OPT_JSON:		o->json = 1; break;
	case OPT_STRATEGY:	o->strategy = optarg; break;
	case OPT_LOOKUPS:	o->lookups = parse_count("lookups", optarg, 1ull << 40); break;
	case OPT_DENTRIES:	o->wl.dentries = parse_count("dentries", optarg, WL_MAX_DENTRIES); break;
	case OPT_SEED:		o->wl.seed = parse_count("seed", optarg, UINT64_MAX); break;
	case OPT_FANOUT:	o->wl.fanout = (unsigned int)parse_count("fanout", optarg, WL_MAX_FANOUT); break;
	case OPT_DIR_SHARE:	o->wl.dir_share = parse_real("dir-share", optarg, 0, 1); break;
	case OPT_NAME_MIN:	o->wl.name_min = (unsigned int)parse_count("name-min", optarg, 255); break;
	case OPT_NAME_MAX:	o->wl.name_max = (unsigned int)parse_count("name-max", optarg, 255); break;
	case OPT_CUSTOM:	o->wl.custom_share = parse_real("custom", optarg, 0, 1); break;
	case OPT_PERS:		o->wl.custom_mask = parse_personalities(optarg); break;
	case OPT_DEPTH:
		o->wl.path_depth = (unsigned int)parse_count("depth", optarg, UINT32_MAX);
		if (!o->wl.path_depth || o->wl.path_depth > WL_MAX_DEPTH) {
			char range[48];

			snprintf(range, sizeof(range), "expected a whole number, 1..%u", WL_MAX_DEPTH);
			bad("depth", optarg, range);
		}
		break;
	case OPT_ORDER: {
		int ord = lookup_order_from_name(optarg);

		if (ord < 0)
			bad("order", optarg, "expected sorted, uniform or zipf");
		o->wl.order = (enum lookup_order)ord;
		break;
	}
	case OPT_ZIPF:
		o->wl.zipf_s = parse_real("zipf", optarg, 1e-9, 10);
		o->zipf = optarg;
		break;
	case OPT_NEGATIVE:	o->wl.negative_share = parse_real("negative", optarg, 0, 1); break;
	case OPT_CASE:
		o->wl.case_share = parse_real("case", optarg, 0, 1);
		o->case_arg = optarg;
		break;
	case OPT_STALE:
		o->wl.stale_share = parse_real("stale", optarg, 0, 1);
		o->stale_arg = optarg;
		break;
	case OPT_PATHS:		o->wl.lookups = parse_count("paths", optarg, WL_MAX_LOOKUPS); break;
	case OPT_POLLUTE:	o->pollute = parse_bytes("pollute", optarg); break;
	case OPT_MODE: {
		int m;

		for (m = 0; m < OB_MODE_COUNT; m++)
			if (!strcmp(optarg, ob_mode_name((enum ob_mode)m)))
				break;
		if (m == OB_MODE_COUNT)
			bad("mode", optarg, "expected throughput, latency or cold");
		o->mode = (enum ob_mode)m;
		break;
	}
	case OPT_CONTEXT:
		if (strcmp(optarg, "bare") && strcmp(optarg, "component"))
			bad("context", optarg, "expected bare or component");
		o->context_name = optarg;
		break;
	case OPT_KERNEL:
		if (strcmp(optarg, "6.1") && strcmp(optarg, "6.12"))
			bad("kernel", optarg, "expected 6.1 or 6.12");
		o->kernel = optarg;
		break;
	case OPT_LIST:		o->list = 1; break;
	case OPT_NO_PMU:	o->no_pmu = 1; break;
	case OPT_STACK_OFFSET:
		o->stack_offset = (unsigned int)parse_count("stack-offset", optarg, 4096);
		if (o->stack_offset % 16)
			bad("stack-offset", optarg, "expected a multiple of 16");
		break;
	case OPT_HELP:		usage(stdout); exit(0);
	case ':':
		fprintf(stderr, "opsbench-run: %s needs a value (see --help)\n", argv[optind - 1]);
		exit(EXIT_USAGE);
	default:
		fprintf(stderr, "opsbench-run: unknown option '%s' (see --help)\n", argv[optind - 1]);
		exit(EXIT_USAGE);
	}
}

/*
 * The command line into @o: first the base (the caches, then the named
 * scenario sized by them), then every other flag over it.  Exits with a
 * message on bad input.
 */
static void parse(int argc, char **argv, struct options *o)
{
	struct option longopts[ARRAY_SIZE(flags) + 1] = { 0 };
	int c;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		longopts[i] = flags[i].opt;
	workload_params_default(&o->wl);
	o->lookups = 1000000;
	ob_read_caches(&o->caches, "");
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:l:n:h", longopts, NULL)) != -1) {
		struct ob_err err = { 0 };

		if (c == OPT_CACHES)
			o->caches_arg = optarg;
		if (c == OPT_CACHES && ob_parse_caches(optarg, &o->caches, &err)) {
			fprintf(stderr, "opsbench-run: %s\n", err.msg);
			exit(EXIT_USAGE);
		}
		if (c == OPT_SCENARIO && !(o->scenario = ob_scenario_find(optarg)))
			bad("scenario", optarg, "no such scenario (see --list)");
	}
	if (o->scenario)
		ob_scenario_params(o->scenario, &o->caches, &o->wl, &o->pollute);
	optind = 0;
	while ((c = getopt_long(argc, argv, ":s:l:n:h", longopts, NULL)) != -1)
		parse_flag(c, argv, o);
	if (optind < argc) {
		fprintf(stderr, "opsbench-run: unexpected argument '%s' (see --help)\n", argv[optind]);
		exit(EXIT_USAGE);
	}
	/* The context: the scenario's, each flag over its half of it. */
	o->context = o->scenario ? o->scenario->context : OB_CTX_BARE;
	if (o->context_name || o->kernel) {
		const char *name = o->context_name ? o->context_name : ob_context_name(o->context);
		const char *kernel = o->kernel ? o->kernel :
				     o->context_name ? NULL : ob_context_kernel(o->context);

		o->context = ob_context_find(name, kernel);
		if (o->context == OB_CTX_COUNT)
			bad("kernel", kernel, "the bare lookup is Linux 6.12's alone; 6.1 goes with --context component");
	}
}

/* One line on each context, for --list. */
static const char *const context_summary[OB_CTX_COUNT] = {
	[OB_CTX_BARE]		= "the dcache lookup alone: hash, chain walk, compare, revalidate",
	[OB_CTX_COMPONENT_6_12]	= "a whole path component: may_lookup (inode_permission, generic_permission, make_vfsuid; LSM hook off), walk_component, lookup_fast, __d_lookup_rcu, step_into",
	[OB_CTX_COMPONENT_6_1]	= "as 6.12, the LSM hook an indirect call (the BPF LSM's stub), the hash table's base and shift loaded from memory",
};

static void list(const struct ob_caches *c)
{
	const struct strategy *s;
	size_t i;

	printf("%-17s %-13s %s\n", "strategy", "object_bytes", "how an optional op is reached");
	for_each_strategy(s, i)
		printf("%-17s %-13zu %s%s\n", s->name, s->object_size, s->summary,
		       s->baseline ? " [baseline]" : s->custom_baseline ? " [baseline with custom ops]" : "");
	printf("\n%-24s %-9s %-8s %-6s %-8s %-14s %s\n", "scenario", "dentries", "custom%", "depth",
	       "order", "pollute_bytes", "what it shows");
	for (const struct ob_scenario *sc = ob_scenarios; sc->name; sc++) {
		struct workload_params p;
		size_t pollute;

		ob_scenario_params(sc, c, &p, &pollute);
		printf("%-24s %-9zu %-8u %-6u %-8s %-14zu %s\n", sc->name, p.dentries, sc->custom_pct,
		       p.path_depth, lookup_order_name(p.order), pollute, sc->summary);
	}
	printf("\n%-10s %-7s %s\n", "context", "kernel", "what is around each lookup");
	for (int k = 0; k < OB_CTX_COUNT; k++)
		printf("%-10s %-7s %s\n", ob_context_name((enum ob_context)k),
		       ob_context_kernel((enum ob_context)k), context_summary[k]);
	printf("\nScenarios are sized by L1D %zu, L2 %zu, LLC %zu bytes (%s); other knobs: see --help.\n"
	       "Programs read `opsbench-run --list --json`.\n",
	       c->l1d, c->l2, c->llc, c->source);
}

/* @s as a JSON string. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* The opening of one list entry: its separator, name, summary and (if any) origin. */
static void json_entry(bool first, const char *name, const char *summary, const char *origin)
{
	printf("%s\n {\"name\":", first ? "" : ",");
	json_str(name);
	printf(",\"summary\":");
	json_str(summary);
	if (origin) {
		printf(",\"origin\":");
		json_str(origin);
	}
}

/*
 * Everything scripts need, as JSON: the build, the caches scenarios are
 * sized by, the strategies, the named scenarios with every parameter
 * resolved, the regulator strategies, and the PMU events with the perf
 * tool's names.
 */
static void list_json(const struct ob_caches *c)
{
	const struct strategy *s;
	size_t i;

	printf("{\"commit\":\"%s\",\"variant\":\"%s\",\"caches\":{\"l1d\":%zu,\"l2\":%zu,\"llc\":%zu,"
	       "\"l1i\":%zu,\"line\":%zu,\"l1d_ways\":%u,\"l1i_ways\":%u,\"l2_ways\":%u,\"llc_ways\":%u,"
	       "\"from_sysfs\":%s,\"source\":\"%s\"},\"sizing_bytes\":%zu,\n\"strategies\":[",
	       ob_build_commit, ob_build_variant, c->l1d, c->l2, c->llc, c->l1i, c->line, c->l1d_ways,
	       c->l1i_ways, c->l2_ways, c->llc_ways, c->from_sysfs ? "true" : "false", c->source,
	       ob_sizing_bytes());
	for_each_strategy(s, i) {
		json_entry(!i, s->name, s->summary, s->origin);
		printf(",\"object_bytes\":%zu,\"inline_name_len\":%zu,\"custom_ops\":%s,"
		       "\"baseline\":%s,\"custom_baseline\":%s}", s->object_size, s->inline_name_len,
		       s->custom_ops ? "true" : "false", s->baseline ? "true" : "false",
		       s->custom_baseline ? "true" : "false");
	}
	printf("],\n\"scenarios\":[");
	for (const struct ob_scenario *sc = ob_scenarios; sc->name; sc++) {
		struct workload_params p;
		size_t pollute;

		ob_scenario_params(sc, c, &p, &pollute);
		json_entry(sc == ob_scenarios, sc->name, sc->summary, NULL);
		printf(",\"size_class\":\"%s\",\"size_bytes\":%zu,\"dentries\":%zu,\"custom_share\":%g,"
		       "\"order\":\"%s\",\"zipf\":%g,\"depth\":%u,\"cold\":%s,\"pollute_bytes\":%zu,"
		       "\"pollute_buffer_bytes\":%zu,\"negative_share\":%g,\"case_share\":%g,"
		       "\"stale_share\":%g,\"name_min\":%u,\"name_max\":%u,\"fanout\":%u,"
		       "\"dir_share\":%g,\"seed\":%llu,\"paths\":%zu,\"context\":\"%s\",\"kernel\":\"%s\"}",
		       ob_size_class_name(sc->size), ob_size_class_bytes(sc->size, c), p.dentries,
		       p.custom_share, lookup_order_name(p.order), p.zipf_s, p.path_depth,
		       sc->cold ? "true" : "false", pollute, pollute,
		       p.negative_share, p.case_share, p.stale_share, p.name_min, p.name_max, p.fanout,
		       p.dir_share, (unsigned long long)p.seed, p.lookups, ob_context_name(sc->context),
		       ob_context_kernel(sc->context));
	}
	printf("],\n\"contexts\":[");
	for (int k = 0; k < OB_CTX_COUNT; k++) {
		json_entry(!k, ob_context_name((enum ob_context)k), context_summary[k], NULL);
		printf(",\"kernel\":\"%s\"}", ob_context_kernel((enum ob_context)k));
	}
	printf("],\n\"regulator_strategies\":[");
	for (size_t k = 0; ob_reg_strategies[k]; k++) {
		const struct reg_strategy *r = ob_reg_strategies[k];

		json_entry(!k, r->name, r->summary, r->origin);
		printf(",\"timing_ops\":%s,\"baseline\":%s}", r->timing_ops ? "true" : "false",
		       r->baseline ? "true" : "false");
	}
	printf("],\n\"pmu_events\":[");
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		printf("%s{\"name\":", e ? "," : "");
		json_str(pmu_event_name(e));
		printf(",\"perf\":");
		json_str(pmu_event_perf_name(e));
		putchar('}');
	}
	printf("]}\n");
}

/*
 * The measured loop, out of line and named, so that whole-process tools can
 * find it: `make cachesim` has callgrind collect only inside this function
 * (and not inside ob_pollute(), whose accesses still reach the simulated
 * caches).
 */
noinline uint64_t ob_measured_lookups(const struct strategy *s, struct ob_tree *t,
				      struct ob_run *r, uint64_t n)
{
	return s->run(t, r, n);
}

/* The timed part, run on a stack at a fixed address (opsbench/stack.h). */
struct measured {
	const struct strategy *s;
	struct ob_tree *tree;
	struct ob_run run;
	uint64_t lookups;
	struct pmu *pmu;	/* NULL: not counting */
	struct pmu_reading reading;
	double ns;		/* wall time of the loop */
	uint64_t sum;
	unsigned int stack_offset;	/* --stack-offset */
};

static void measure(void *arg)
{
	struct measured *m = arg;
	struct ob_run run = m->run;	/* on this stack: its line is placed too */
	double t0;
	/* --stack-offset: the loop's frames, and its callees', that much lower. */
	volatile unsigned char *pad = m->stack_offset ? alloca(m->stack_offset) : NULL;

	if (pad)
		pad[0] = 0;

	if (m->pmu)
		pmu_start(m->pmu);
	t0 = ob_mono_ns();
	m->sum = m->lookups ? ob_measured_lookups(m->s, m->tree, &run, m->lookups) : 0;
	m->ns = ob_mono_ns() - t0;
	if (m->pmu)
		pmu_stop(m->pmu, &m->reading);
	m->run = run;
}

/*
 * --case and --stale act on dentries with custom ops of one personality
 * (@pers, or "all"): given where no lookup can reach one, refuse them
 * rather than measure something else than asked.
 */
static void check_personality_flag(const struct options *o, const struct strategy *s,
				   const char *flag, const char *arg, int pers)
{
	unsigned int mask = (1u << pers) | (1u << PERS_ALL);

	if (!arg)
		return;
	if (!s->custom_ops || o->wl.custom_share <= 0 || !(o->wl.custom_mask & mask)) {
		fprintf(stderr, "opsbench-run: --%s %s: acts only on directories with %s ops; "
			"give --custom F > 0, --personalities with %s or all, and a strategy with "
			"custom ops (%s has %s)\n", flag, arg, personality_name(pers), personality_name(pers),
			s->name, s->custom_ops ? "them" : "none");
		exit(EXIT_USAGE);
	}
}

/* The strategy @o names, once the options agree with each other; exits with a message when not. */
static const struct strategy *check_options(const struct options *o)
{
	const struct strategy *s;

	if (!o->strategy) {
		fprintf(stderr, "opsbench-run: --strategy is required (one of the names --list prints)\n");
		exit(EXIT_USAGE);
	}
	if (o->caches_arg && !o->scenario) {
		fprintf(stderr, "opsbench-run: --caches %s: it sizes a --scenario (or the --list of them); "
			"without one, give --dentries\n", o->caches_arg);
		exit(EXIT_USAGE);
	}
	if (o->zipf && o->wl.order != ORDER_ZIPF) {
		fprintf(stderr, "opsbench-run: --zipf %s: only with --order zipf (the order is %s)\n",
			o->zipf, lookup_order_name(o->wl.order));
		exit(EXIT_USAGE);
	}
	if (o->mode == OB_COLD && !o->pollute) {
		fprintf(stderr, "opsbench-run: --mode cold: needs --pollute BYTES (what evicts the lines between lookups)\n");
		exit(EXIT_USAGE);
	}
	s = ob_strategy_find(o->strategy);
	if (!s) {
		fprintf(stderr, "opsbench-run: --strategy '%s': no such strategy (see --list)\n", o->strategy);
		exit(EXIT_USAGE);
	}
	check_personality_flag(o, s, "case", o->case_arg, PERS_CASEFOLD);
	check_personality_flag(o, s, "stale", o->stale_arg, PERS_REVALIDATE);
	return s;
}

/*
 * The workload, @s's tree of it, and the pollution buffer, once the memory
 * they need is there.  0, or the exit status after saying why.
 */
static int set_up(const struct options *o, const struct strategy *s, struct workload *wl,
		  struct ob_tree **tree, struct ob_run *run)
{
	struct ob_err err = { 0 };
	char what[192];
	size_t tree_bytes = workload_memory_estimate(&o->wl, s->object_size);

	if (workload_params_check(&o->wl, &err)) {
		fprintf(stderr, "opsbench-run: %s\n", err.msg);
		return EXIT_USAGE;
	}
	/* Name every flag that makes the memory needed, with its share of it. */
	snprintf(what, sizeof(what),
		 "--dentries %zu and --paths %zu (%zu MiB) with --pollute %zu (a %zu MiB buffer)",
		 o->wl.dentries, o->wl.lookups, tree_bytes >> 20, o->pollute, o->pollute >> 20);
	if (ob_check_memory(tree_bytes + o->pollute, what, &err)) {
		fprintf(stderr, "opsbench-run: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (workload_generate(&o->wl, wl, &err)) {
		fprintf(stderr, "opsbench-run: %s\n", err.msg);
		return err.code == -EINVAL ? EXIT_USAGE : 1;
	}
	if (s->build(wl, o->context, tree, &err)) {
		fprintf(stderr, "opsbench-run: %s\n", err.msg);
		workload_free(wl);
		return err.code == -EINVAL ? EXIT_USAGE : 1;
	}
	run->mode = o->mode;
	run->context = o->context;
	if (o->pollute) {
		run->pollute_bytes = o->pollute;
		run->pollute_size = o->pollute;
		run->pollute_buf = ob_pollute_alloc(o->pollute);
		if (!run->pollute_buf) {
			fprintf(stderr, "opsbench-run: out of memory for a %zu-byte pollution buffer\n",
				run->pollute_size);
			return 1;
		}
	}
	return 0;
}

/*
 * @o->lookups lookups of @s in @tree, timed (and counted, unless --no-pmu)
 * on a stack at a fixed address, into @m.  0, or the exit status.
 */
static int time_lookups(const struct options *o, const struct strategy *s, struct ob_tree *tree,
			const struct ob_run *run, struct measured *m)
{
	struct ob_err err = { 0 };
	struct pmu pmu;
	int counting = 0;

	if (!o->no_pmu && o->lookups)
		counting = pmu_open(&pmu, stderr);
	if (o->mode == OB_COLD) {	/* calibrate before, not inside, the timed part */
		ob_ts_ns_per_tick();
		ob_ts_overhead_ticks();
	}
	*m = (struct measured) {
		.s = s, .tree = tree, .run = *run, .lookups = o->lookups, .pmu = counting ? &pmu : NULL,
		.stack_offset = o->stack_offset,
	};
	if (ob_call_on_fixed_stack(measure, m, &err)) {
		fprintf(stderr, "opsbench-run: %s\n", err.msg);
		return 1;
	}
	if (counting)
		pmu_close(&pmu);
	m->pmu = NULL;
	return 0;
}

/* What one run found, for the two lines it prints. */
struct outcome {
	const struct strategy *s;
	const struct workload *wl;
	struct ob_mem mem;
	size_t found;		/* entries of the lookup list that find something */
	double ns;		/* the lookups' time (cold: timestamps, timer subtracted) */
	bool emulated;		/* under an emulator: no timing */
	struct pmu_reading reading;
};

/* The line for people: time, tree, list, and the counters per lookup. */
static void print_line(const struct options *o, const struct outcome *r)
{
	double per = o->lookups ? 1.0 / (double)o->lookups : 0.0;
	char timing[96] = "emulated: no timing";

	if (!r->emulated)
		snprintf(timing, sizeof(timing), "in %.3f ms, %.2f ns/lookup", r->ns / 1e6, r->ns * per);
	if (o->context != OB_CTX_BARE)
		printf("[%s context, Linux %s] ", ob_context_name(o->context), ob_context_kernel(o->context));
	printf("%s: %" PRIu64 " lookups %s; %zu dentries of %zu B, %.1f KiB in all; %zu/%zu of the list found",
	       r->s->name, o->lookups, timing, r->wl->n_nodes, r->mem.object_size,
	       r->mem.total / 1024.0, r->found, r->wl->n_lookups);
	for (int e = 0; e < PMU_NR_EVENTS; e++)
		if (r->reading.counted[e])
			printf("; %.2f %s/lookup", r->reading.value[e] * per, pmu_event_name(e));
	printf("\n");
}

/* The line for programs: the same as JSON, null where not measured. */
static void print_json(const struct options *o, const struct outcome *r)
{
	double per = o->lookups ? 1.0 / (double)o->lookups : 0.0;

	printf("{\"strategy\":\"%s\",\"mode\":\"%s\",\"context\":\"%s\",\"kernel\":\"%s\","
	       "\"commit\":\"%s\",\"variant\":\"%s\","
	       "\"lookups\":%" PRIu64 ",\"emulated\":%s,", r->s->name, ob_mode_name(o->mode),
	       ob_context_name(o->context), ob_context_kernel(o->context), ob_build_commit,
	       ob_build_variant, o->lookups,
	       r->emulated ? "true" : "false");
	if (r->emulated)
		printf("\"wall_ns\":null,\"ns_per_lookup\":null,");
	else
		printf("\"wall_ns\":%.0f,\"ns_per_lookup\":%.4f,", r->ns, r->ns * per);
	printf("\"dentries\":%zu,\"object_bytes\":%zu,\"total_bytes\":%zu,\"list_found\":%zu,"
	       "\"list_len\":%zu",
	       r->wl->n_nodes, r->mem.object_size, r->mem.total, r->found, r->wl->n_lookups);
	for (int e = 0; e < PMU_NR_EVENTS; e++) {
		if (r->reading.counted[e])
			printf(",\"%s/lookup\":%.4f", pmu_event_name(e), r->reading.value[e] * per);
		else
			printf(",\"%s/lookup\":null", pmu_event_name(e));
	}
	printf("}\n");
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct workload wl;
	struct ob_tree *tree;
	struct ob_run run = { 0 };
	struct measured m = { 0 };
	struct outcome r = { .wl = &wl };
	char why[256];
	uint64_t sum;
	int ret;

	ob_check_stdout_at_exit("opsbench-run");
	parse(argc, argv, &o);
	if (o.json && !o.list) {
		fprintf(stderr, "opsbench-run: --json goes with --list\n");
		return EXIT_USAGE;
	}
	if (o.list) {
		if (o.json)
			list_json(&o.caches);
		else
			list(&o.caches);
		return 0;
	}
	r.s = check_options(&o);
	r.emulated = ob_emulated(why, sizeof(why));
	if (r.emulated)
		fprintf(stderr, "opsbench-run: %s; timings mean nothing here and are not printed\n", why);
	if ((ret = set_up(&o, r.s, &wl, &tree, &run)))
		return ret;
	/* Untimed: how many of the list's lookups find something. */
	for (size_t i = 0; i < wl.n_lookups; i++)
		r.found += r.s->lookup_in(tree, o.context, wl.lookups[i].start,
					  workload_path(&wl, i)) != WL_NONE;
	if ((ret = time_lookups(&o, r.s, tree, &run, &m)))
		return ret;
	r.reading = m.reading;
	sum = m.sum;
	r.ns = m.ns;
	if (o.mode == OB_COLD && o.lookups)	/* the lookups alone, timer subtracted */
		r.ns = ((double)m.run.timed_ticks - ob_ts_overhead_ticks() * (double)o.lookups) *
		       ob_ts_ns_per_tick();
	OPTIMIZER_HIDE_VAR(sum);
	r.s->memory(tree, &r.mem);
	print_line(&o, &r);
	print_json(&o, &r);

	free(run.pollute_buf);
	r.s->destroy(tree);
	workload_free(&wl);
	return 0;
}
