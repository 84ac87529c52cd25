/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages for people: one line, program name first, what went wrong and
 * what to do.  Only main() and start-up code call log_die(). */
#ifndef COMMON_LOG_H
#define COMMON_LOG_H

#include <stdarg.h>

extern const char *log_progname;

void log_init(const char *argv0);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void log_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A bad invocation: the message, a pointer to --help, exit status 2. */
_Noreturn void log_usage_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Exit statuses every program uses; exitmon adds its own (mon_exit.h). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* a run-time failure not listed below */
	EXIT_USAGE = 2,		/* bad option or option value */
	EXIT_OUTPUT = 8,	/* output file cannot be opened or written */
};

#endif
