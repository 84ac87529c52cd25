/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: a scratch directory for the files a test writes and reads
 * back, made by the group setup and removed with everything in it by the
 * group teardown.  Header only, like recbuild.h; include it after
 * <cmocka.h>. */
#ifndef EXITMON_TEST_SCRATCH_H
#define EXITMON_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

static char scratch_dir[] = "/tmp/exitmon-unit.XXXXXX";

/* The path of name inside the scratch directory. */
static inline void scratch_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", scratch_dir, name);
}

/* Write text into the scratch file name. */
static inline void scratch_put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	scratch_path(p, sizeof(p), name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline int scratch_setup(void **state)
{
	(void)state;
	return mkdtemp(scratch_dir) ? 0 : -1;
}

static inline int scratch_teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
