// SPDX-License-Identifier: GPL-2.0-or-later
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *log_progname = "exitmon";

void log_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		log_progname = slash ? slash + 1 : argv0;
}

static void vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void vmsg(const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	/* One write per line so lines from several threads never interleave. */
	fprintf(stderr, "%s: %s\n", log_progname, line);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void log_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(status);
}

void log_usage_die(const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_die(EXIT_USAGE, "%s; see '%s --help'", msg, log_progname);
}
