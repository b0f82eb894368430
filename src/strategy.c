// SPDX-License-Identifier: MIT
/* strategy.c - the registration table, built from src/strategies/list.h. */
#include <string.h>

#include "opsbench/strategy.h"

#define STRATEGY(name) extern const struct strategy strategy_##name;
#include "strategies/list.h"
#undef STRATEGY

const struct strategy *const ob_strategies[] = {
#define STRATEGY(name) &strategy_##name,
#include "strategies/list.h"
#undef STRATEGY
	NULL
};

size_t ob_strategy_count(void)
{
	return sizeof(ob_strategies) / sizeof(ob_strategies[0]) - 1;
}

const struct strategy *ob_strategy_find(const char *name)
{
	const struct strategy *s;
	size_t i;

	for_each_strategy(s, i)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

const char *ob_mode_name(enum ob_mode m)
{
	static const char *const names[OB_MODE_COUNT] = {
		[OB_THROUGHPUT]	= "throughput",
		[OB_LATENCY]	= "latency",
		[OB_COLD]	= "cold",
	};

	return (unsigned int)m < OB_MODE_COUNT ? names[m] : "unknown";
}

const char *ob_context_name(enum ob_context c)
{
	return c == OB_CTX_BARE ? "bare" : (unsigned int)c < OB_CTX_COUNT ? "component" : "unknown";
}

const char *ob_context_kernel(enum ob_context c)
{
	return c == OB_CTX_COMPONENT_6_1 ? "6.1" : "6.12";
}

enum ob_context ob_context_find(const char *context, const char *kernel)
{
	bool k61 = kernel && !strcmp(kernel, "6.1");

	if (kernel && !k61 && strcmp(kernel, "6.12"))
		return OB_CTX_COUNT;
	if (!strcmp(context, "bare"))
		return k61 ? OB_CTX_COUNT : OB_CTX_BARE;
	if (!strcmp(context, "component"))
		return k61 ? OB_CTX_COMPONENT_6_1 : OB_CTX_COMPONENT_6_12;
	return OB_CTX_COUNT;
}
