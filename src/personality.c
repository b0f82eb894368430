// SPDX-License-Identifier: MIT
/* personality.c - names and capabilities of the filesystem personalities. */
#include <string.h>

#include "opsbench/casefold.h"
#include "opsbench/hash.h"
#include "opsbench/personality.h"

static const struct {
	const char *name;
	unsigned int ops;
} personalities[PERS_COUNT] = {
	[PERS_PLAIN]	  = { "plain",	    0 },
	[PERS_CASEFOLD]	  = { "casefold",   POP_HASH | POP_COMPARE },
	[PERS_REVALIDATE] = { "revalidate", POP_REVALIDATE },
	[PERS_ALL]	  = { "all",	    POP_HASH | POP_COMPARE | POP_REVALIDATE },
};

const char *personality_name(enum personality p)
{
	return (unsigned int)p < PERS_COUNT ? personalities[p].name : "?";
}

int personality_from_name(const char *name)
{
	for (int p = 0; p < PERS_COUNT; p++)
		if (!strcmp(name, personalities[p].name))
			return p;
	return -1;
}

bool personality_has(enum personality p, unsigned int ops)
{
	return (unsigned int)p < PERS_COUNT && (personalities[p].ops & ops) == ops;
}

static inline unsigned char fold(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

uint32_t casefold_hash(const void *salt, const char *name, unsigned int len)
{
	char buf[OB_NAME_MAX + NAME_PAD];

	if (len > OB_NAME_MAX)
		len = OB_NAME_MAX;
	for (unsigned int i = 0; i < len; i++)
		buf[i] = (char)fold((unsigned char)name[i]);
	memset(buf + len, 0, NAME_PAD);
	return full_name_hash(salt, buf, len);
}

int casefold_cmp(const char *a, const char *b, unsigned int len)
{
	for (unsigned int i = 0; i < len; i++)
		if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
			return 1;
	return 0;
}
