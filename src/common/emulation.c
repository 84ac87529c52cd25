// SPDX-License-Identifier: GPL-2.0-or-later
/* EXITMON_EMULATED and EXITMON_CLOCK, as tools/kernel-run sets them. */
#include "emulation.h"

#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 31

const char *emulation_name(void)
{
	const char *e = getenv("EXITMON_EMULATED");
	size_t n;

	if (!e)
		return NULL;
	n = strlen(e);
	if (n == 0 || n > NAME_MAX_LEN ||
	    strspn(e, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
		return NULL;
	return e;
}

bool emulation_counts_instructions(void)
{
	const char *c = getenv("EXITMON_CLOCK");

	return c && strcmp(c, "instructions") == 0;
}

const char *emulation_unit(void)
{
	return emulation_counts_instructions() ? "instr" : "ns";
}
