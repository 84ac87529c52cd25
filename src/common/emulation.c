/* EXITMON_EMULATED, checked once. */
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
