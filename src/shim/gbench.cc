// SPDX-License-Identifier: MIT
/*
 * gbench.cc - the only C++ in opsbench: Google Benchmark behind the C API of
 * include/opsbench/gbench.h.  See that header for the method.
 */
#include <benchmark/benchmark.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <unistd.h>

#include "opsbench/gbench.h"

struct ob_gb_state {
	benchmark::State *st;
};

namespace {

/*
 * Console output of the aggregates only (median, mean, stddev, cv), plus
 * "[k/N] name" progress on stderr as each benchmark finishes.  The JSON
 * file reporter still gets every repetition.
 */
class ProgressReporter : public benchmark::ConsoleReporter {
public:
	/* Colours only on a terminal; logs and pipes get plain text. */
	explicit ProgressReporter(size_t expected)
		: ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular),
		  expected_(expected), tty_(isatty(STDERR_FILENO)) {}

	/* The machine description goes with the tables, not to the terminal. */
	bool ReportContext(const Context &context) override
	{
		SetErrorStream(&GetOutputStream());
		return ConsoleReporter::ReportContext(context);
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		std::vector<Run> aggregates;

		for (const Run &run : runs) {
			if (run.run_type == Run::RT_Aggregate) {
				aggregates.push_back(run);
				continue;
			}
			if (run.repetition_index != 0)
				continue;
			done_++;
			if (run.error_occurred) {
				skipped_++;
				if (why_.empty())
					why_ = run.benchmark_name() + ": " + run.error_message;
			}
			/* Off a terminal, about twenty lines per group are enough. */
			if (!tty_ && done_ != expected_ && done_ % (expected_ / 20 + 1))
				continue;
			std::fprintf(stderr, "%s[%zu/%zu] %s%s", tty_ ? "\r\033[K" : "", done_,
				     expected_, run.benchmark_name().c_str(), tty_ ? "" : "\n");
		}
		if (!aggregates.empty())
			ConsoleReporter::ReportRuns(aggregates);
		else if (runs.size() == 1 && runs[0].error_occurred)
			ConsoleReporter::ReportRuns(runs);
	}

	void Finalize() override
	{
		if (tty_)
			std::fprintf(stderr, "\r\033[K");
		ConsoleReporter::Finalize();
	}

	size_t skipped() const { return skipped_; }
	const std::string &why() const { return why_; }

private:
	size_t expected_;
	size_t done_ = 0;
	size_t skipped_ = 0;
	std::string why_;
	bool tty_;
};


void run_one(benchmark::State &st, ob_gb_bench b)
{
	if (b.prepare) {
		char msg[256] = "prepare failed";

		if (b.prepare(b.arg, msg, sizeof(msg)) < 0) {
			st.SkipWithError(msg);
			for (auto _ : st)
				;	/* SkipWithError: the loop body never runs */
			return;
		}
	}

	const benchmark::IterationCount n = st.max_iterations;
	uint64_t sink = 0;

	while (st.KeepRunningBatch(n)) {
		sink += b.body(b.arg, static_cast<uint64_t>(n));
		if (b.elapsed_ns)
			st.SetIterationTime(b.elapsed_ns(b.arg) * 1e-9);
	}
	benchmark::DoNotOptimize(sink);

	if (b.report) {
		ob_gb_state s{&st};

		b.report(b.arg, &s, static_cast<uint64_t>(n));
	}
}

/*
 * Does @re repeat (with '*', '+' or '{') a group that holds '|' or a
 * repetition of its own, as '(.|.)*X' or '(a+)+' do?  std::regex matches
 * by backtracking, and such a pattern takes time exponential in the
 * name's length on names it does not match: every name of the suite.
 */
bool nested_repeat(const char *re)
{
	bool inner[64] = { false };	/* per open group: holds '|' or a repetition */
	int depth = 0;

	for (const char *p = re; *p; p++) {
		if (*p == '(' && depth < 63) {
			inner[++depth] = false;
			continue;
		}
		if (*p == '|') {
			inner[depth] = true;
			continue;
		}
		if (*p == '*' || *p == '+' || *p == '?' || *p == '{')
			continue;
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {		/* a bracket expression, as one atom */
			p += p[1] == '^';
			p += p[1] == ']';
			while (p[1] && p[1] != ']')
				p++;
			p += !!p[1];
		} else if (*p == ')' && depth > 0) {
			bool held = inner[depth--];

			if (held && (p[1] == '*' || p[1] == '+' || p[1] == '{'))
				return true;
			inner[depth] |= held;
		}
		/* the atom (or group) just read, repeated */
		if (p[1] == '*' || p[1] == '+' || p[1] == '?' || p[1] == '{')
			inner[depth] = true;
	}
	return false;
}

} // namespace

extern "C" {

struct ob_gb_filter {
	std::regex re;
	bool negate, any;
};

struct ob_gb_filter *ob_gb_filter_new(const char *spec, char *msg, size_t len)
{
	ob_gb_filter *f = new (std::nothrow) ob_gb_filter();

	if (!f) {
		std::snprintf(msg, len, "out of memory");
		return nullptr;
	}
	f->any = !spec || !*spec || !std::strcmp(spec, "all");
	if (f->any)
		return f;
	if (std::strlen(spec) > OB_GB_FILTER_MAX) {
		std::snprintf(msg, len, "%zu bytes: longer than the %d a filter may have",
			      std::strlen(spec), OB_GB_FILTER_MAX);
		delete f;
		return nullptr;
	}
	f->negate = spec[0] == '-';
	if (nested_repeat(spec + f->negate)) {
		std::snprintf(msg, len, "a repeated group that holds '|' or a repetition, as '(a|b)*' or '(a+)+', "
			      "takes std::regex (Google Benchmark's engine) exponential time; write it without one");
		delete f;
		return nullptr;
	}
	try {
		f->re = std::regex(spec + f->negate, std::regex::extended);
	} catch (const std::regex_error &e) {
		std::snprintf(msg, len, "not a regular expression Google Benchmark can use (%s)", e.what());
		delete f;
		return nullptr;
	}
	return f;
}

int ob_gb_filter_match(const struct ob_gb_filter *f, const char *name)
{
	if (f->any)
		return 1;
	return std::regex_search(name, f->re) != f->negate;
}

namespace {

/* The value of --benchmark_<flag>=VALUE in @arg, or nullptr. */
const char *flag_value(const char *arg, const char *flag)
{
	size_t n = std::strlen(flag);

	if (std::strncmp(arg, "--benchmark_", 12) || std::strncmp(arg + 12, flag, n) || arg[12 + n] != '=')
		return nullptr;
	return arg + 13 + n;
}

/* Refuse what Google Benchmark would take silently or abort on. */
bool flag_ok(const char *prog, const char *arg)
{
	const char *v;
	char *end;

	if ((v = flag_value(arg, "repetitions"))) {
		long n = std::strtol(v, &end, 10);

		if (*v && !*end && n >= 1 && n <= 100000)
			return true;
		std::fprintf(stderr, "%s: %s: expected a whole number of repetitions, 1..100000\n", prog, arg);
		return false;
	}
	if ((v = flag_value(arg, "min_time"))) {
		double t = std::strtod(v, &end);

		if (*v && !*end && std::isfinite(t) && t > 0 && t <= 3600)
			return true;
		std::fprintf(stderr, "%s: %s: expected a number of seconds in (0, 3600] (a plain number: 0.05, not 0.05s)\n",
			     prog, arg);
		return false;
	}
	if ((v = flag_value(arg, "min_warmup_time"))) {
		double t = std::strtod(v, &end);

		if (*v && !*end && std::isfinite(t) && t >= 0 && t <= 3600)
			return true;
		std::fprintf(stderr, "%s: %s: expected a number of seconds in [0, 3600]\n", prog, arg);
		return false;
	}
	if ((v = flag_value(arg, "time_unit"))) {
		if (!std::strcmp(v, "ns") || !std::strcmp(v, "us") || !std::strcmp(v, "ms") || !std::strcmp(v, "s"))
			return true;
		std::fprintf(stderr, "%s: %s: expected ns, us, ms or s\n", prog, arg);
		return false;
	}
	if ((v = flag_value(arg, "format")) || (v = flag_value(arg, "out_format"))) {
		if (!std::strcmp(v, "console") || !std::strcmp(v, "json") || !std::strcmp(v, "csv"))
			return true;
		std::fprintf(stderr, "%s: %s: expected console, json or csv\n", prog, arg);
		return false;
	}
	if ((v = flag_value(arg, "filter"))) {
		char msg[256];
		ob_gb_filter *f = ob_gb_filter_new(v, msg, sizeof(msg));

		if (f) {
			delete f;
			return true;
		}
		std::fprintf(stderr, "%s: %.80s%s: %s\n", prog, arg, std::strlen(arg) > 80 ? "..." : "", msg);
		return false;
	}
	/* --benchmark_out: the suite's own (bench/outfile.c). */
	return true;
}

} // namespace

int ob_gb_init(int *argc, char **argv)
{
	const char *prog = std::strrchr(argv[0], '/') ? std::strrchr(argv[0], '/') + 1 : argv[0];

	for (int i = 1; i < *argc; i++)
		if (!flag_ok(prog, argv[i]))
			return 2;
	benchmark::Initialize(argc, argv);
	if (*argc > 1) {
		for (int i = 1; i < *argc; i++)
			std::fprintf(stderr, "%s: unknown argument '%s' (see --help)\n", prog, argv[i]);
		return 2;
	}
	return 0;
}

int ob_gb_register(const struct ob_gb_bench *b)
{
	try {
		benchmark::internal::Benchmark *r = benchmark::RegisterBenchmark(b->name, run_one, *b);

		if (b->iterations)
			r->Iterations(static_cast<benchmark::IterationCount>(b->iterations))->Repetitions(1);
		if (b->elapsed_ns)
			r->UseManualTime();
	} catch (...) {
		return -ENOMEM;
	}
	return 0;
}

size_t ob_gb_run(size_t expected, size_t *skipped, char *why, size_t why_len)
{
	ProgressReporter display(expected);
	size_t ran = benchmark::RunSpecifiedBenchmarks(&display);

	*skipped = display.skipped();
	if (why_len)
		std::snprintf(why, why_len, "%s", display.why().c_str());
	return ran;
}

void ob_gb_counter(struct ob_gb_state *s, const char *name, double value, enum ob_gb_kind kind)
{
	benchmark::Counter::Flags flags = benchmark::Counter::kDefaults;

	if (kind == OB_GB_PER_ITER)
		flags = benchmark::Counter::kAvgIterations;
	else if (kind == OB_GB_RATE)
		flags = benchmark::Counter::kIsRate;
	s->st->counters[name] = benchmark::Counter(value, flags);
}

void ob_gb_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

void ob_gb_label(struct ob_gb_state *s, const char *label)
{
	s->st->SetLabel(label);
}

void ob_gb_items(struct ob_gb_state *s, uint64_t items)
{
	s->st->SetItemsProcessed(static_cast<int64_t>(items));
}

} // extern "C"
